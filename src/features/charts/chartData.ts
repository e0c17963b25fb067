// Pure shaping of chart data: points bucketed to what a screen can show, trade markers, and the text summary that
// stands in for the picture for a screen reader (latest value and range).
import type { SymbolId } from '../../../contract/domain';
import type { SpreadPoint, Trade } from '../../../contract/entities';
import type { EquityPoint } from '../../../contract/figures';
import { describeSpread, formatSpread, formatUsd } from '../../lib/format';

export const SPREAD_RANGES = [
  { id: '15m', label: '15 min', ms: 15 * 60_000 },
  { id: '1h', label: '1 h', ms: 3600_000 },
  { id: '24h', label: '24 h', ms: 24 * 3600_000 },
  { id: '7d', label: '7 d', ms: 7 * 24 * 3600_000 },
] as const;
export type SpreadRangeId = (typeof SPREAD_RANGES)[number]['id'];

/** The most points a chart draws: more than a 1440 px screen has pixels would only cost time. */
export const CHART_MAX_POINTS = 1200;

/**
 * The points from `fromMs` on, at most `maxPoints`: consecutive points are grouped into equal time buckets, each drawn
 * as the average spread and prices of its points, with the group's lowest and highest spread kept. Oldest first.
 */
export function bucketPoints(
  points: readonly SpreadPoint[],
  fromMs: number,
  toMs: number,
  maxPoints = CHART_MAX_POINTS,
): SpreadPoint[] {
  const inRange = points.filter((p) => p.t >= fromMs && p.t <= toMs);
  if (inRange.length <= maxPoints) return inRange;
  const width = Math.ceil((toMs - fromMs) / maxPoints / 1000) * 1000;
  const out: SpreadPoint[] = [];
  let group: SpreadPoint[] = [];
  let start = -1;
  const flush = () => {
    if (group.length === 0) return;
    const n = group.length;
    const avg = (f: (p: SpreadPoint) => number) => group.reduce((s, p) => s + f(p), 0) / n;
    out.push({
      t: start,
      binance: avg((p) => p.binance),
      deriv: avg((p) => p.deriv),
      spread: avg((p) => p.spread),
      spreadLow: Math.min(...group.map((p) => p.spreadLow)),
      spreadHigh: Math.max(...group.map((p) => p.spreadHigh)),
    });
    group = [];
  };
  for (const p of inRange) {
    const b = fromMs + Math.floor((p.t - fromMs) / width) * width;
    if (b !== start) {
      flush();
      start = b;
    }
    group.push(p);
  }
  flush();
  return out;
}

export interface TradeMark {
  /** ms since epoch. */
  t: number;
  kind: 'open' | 'close';
  tradeId: string;
}

/** Each trade's open and close on this pair within the range, oldest first. */
export function tradeMarks(trades: readonly Trade[], symbol: SymbolId, fromMs: number, toMs: number): TradeMark[] {
  const marks: TradeMark[] = [];
  for (const t of trades) {
    if (t.symbol !== symbol) continue;
    const opened = Date.parse(t.createdAt);
    if (opened >= fromMs && opened <= toMs) marks.push({ t: opened, kind: 'open', tradeId: t.tradeId });
    const closed = t.closedAt ? Date.parse(t.closedAt) : NaN;
    if (closed >= fromMs && closed <= toMs) marks.push({ t: closed, kind: 'close', tradeId: t.tradeId });
  }
  return marks.sort((a, b) => a.t - b.t);
}

/** The spread chart in words: the latest value with its sign explained, and the range over the window. */
export function spreadSummary(points: readonly SpreadPoint[], rangeLabel: string): string {
  const last = points[points.length - 1];
  if (!last) return `No spread history for the last ${rangeLabel} yet.`;
  const low = Math.min(...points.map((p) => p.spreadLow));
  const high = Math.max(...points.map((p) => p.spreadHigh));
  return `Latest: ${describeSpread(last.spread)}. Over the last ${rangeLabel} the spread ranged from ${formatSpread(low)} to ${formatSpread(high)}.`;
}

/** The equity curve in words: where it stands and its lowest and highest points. */
export function equitySummary(points: readonly EquityPoint[]): string {
  const last = points[points.length - 1];
  if (!last) return 'No finished trades yet: the equity curve starts with the first one.';
  const values = points.map((p) => p.equity);
  return `Realised P&L after ${points.length} finished trade${points.length === 1 ? '' : 's'}: ${formatUsd(last.equity)} (lowest ${formatUsd(Math.min(0, ...values))}, highest ${formatUsd(Math.max(0, ...values))}).`;
}

/**
 * Chart times are whole seconds and must rise strictly: points in the same second keep the last one. Pure.
 */
export function toSeconds<T extends { t: number }>(points: readonly T[]): (T & { time: number })[] {
  const out: (T & { time: number })[] = [];
  for (const p of points) {
    const time = Math.floor(p.t / 1000);
    const prev = out[out.length - 1];
    if (prev && prev.time === time) out[out.length - 1] = { ...p, time };
    else if (!prev || time > prev.time) out.push({ ...p, time });
  }
  return out;
}
