// Pure shaping of chart data: points on an even time grid the size of what a screen can show, trade markers grouped
// so their labels never overlap, and the text summary that stands in for the picture for a screen reader (latest
// value and range).
import type { SymbolId } from '../../../contract/domain';
import type { SpreadPoint, Trade } from '../../../contract/entities';
import type { EquityPoint } from '../../../contract/figures';
import { describeSpread, formatSpread, formatUsd } from '../../lib/format';
import { toChartTime } from './chartTime';

export const SPREAD_RANGES = [
  { id: '15m', label: '15 min', ms: 15 * 60_000 },
  { id: '1h', label: '1 h', ms: 3600_000 },
  { id: '24h', label: '24 h', ms: 24 * 3600_000 },
  { id: '7d', label: '7 d', ms: 7 * 24 * 3600_000 },
] as const;
export type SpreadRangeId = (typeof SPREAD_RANGES)[number]['id'];

/** The most points a chart draws: more than a 1440 px screen has pixels would only cost time. */
export const CHART_MAX_POINTS = 1200;

/** Grid steps that fall on round times, so the axis's marks (on the grid's points) read 12:00, not 12:02:24. */
const NICE_STEPS_MS = [
  1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 14_400, 21_600, 43_200, 86_400,
].map((s) => s * 1000);

/** The grid's step for a range: the shortest round step that fits it in at most `maxPoints` cells. */
export function gridStepMs(fromMs: number, toMs: number, maxPoints = CHART_MAX_POINTS): number {
  const least = (toMs - fromMs) / maxPoints;
  return NICE_STEPS_MS.find((s) => s >= least) ?? Math.ceil(least / 86_400_000) * 86_400_000;
}

/** A gap between recorded points longer than this (and than four grid steps) is missing data, drawn as a gap. */
export const MISSING_AFTER_MS = 10 * 60_000;

/** A grid time with nothing recorded near it: the chart leaves it blank (lightweight-charts' whitespace). */
export interface MissingPoint {
  t: number;
  missing: true;
}
export type GridPoint = SpreadPoint | MissingPoint;
export const isMissing = (p: GridPoint): p is MissingPoint => 'missing' in p;

/**
 * The points in [fromMs, toMs] on an even grid of times, at most `maxPoints`, from the first recorded point to the
 * last. lightweight-charts spaces its points evenly whatever their times, so a day of minute averages beside an hour
 * of one-second samples would give the hour most of the width and the axis the same minute many times over: on an
 * even grid the width is time. A grid cell holding points is their average (spread and prices) with the lowest and
 * highest spread kept; an empty cell between two recorded points is on the straight line the chart would draw
 * between them, unless they are further apart than a recording gap (MISSING_AFTER_MS), where the cell stays blank.
 */
export function spreadGrid(
  points: readonly SpreadPoint[],
  fromMs: number,
  toMs: number,
  maxPoints = CHART_MAX_POINTS,
): GridPoint[] {
  const inRange = points.filter((p) => p.t >= fromMs && p.t <= toMs);
  if (inRange.length === 0) return [];
  const step = gridStepMs(fromMs, toMs, maxPoints);
  const cellOf = (t: number) => Math.floor(t / step);
  // The recorded points, averaged per cell.
  const cells: { cell: number; p: SpreadPoint }[] = [];
  let group: SpreadPoint[] = [];
  const flush = () => {
    const n = group.length;
    if (n === 0) return;
    const avg = (f: (p: SpreadPoint) => number) => group.reduce((s, p) => s + f(p), 0) / n;
    const cell = cellOf(group[0]!.t);
    cells.push({
      cell,
      p: {
        t: cell * step,
        binance: avg((p) => p.binance),
        deriv: avg((p) => p.deriv),
        spread: avg((p) => p.spread),
        spreadLow: Math.min(...group.map((p) => p.spreadLow)),
        spreadHigh: Math.max(...group.map((p) => p.spreadHigh)),
      },
    });
    group = [];
  };
  for (const p of inRange) {
    if (group.length > 0 && cellOf(p.t) !== cellOf(group[0]!.t)) flush();
    group.push(p);
  }
  flush();
  const missingAfter = Math.max(MISSING_AFTER_MS, 4 * step);
  const out: GridPoint[] = [];
  for (let i = 0; i < cells.length; i++) {
    const { cell, p } = cells[i]!;
    out.push(p);
    const next = cells[i + 1];
    if (!next) break;
    const gap = next.p.t - p.t;
    for (let c = cell + 1; c < next.cell; c++) {
      const t = c * step;
      if (gap > missingAfter) {
        out.push({ t, missing: true });
        continue;
      }
      const f = (t - p.t) / gap;
      const at = (a: number, b: number) => a + (b - a) * f;
      const spread = at(p.spread, next.p.spread);
      out.push({
        t,
        binance: at(p.binance, next.p.binance),
        deriv: at(p.deriv, next.p.deriv),
        spread,
        spreadLow: spread,
        spreadHigh: spread,
      });
    }
  }
  return out;
}

export interface TradeMark {
  /** ms since epoch. */
  t: number;
  kind: 'open' | 'close';
  tradeId: string;
}

/** Opens or closes close enough together to share one marker: the first one's time, and how many. */
export interface MarkCluster {
  t: number;
  kind: TradeMark['kind'];
  count: number;
}

/**
 * The marks as markers at least `minGapMs` apart for each kind (opens below the line, closes above it, so the two
 * kinds never meet): each marker stands for the marks from its time until the next one, and says how many. With the
 * gap worth a marker's label in pixels, no two labels overlap. Pure; `marks` oldest first.
 */
export function clusterMarks(marks: readonly TradeMark[], minGapMs: number): MarkCluster[] {
  const out: MarkCluster[] = [];
  const last: Partial<Record<TradeMark['kind'], MarkCluster>> = {};
  for (const m of marks) {
    const open = last[m.kind];
    if (open && m.t - open.t < minGapMs) {
      open.count += 1;
      continue;
    }
    const cluster = { t: m.t, kind: m.kind, count: 1 };
    last[m.kind] = cluster;
    out.push(cluster);
  }
  return out;
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
  let low = Infinity;
  let high = -Infinity;
  for (const p of points) {
    low = Math.min(low, p.spreadLow);
    high = Math.max(high, p.spreadHigh);
  }
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
 * Points with their chart time (chartTime.ts: whole seconds of the zone's wall clock), which must rise strictly:
 * points in the same second keep the last one, and the hour a clock goes back repeats no time. Pure.
 */
export function withChartTimes<T extends { t: number }>(
  points: readonly T[],
  timeZone: string,
): (T & { time: number })[] {
  const out: (T & { time: number })[] = [];
  for (const p of points) {
    const time = toChartTime(p.t, timeZone);
    const prev = out[out.length - 1];
    if (prev && prev.time === time) out[out.length - 1] = { ...p, time };
    else if (!prev || time > prev.time) out.push({ ...p, time });
  }
  return out;
}
