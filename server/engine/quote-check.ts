// Whether a pair of quotes may be traded on: each fresh (not older than the freshness limit) and both taken close
// enough in time that they describe the same market. Pure: the replay feeds recorded quotes through the same check.
import { VENUE_NAMES } from '../../contract/domain';
import type { Quote } from '../venues/types';

export interface QuoteLimits {
  quoteMaxAgeMs: number;
  quoteMaxSkewMs: number;
}

export type QuoteCheck = { ok: true } | { ok: false; outcome: 'quote_stale' | 'quotes_apart'; reason: string };

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/** Age of a quote at `now`, ms; null when there is none. */
export const ageOf = (quote: Quote | null, now: number): number | null => (quote ? Math.max(0, now - quote.ts) : null);

export function isStale(quote: Quote | null, now: number, limits: QuoteLimits): boolean {
  const age = ageOf(quote, now);
  return age === null || age > limits.quoteMaxAgeMs;
}

export function checkQuotes(binance: Quote | null, deriv: Quote | null, now: number, limits: QuoteLimits): QuoteCheck {
  for (const quote of [binance, deriv]) {
    if (quote && isStale(quote, now, limits)) {
      return {
        ok: false,
        outcome: 'quote_stale',
        reason: `${VENUE_NAMES[quote.venue]} has not quoted for ${seconds(now - quote.ts)}`,
      };
    }
  }
  if (!binance || !deriv)
    return { ok: false, outcome: 'quote_stale', reason: `${binance ? 'Deriv' : 'Binance'} has not quoted yet` };
  const skew = Math.abs(binance.ts - deriv.ts);
  if (skew > limits.quoteMaxSkewMs) {
    return {
      ok: false,
      outcome: 'quotes_apart',
      reason: `the two venues' quotes are ${skew} ms apart (at most ${limits.quoteMaxSkewMs} ms)`,
    };
  }
  return { ok: true };
}
