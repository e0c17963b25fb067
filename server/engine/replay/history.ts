// Recorded spread history as the replay reads it. The history keeps, per symbol and second (a minute once rolled up),
// both venues' MID prices and the spread — not their bids and asks. The replay rebuilds each venue's book around the
// recorded mid with that venue's quoted half-spread in the default market (venues/sim/profiles.ts: Binance 0.05 bp,
// Deriv 2 bp), so a fill pays the venue's spread as in live paper trading; the spread the engine decides on is the
// recorded one. A minute row is the average of its seconds: dislocations shorter than a minute are smoothed away in
// it, which is why the answer says how many samples of each resolution were replayed.
import type { SymbolId } from '../../../contract/domain';
import { catalogueIndex, symbolAtIndex } from '../../../contract/pairs';
import { CALIBRATED_PARAMS } from '../../venues/sim/profiles';
import type { Quote } from '../../venues/types';

/**
 * Samples in columns, oldest first (ties in the catalogue's order), so that a day of seconds crosses to a worker thread as
 * four transferable buffers instead of 170,000 objects.
 */
export interface HistoryColumns {
  /** ms since epoch. */
  t: Float64Array;
  /** Index into the pair catalogue (contract/pairs.ts). */
  symbol: Uint8Array;
  binance: Float64Array;
  deriv: Float64Array;
  /** 1 for a one-minute average, 0 for a one-second sample. */
  minute: Uint8Array;
}

export interface HistoryRow {
  t: number;
  symbol: SymbolId;
  binance: number;
  deriv: number;
  minute: boolean;
}

/** One symbol's samples at one resolution, oldest first, as the history repository reads them. */
export interface HistorySeries {
  symbol: SymbolId;
  minute: boolean;
  t: readonly number[];
  binance: readonly number[];
  deriv: readonly number[];
}

/** Several series merged into one time line: oldest first, ties in the catalogue's order (a k-way merge, no sort). */
export function mergeSeries(series: readonly HistorySeries[]): HistoryColumns {
  const n = series.reduce((sum, s) => sum + s.t.length, 0);
  const columns: HistoryColumns = {
    t: new Float64Array(n),
    symbol: new Uint8Array(n),
    binance: new Float64Array(n),
    deriv: new Float64Array(n),
    minute: new Uint8Array(n),
  };
  const at = series.map(() => 0);
  for (let out = 0; out < n; out += 1) {
    let pick = -1;
    for (let k = 0; k < series.length; k += 1) {
      const s = series[k]!;
      if (at[k]! >= s.t.length) continue;
      if (pick < 0) {
        pick = k;
        continue;
      }
      const best = series[pick]!;
      const t = s.t[at[k]!]!;
      const bestT = best.t[at[pick]!]!;
      if (t < bestT || (t === bestT && catalogueIndex(s.symbol) < catalogueIndex(best.symbol))) pick = k;
    }
    const s = series[pick]!;
    const i = at[pick]!;
    columns.t[out] = s.t[i]!;
    columns.symbol[out] = catalogueIndex(s.symbol);
    columns.binance[out] = s.binance[i]!;
    columns.deriv[out] = s.deriv[i]!;
    columns.minute[out] = s.minute ? 1 : 0;
    at[pick] = i + 1;
  }
  return columns;
}

/** Rows (tests, the benchmark) in columns; they must be in time order already. */
export function toColumns(rows: readonly HistoryRow[]): HistoryColumns {
  const n = rows.length;
  const columns: HistoryColumns = {
    t: new Float64Array(n),
    symbol: new Uint8Array(n),
    binance: new Float64Array(n),
    deriv: new Float64Array(n),
    minute: new Uint8Array(n),
  };
  rows.forEach((row, i) => {
    columns.t[i] = row.t;
    columns.symbol[i] = catalogueIndex(row.symbol);
    columns.binance[i] = row.binance;
    columns.deriv[i] = row.deriv;
    columns.minute[i] = row.minute ? 1 : 0;
  });
  return columns;
}

export interface HalfSpreads {
  binance: number;
  deriv: number;
}

export const DEFAULT_HALF_SPREADS: HalfSpreads = {
  binance: CALIBRATED_PARAMS.venues.binance.halfSpread,
  deriv: CALIBRATED_PARAMS.venues.deriv.halfSpread,
};

/** Each sample as the two venues' quotes at its instant (Binance first, as the live feeds are combined). */
export function* quotesOf(columns: HistoryColumns, halfSpreads: HalfSpreads = DEFAULT_HALF_SPREADS): Generator<Quote> {
  for (let i = 0; i < columns.t.length; i += 1) {
    const symbol = symbolAtIndex(columns.symbol[i]!);
    const ts = columns.t[i]!;
    const b = columns.binance[i]!;
    const d = columns.deriv[i]!;
    yield { venue: 'binance', symbol, bid: b * (1 - halfSpreads.binance), ask: b * (1 + halfSpreads.binance), ts };
    yield { venue: 'deriv', symbol, bid: d * (1 - halfSpreads.deriv), ask: d * (1 + halfSpreads.deriv), ts };
  }
}
