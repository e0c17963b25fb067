// The report's bar chart, with the chart library (loaded on its own, like the other charts).
import { useEffect } from 'react';
import type { ReportRow } from '../../../contract/reports';
import { applyChartTheme, HistogramSeries, QUIET_SERIES, useAppChart } from '../charts/chartStack';
import type { ChartColors } from '../charts/chartTheme';
import * as styles from './reports.css';

/** Net P&L per period as bars, oldest on the left; a month is drawn on its first day. Rows come newest first. */
export default function ReportCanvas({ rows, colors }: { rows: readonly ReportRow[]; colors: ChartColors }) {
  const { box, chart, series } = useAppChart(
    {
      handleScroll: false,
      handleScale: false,
      // A bar stays a bar: a week or two of periods never stretches into one block across the card.
      timeScale: { maxBarSpacing: 48 },
    },
    (c) =>
      c.addSeries(HistogramSeries, { ...QUIET_SERIES, priceFormat: { type: 'price', precision: 2, minMove: 0.01 } }),
  );

  useEffect(() => {
    if (chart.current) applyChartTheme(chart.current, colors);
    series.current?.setData(
      [...rows].reverse().map((r) => ({
        time: r.key.length === 7 ? `${r.key}-01` : r.key,
        value: r.netProfit,
        color: r.netProfit >= 0 ? colors.profit : colors.loss,
      })),
    );
    chart.current?.timeScale().fitContent();
  }, [chart, series, rows, colors]);

  return <div ref={box} className={styles.canvas} data-testid="report-canvas" aria-hidden="true" />;
}
