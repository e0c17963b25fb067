// Maps Deriv's error codes (and lost connections) onto the engine's VenueError kinds.
import { VenueError } from '../types';
import { DerivApiError, DerivConnectionError } from './client';

/** 'order': the call may have changed state, so a lost answer leaves the outcome unknown; 'read': it cannot have. */
export type CallPhase = 'order' | 'read';

const AUTH_CODES = new Set([
  'InvalidToken',
  'AuthorizationRequired',
  'PermissionDenied',
  'InvalidAppID',
  'AccountDisabled',
  'DisabledClient',
]);

export function toVenueError(error: unknown, phase: CallPhase): VenueError {
  if (error instanceof VenueError) return error;
  if (error instanceof DerivConnectionError) {
    return phase === 'order'
      ? new VenueError('deriv', 'unknown-outcome', `${error.message}; the order's outcome is unknown`)
      : new VenueError('deriv', 'unavailable', error.message);
  }
  if (error instanceof DerivApiError) {
    const text = `Deriv ${error.call}: ${error.message} (${error.code})`;
    if (AUTH_CODES.has(error.code)) return new VenueError('deriv', 'auth', text);
    if (error.code === 'InsufficientBalance') return new VenueError('deriv', 'insufficient-balance', text);
    if (error.code === 'RateLimit') return new VenueError('deriv', 'rate-limit', text);
    if (error.code === 'InternalServerError' || error.code === 'ServiceUnavailable') {
      return new VenueError('deriv', phase === 'order' ? 'unknown-outcome' : 'unavailable', text);
    }
    return new VenueError('deriv', 'rejected', text);
  }
  return new VenueError('deriv', 'unavailable', error instanceof Error ? error.message : String(error));
}
