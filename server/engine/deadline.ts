// When a decision's first order must have left (issue 21: never send an order late). The quotes a decision was made on
// stay a fair price only while both are fresh (QUOTE_MAX_AGE_MS) and until Deriv quotes again (once a second): a
// Deriv order that leaves after the next Deriv tick meets a price the decision never saw, and the price protection
// refuses it or, worse, it fills and the trade opens on an edge that is gone. An order also needs time to reach the
// venue, so the deadline keeps that lead. A decision that cannot make it is dropped before any order ('engine_busy').
// Pure: the core stamps it on the decision, the execution and the executor check it against their clocks.
import type { Quote } from '../venues/types';

export interface DeadlineParams {
  quoteMaxAgeMs: number;
  /** How often Deriv quotes (its ticks arrive once a second). */
  derivQuoteEveryMs: number;
  /** Time an order needs to reach the venue: it must leave at least this long before the next Deriv tick. */
  orderLeadMs: number;
}

/** The last moment (ms since epoch, the quotes' clock) at which the decision's first order may leave. */
export function sendDeadline(binance: Quote, deriv: Quote, params: DeadlineParams): number {
  const fresh = Math.min(binance.ts, deriv.ts) + params.quoteMaxAgeMs;
  const nextDerivTick = deriv.ts + params.derivQuoteEveryMs - params.orderLeadMs;
  return Math.min(fresh, nextDerivTick);
}

/** Whether a decision with this deadline may still send its first order at `now`; always for one without quotes. */
export const inTime = (sendBy: number | undefined, now: number): boolean => sendBy === undefined || now <= sendBy;

/** The opportunity outcome's words, and the refusal of a manual trade that missed it. */
export const ENGINE_BUSY = 'skipped: engine busy';
export const ENGINE_BUSY_MANUAL =
  'The engine is busy and could not place the trade while its prices were fresh; nothing was placed. Try again.';
