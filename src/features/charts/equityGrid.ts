// The chart draws its points evenly spaced, one after another, whatever their times: a realised-equity curve (a step
// at each finished trade) is therefore resampled onto an even grid of times, so the horizontal axis reads as time.
import type { EquityPoint } from '../../../contract/figures';

/**
 * `cells` + 1 points from `from` to `to` (ms), each the equity as it stood at that time — except that a cell whose
 * trades dipped below where the cell both started and ended shows the dip, so a drawdown the figures report is drawn.
 * The last point is the final equity. Times in whole seconds, strictly increasing, as the chart wants them.
 */
export function equityGrid(
  points: readonly EquityPoint[],
  from: number,
  to: number,
  cells = 240,
): { time: number; value: number }[] {
  const sorted = [...points].sort((a, b) => a.t - b.t);
  const step = Math.max(1000, Math.max(1, to - from) / cells);
  const out: { time: number; value: number }[] = [];
  let i = 0;
  let value = 0;
  const push = (t: number, v: number) => {
    const time = Math.floor(t / 1000);
    if (out.length > 0 && out[out.length - 1]!.time >= time) out[out.length - 1]!.value = v;
    else out.push({ time, value: v });
  };
  for (let t = from; t < to; t += step) {
    const start = value;
    let low = Infinity;
    while (i < sorted.length && sorted[i]!.t <= t) {
      value = sorted[i]!.equity;
      low = Math.min(low, value);
      i += 1;
    }
    push(t, low < Math.min(start, value) ? low : value);
  }
  while (i < sorted.length) value = sorted[i++]!.equity;
  push(to, value);
  return out;
}
