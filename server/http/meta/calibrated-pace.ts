// The calibrated simulated market's pace, measured from its own recorded spread history, so the screen can say what
// to expect ("about N opportunities a day") instead of leaving a new user waiting for hours without a word.
import { TRADING_DEFAULTS } from '../../../contract/domain';
import { openThreshold, TRADING_COSTS } from '../../../contract/costs';
import type { MarketPace, SpreadPoint } from '../../../contract/entities';
import type { Db } from '../../db/client';
import { readSpreadSeries } from '../../db/repositories/spread-history';
import { enabledSymbols } from '../../venues/enabled-pairs';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
/** How far back the pace looks. */
export const PACE_DAYS = 7;
/** A measured pace is reused this long: it moves by the day, and reading a week of minutes costs a query per pair. */
export const PACE_REUSE_MS = 10 * MINUTE;

/** A new account's opening threshold at the default taker fee: what counts as an opportunity. */
export const PACE_THRESHOLD = openThreshold(TRADING_COSTS, TRADING_DEFAULTS.minSpread, TRADING_COSTS.defaultTakerFee);

/**
 * The opportunities in one pair's minute series (oldest first): each run of consecutive minutes whose spread reached
 * the threshold either way counts once, so a spread that stays wide for ten minutes is one opportunity, not ten.
 */
export function countOpportunities(points: readonly SpreadPoint[], threshold: number): number {
  let count = 0;
  let lastWideAt: number | null = null;
  for (const p of points) {
    const wide = Math.max(Math.abs(p.spreadLow), Math.abs(p.spreadHigh)) >= threshold;
    if (wide && (lastWideAt === null || p.t - lastWideAt > MINUTE)) count += 1;
    if (wide) lastWideAt = p.t;
  }
  return count;
}

/** The pace over every traded pair's last week, per day that has history; null while nothing is recorded. */
export async function measurePace(db: Db, now: number): Promise<MarketPace | null> {
  const to = new Date(now);
  const from = new Date(now - PACE_DAYS * DAY);
  const days = new Set<number>();
  let opportunities = 0;
  for (const symbol of enabledSymbols()) {
    const points = await readSpreadSeries(db, symbol, from, to, 60);
    for (const p of points) days.add(Math.floor(p.t / DAY));
    opportunities += countOpportunities(points, PACE_THRESHOLD);
  }
  if (days.size === 0) return null;
  return { perDay: Math.round((opportunities / days.size) * 10) / 10, days: days.size, threshold: PACE_THRESHOLD };
}

/** measurePace shared by the requests of `reuseMs`; a failed read answers null (the screen then says nothing). */
export function pacedReader(db: Db, reuseMs = PACE_REUSE_MS, now: () => number = Date.now) {
  let kept: { at: number; value: Promise<MarketPace | null> } | null = null;
  return (): Promise<MarketPace | null> => {
    const at = now();
    if (kept && at - kept.at < reuseMs) return kept.value;
    const value = measurePace(db, at).catch(() => null);
    kept = { at, value };
    return value;
  };
}
