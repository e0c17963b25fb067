// The equity curve's drawing, with the chart library (loaded on its own, like the spread chart).
import type { UTCTimestamp } from 'lightweight-charts';
import { useEffect } from 'react';
import type { EquityPoint } from '../../../contract/figures';
import { gridStepMs, withChartTimes } from './chartData';
import { AreaSeries, applyChartTheme, QUIET_SERIES, useAppChart } from './chartStack';
import type { ChartColors } from './chartTheme';
import * as styles from './charts.css';
import { equityGrid } from './equityGrid';

export interface EquityCanvasProps {
  points: EquityPoint[];
  /** The curve runs from the first finished trade to here (now): where the P&L stands today. */
  to: number;
  colors: ChartColors;
  timeZone: string;
}

/** About as many points as the curve needs to show each trade's step at 1440 px. */
const EQUITY_CELLS = 240;
/**
 * The fewest cells drawn: a curve of a few seconds (the first trade just closed) would be a handful of points spaced
 * across the width, each labelled, the first label cut at the edge. It starts earlier instead, at $0.00 as the
 * realised P&L stood before the first finished trade.
 */
const MIN_EQUITY_CELLS = 60;

export default function EquityCanvas({ points, to, colors, timeZone }: EquityCanvasProps) {
  const { box, chart, series } = useAppChart({ timeScale: { timeVisible: true, secondsVisible: false } }, (c) =>
    c.addSeries(AreaSeries, {
      ...QUIET_SERIES,
      lineWidth: 2,
      priceFormat: { type: 'price', precision: 2, minMove: 0.01 },
    }),
  );

  useEffect(() => {
    if (chart.current) applyChartTheme(chart.current, colors);
    const last = points[points.length - 1]?.equity ?? 0;
    const line = last >= 0 ? colors.profit : colors.loss;
    series.current?.applyOptions({ lineColor: line, topColor: `${line}55`, bottomColor: `${line}08` });
  }, [chart, series, colors, points]);

  useEffect(() => {
    const first = points[0]?.t;
    if (first === undefined) return;
    // Evenly spaced round times (equityGrid.ts, gridStepMs): the chart spaces points evenly, so trades' own times
    // would make the axis uneven, and marks on a grid started at the first trade would read 14:02:30.
    const step = gridStepMs(first, Math.max(first, to), EQUITY_CELLS);
    const end = Math.max(Math.floor(first / step) * step + step, Math.ceil(to / step) * step);
    const from = Math.min(Math.floor(first / step) * step, end - MIN_EQUITY_CELLS * step);
    const grid = equityGrid(points, from, end, Math.round((end - from) / step)).map((p) => ({
      t: p.time * 1000,
      value: p.value,
    }));
    series.current?.setData(
      withChartTimes(grid, timeZone).map((p) => ({ time: p.time as UTCTimestamp, value: p.value })),
    );
    chart.current?.timeScale().fitContent();
  }, [chart, series, points, to, timeZone]);

  return <div ref={box} className={styles.canvas} data-testid="equity-canvas" aria-hidden="true" />;
}
