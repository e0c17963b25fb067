// Maps Deriv's errors (socket codes, REST statuses) and lost connections onto the engine's VenueError kinds, in the
// words a trader understands: "Deriv refused the token: it has no trade scope", never a bare status code.
import { VenueError } from '../types';
import { DerivApiError, DerivConnectionError } from './client';
import { DerivRestError } from './rest';

/** 'order': the call may have changed state, so a lost answer leaves the outcome unknown; 'read': it cannot have. */
export type CallPhase = 'order' | 'read';

const AUTH_CODES = new Set([
  'InvalidToken',
  'AuthorizationRequired',
  'PermissionDenied',
  'InvalidAppID',
  'AccountDisabled',
  'DisabledClient',
  'Unauthorized',
]);

/** A socket error code in words, where Deriv's own message says too little. */
const CODE_WORDS: Record<string, string> = {
  InvalidToken: 'Deriv refused the token: it is invalid or has expired',
  InvalidAppID: 'Deriv refused the app ID',
  PermissionDenied: 'Deriv refused the token: it lacks a scope this needs',
  AccountDisabled: 'Deriv has disabled this account',
  DisabledClient: 'Deriv has disabled this account',
};

/** The 401 Deriv gives a personal access token sent without the app ID it was made for. */
export const isMissingAppId = (error: unknown): boolean =>
  error instanceof DerivRestError && error.status === 401 && /Deriv-App-ID/i.test(error.message);

export function restRefusal(error: DerivRestError): VenueError {
  if (isMissingAppId(error)) {
    return new VenueError(
      'deriv',
      'auth',
      'Deriv refused the token: it is a personal access token, which needs the app ID of the app it was made for. Enter that app ID beside the token.',
    );
  }
  switch (error.status) {
    case 401:
      return new VenueError('deriv', 'auth', `Deriv refused the token or the app ID: ${lower(error.message)}`);
    case 403:
      return new VenueError(
        'deriv',
        'auth',
        'Deriv refused the token: it has no trade scope. Make a personal access token with the trade scope.',
      );
    case 429: {
      const wait = error.retryAfterMs ? `; try again in ${Math.ceil(error.retryAfterMs / 1000)} s` : '';
      return new VenueError(
        'deriv',
        'rate-limit',
        `Deriv allows 60 requests a minute per token${wait}`,
        error.retryAfterMs,
      );
    }
    default:
      return error.status >= 500
        ? new VenueError('deriv', 'unavailable', `Deriv's API is failing right now (${error.status})`)
        : new VenueError('deriv', 'rejected', `Deriv refused: ${lower(error.message)}`);
  }
}

const lower = (message: string): string => {
  const trimmed = message.trim().replace(/\.$/, '');
  return trimmed ? trimmed.charAt(0).toLowerCase() + trimmed.slice(1) : 'no reason given';
};

export function toVenueError(error: unknown, phase: CallPhase): VenueError {
  if (error instanceof VenueError) return error;
  if (error instanceof DerivRestError) return restRefusal(error);
  if (error instanceof DerivConnectionError) {
    if (error.status === 429)
      return new VenueError(
        'deriv',
        'rate-limit',
        'Deriv refused another connection: it allows 5 at once per user (other apps on the same Deriv login count too)',
      );
    return phase === 'order'
      ? new VenueError('deriv', 'unknown-outcome', `${error.message}; the order's outcome is unknown`)
      : new VenueError('deriv', 'unavailable', error.message);
  }
  if (error instanceof DerivApiError) {
    const words = CODE_WORDS[error.code];
    const text = words ? `${words} (${error.code})` : `Deriv ${error.call}: ${error.message} (${error.code})`;
    if (AUTH_CODES.has(error.code)) return new VenueError('deriv', 'auth', text);
    if (error.code === 'InsufficientBalance') return new VenueError('deriv', 'insufficient-balance', text);
    if (error.code === 'RateLimit') return new VenueError('deriv', 'rate-limit', text);
    if (['InternalServerError', 'InternalError', 'ServiceUnavailable'].includes(error.code)) {
      return new VenueError('deriv', phase === 'order' ? 'unknown-outcome' : 'unavailable', text);
    }
    return new VenueError('deriv', 'rejected', text);
  }
  return new VenueError('deriv', 'unavailable', error instanceof Error ? error.message : String(error));
}
