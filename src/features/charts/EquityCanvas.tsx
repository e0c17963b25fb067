// The equity curve's drawing, with the chart library (loaded on its own, like the spread chart).
import type { UTCTimestamp } from 'lightweight-charts';
import { useEffect } from 'react';
import type { EquityPoint } from '../../../contract/figures';
import { toSeconds } from './chartData';
import { AreaSeries, applyChartTheme, useAppChart } from './chartStack';
import type { ChartColors } from './chartTheme';
import * as styles from './charts.css';

export default function EquityCanvas({ points, colors }: { points: EquityPoint[]; colors: ChartColors }) {
  const { box, chart, series } = useAppChart({ timeScale: { timeVisible: true } }, (c) =>
    c.addSeries(AreaSeries, { lineWidth: 2, priceFormat: { type: 'price', precision: 2, minMove: 0.01 } }),
  );

  useEffect(() => {
    if (chart.current) applyChartTheme(chart.current, colors);
    const last = points[points.length - 1]?.equity ?? 0;
    const line = last >= 0 ? colors.profit : colors.loss;
    series.current?.applyOptions({ lineColor: line, topColor: `${line}55`, bottomColor: `${line}08` });
  }, [chart, series, colors, points]);

  useEffect(() => {
    series.current?.setData(toSeconds(points).map((p) => ({ time: p.time as UTCTimestamp, value: p.equity })));
    chart.current?.timeScale().fitContent();
  }, [chart, series, points]);

  return <div ref={box} className={styles.canvas} data-testid="equity-canvas" aria-hidden="true" />;
}
