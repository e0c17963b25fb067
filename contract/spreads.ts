// Spread history, one definition for both sides: how long it is kept, how live prices become one-second samples,
// and at which resolution a range is served.
import type { SymbolId } from './domain';
import type { SpreadPoint, SymbolPrice } from './entities';

export const SPREAD_HISTORY_DEFAULT_DAYS = 30;
export const SPREAD_HISTORY_MAX_DAYS = 365;
/** Samples stay at one second for a day; older ones are rolled up into one-minute averages. */
export const SPREAD_RAW_KEEP_MS = 24 * 3600 * 1000;
export const SPREAD_ROLLUP_SECONDS = 60;
/** The most points one answer carries, whatever the range. */
export const SPREAD_MAX_POINTS = 3600;
/** The longest range one request may ask for: everything the longest retention keeps. */
export const SPREAD_MAX_RANGE_MS = (SPREAD_HISTORY_MAX_DAYS + 1) * 24 * 3600 * 1000;
/** Bucket widths a series is served at, finest first. */
export const SPREAD_RESOLUTIONS_SECONDS = [1, 5, 15, 60, 300, 900, 3600, 14_400, 86_400] as const;

/**
 * The finest resolution that answers [from, to) in at most SPREAD_MAX_POINTS points; never finer than what is
 * stored, so a range that starts before the last day (rolled up to minutes) is served at a minute or coarser.
 */
export function spreadResolutionSeconds(fromMs: number, toMs: number, nowMs: number): number {
  const rangeSeconds = Math.max(0, toMs - fromMs) / 1000;
  const stored = fromMs < nowMs - SPREAD_RAW_KEEP_MS ? SPREAD_ROLLUP_SECONDS : 1;
  const fits = SPREAD_RESOLUTIONS_SECONDS.find((r) => r >= stored && Math.ceil(rangeSeconds / r) <= SPREAD_MAX_POINTS);
  return fits ?? Math.max(...SPREAD_RESOLUTIONS_SECONDS);
}

export interface SpreadSample extends SpreadPoint {
  symbol: SymbolId;
}

/**
 * The sample a price makes for its second, or null while a venue has not quoted or a quote is stale: a stalled feed
 * paired with a moving one is a phantom spread, not something the market did.
 */
export function spreadSampleOf(price: SymbolPrice): SpreadSample | null {
  const at = Date.parse(price.timestamp);
  if (price.stale || price.binance === null || price.deriv === null || price.spread === null || !Number.isFinite(at))
    return null;
  return {
    symbol: price.symbol,
    t: Math.floor(at / 1000) * 1000,
    binance: price.binance,
    deriv: price.deriv,
    spread: price.spread,
    spreadLow: price.spread,
    spreadHigh: price.spread,
  };
}

/**
 * One sample per symbol and second: the last price seen in that second, handed out once a later second begins.
 * `pending` holds each symbol's open second between calls. Returns the sample of a second that has ended, if any.
 */
export function nextSpreadSample(pending: Map<SymbolId, SpreadSample>, price: SymbolPrice): SpreadSample | null {
  const sample = spreadSampleOf(price);
  if (!sample) return null;
  const open = pending.get(sample.symbol);
  if (open && sample.t < open.t) return null;
  pending.set(sample.symbol, sample);
  return open && sample.t > open.t ? open : null;
}
