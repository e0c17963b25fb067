// The equity curve's drawing, with the chart library (loaded on its own, like the spread chart).
import type { UTCTimestamp } from 'lightweight-charts';
import { useEffect } from 'react';
import type { EquityPoint } from '../../../contract/figures';
import { withChartTimes } from './chartData';
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
    // Evenly spaced times (equityGrid.ts): the chart spaces points evenly, so trades' own times would make the axis
    // uneven.
    const grid = equityGrid(points, first, Math.max(first, to)).map((p) => ({ t: p.time * 1000, value: p.value }));
    series.current?.setData(
      withChartTimes(grid, timeZone).map((p) => ({ time: p.time as UTCTimestamp, value: p.value })),
    );
    chart.current?.timeScale().fitContent();
  }, [chart, series, points, to, timeZone]);

  return <div ref={box} className={styles.canvas} data-testid="equity-canvas" aria-hidden="true" />;
}
