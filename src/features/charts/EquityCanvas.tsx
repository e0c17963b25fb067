// The equity curve's drawing, with the chart library (loaded on its own, like the spread chart).
import type { IChartApi, ISeriesApi, UTCTimestamp } from 'lightweight-charts';
import { useEffect, useRef } from 'react';
import type { EquityPoint } from '../../../contract/figures';
import { toSeconds } from './chartData';
import { AreaSeries, applyChartTheme, createAppChart } from './chartStack';
import type { ChartColors } from './chartTheme';
import * as styles from './charts.css';

export default function EquityCanvas({ points, colors }: { points: EquityPoint[]; colors: ChartColors }) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<IChartApi | null>(null);
  const series = useRef<ISeriesApi<'Area'> | null>(null);

  useEffect(() => {
    if (!box.current) return;
    const c = createAppChart(box.current, { timeScale: { timeVisible: true } });
    chart.current = c;
    series.current = c.addSeries(AreaSeries, {
      lineWidth: 2,
      priceFormat: { type: 'price', precision: 2, minMove: 0.01 },
    });
    return () => {
      c.remove();
      chart.current = null;
      series.current = null;
    };
  }, []);

  useEffect(() => {
    if (chart.current) applyChartTheme(chart.current, colors);
    const last = points[points.length - 1]?.equity ?? 0;
    const line = last >= 0 ? colors.profit : colors.loss;
    series.current?.applyOptions({ lineColor: line, topColor: `${line}55`, bottomColor: `${line}08` });
  }, [colors, points]);

  useEffect(() => {
    series.current?.setData(toSeconds(points).map((p) => ({ time: p.time as UTCTimestamp, value: p.equity })));
    chart.current?.timeScale().fitContent();
  }, [points]);

  return <div ref={box} className={styles.canvas} data-testid="equity-canvas" aria-hidden="true" />;
}
