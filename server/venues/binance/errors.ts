// Maps what ccxt throws for Binance onto the engine's VenueError kinds.
import ccxt from 'ccxt';
import { VenueError } from '../types';
import { BinanceHttpError } from './exchange';

/** 'order': the call may have changed state (a 5xx leaves the outcome unknown); 'read': it cannot have. */
export type CallPhase = 'order' | 'read';

const AUTH_CODES = new Set([-2015, -2014, -1022, -2008]);

/** Binance's own error code out of a ccxt message such as `binance {"code":-2015,"msg":"..."}`. */
export function binanceCode(error: unknown): number | null {
  const match = error instanceof Error ? /"code"\s*:\s*(-?\d+)/.exec(error.message) : null;
  return match ? Number(match[1]) : null;
}

/** Binance's own message, without ccxt's prefix, and without a request's query (its timestamp and signature). */
function binanceMessage(error: Error): string {
  const match = /"msg"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(error.message);
  return match?.[1] ?? error.message.replace(/^binance\s+/, '').replace(/\?[^\s"]*/g, '');
}

export function isDuplicateOrder(error: unknown): boolean {
  return binanceCode(error) === -2010 && error instanceof Error && /duplicate/i.test(error.message);
}

export function toVenueError(error: unknown, phase: CallPhase): VenueError {
  if (error instanceof VenueError) return error;
  if (error instanceof BinanceHttpError) {
    if (error.status === 429 || error.status === 418) {
      const banned = error.status === 418 ? ' (IP banned)' : '';
      return new VenueError('binance', 'rate-limit', `Binance rate limit${banned}; retry later`, error.retryAfterMs);
    }
    return phase === 'order'
      ? new VenueError(
          'binance',
          'unknown-outcome',
          `Binance answered ${error.status} while placing an order; its outcome is unknown`,
        )
      : new VenueError('binance', 'unavailable', `Binance answered ${error.status}`);
  }
  if (!(error instanceof Error)) return new VenueError('binance', 'rejected', String(error));
  const code = binanceCode(error);
  const message = binanceMessage(error);
  if (
    (code !== null && AUTH_CODES.has(code)) ||
    error instanceof ccxt.AuthenticationError ||
    error instanceof ccxt.PermissionDenied
  ) {
    return new VenueError('binance', 'auth', `Binance refused the credentials: ${message}`);
  }
  if (code === -1021)
    return new VenueError(
      'binance',
      'rejected',
      `Binance refused the request time: ${message} Check the server clock.`,
    );
  if ((code === -2010 && !isDuplicateOrder(error)) || error instanceof ccxt.InsufficientFunds) {
    return new VenueError('binance', 'insufficient-balance', `Binance: ${message}`);
  }
  if (code === -1003 || error instanceof ccxt.DDoSProtection || error instanceof ccxt.RateLimitExceeded) {
    return new VenueError('binance', 'rate-limit', `Binance rate limit: ${message}`);
  }
  if (code === -1000 || error instanceof ccxt.NetworkError) {
    // -1000 is Binance's "unknown error"; a dropped connection is as blind.
    return phase === 'order'
      ? new VenueError('binance', 'unknown-outcome', `Binance order outcome unknown: ${message}`)
      : new VenueError('binance', 'unavailable', `Binance unreachable: ${message}`);
  }
  return new VenueError('binance', 'rejected', `Binance rejected the request: ${message}`);
}
