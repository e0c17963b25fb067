import type { SpreadPoint } from '../../../contract/entities';

/**
 * A symbol's series with new points folded in: one point per time (a new one replaces an old one at the same time),
 * oldest first, nothing before `fromMs`. Pure; live samples (newer than everything) are appended without a sort.
 */
export function mergeSpreadPoints(
  series: readonly SpreadPoint[],
  incoming: readonly SpreadPoint[],
  fromMs: number,
): SpreadPoint[] {
  const fresh = incoming.filter((p) => p.t >= fromMs);
  const kept = series[0] !== undefined && series[0].t < fromMs ? series.filter((p) => p.t >= fromMs) : series;
  const last = kept[kept.length - 1];
  const ordered = fresh.every((p, i) => i === 0 || p.t > fresh[i - 1]!.t);
  if (ordered && (last === undefined || fresh[0] === undefined || fresh[0].t > last.t)) return [...kept, ...fresh];
  const byTime = new Map<number, SpreadPoint>();
  for (const p of kept) byTime.set(p.t, p);
  for (const p of fresh) byTime.set(p.t, p);
  return [...byTime.values()].sort((a, b) => a.t - b.t);
}
