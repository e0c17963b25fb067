// The equity curve of a backtest (and of the current settings beside it). The chart module (charts/chartStack.ts, with
// lightweight-charts) is imported here, on first render, so it is its own chunk: the app and the Settings screen load
// without it. Colours come from the theme (charts/chartTheme.ts) and follow a switch between light and dark.
import { useEffect, useRef, useState } from 'react';
import type { IChartApi, ISeriesApi, UTCTimestamp } from 'lightweight-charts';
import type { BacktestEquityPoint } from '../../../contract/backtest';
import { canDrawCharts } from '../charts/canvasSupport';
import { withChartTimes } from '../charts/chartData';
import { useChartColors, type ChartColors } from '../charts/chartTheme';
import { useTimeZone } from '../../hooks/timeZone';
import * as styles from './backtest.css';
import { equityGrid } from '../charts/equityGrid';

export interface EquityLine {
  label: string;
  points: BacktestEquityPoint[];
  tone: 'primary' | 'muted';
}

const toneColor = (colors: ChartColors, tone: EquityLine['tone']) =>
  tone === 'primary' ? colors.primary : colors.muted;

interface Drawn {
  chart: IChartApi;
  series: { s: ISeriesApi<'Line'>; line: EquityLine }[];
  applyTheme: (colors: ChartColors) => void;
}

/** The theme's colours on a drawn chart and its lines. */
function paint(drawn: Drawn, colors: ChartColors) {
  drawn.applyTheme(colors);
  for (const { s, line } of drawn.series) s.applyOptions({ color: toneColor(colors, line.tone) });
}

export function EquityChart({ lines, from, to }: { lines: EquityLine[]; from: number; to: number }) {
  const host = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);
  const colors = useChartColors();
  const timeZone = useTimeZone();
  // The chart is made after an import, so it reads the colours of that moment; the effect below follows a switch.
  const colorsNow = useRef(colors);
  const drawn = useRef<Drawn | null>(null);

  useEffect(() => {
    const el = host.current;
    if (!el || !canDrawCharts()) return;
    let disposed = false;
    import('../charts/chartStack')
      .then(({ createAppChart, applyChartTheme, LineSeries, LineType, QUIET_SERIES }) => {
        if (disposed) return;
        const chart = createAppChart(el, {
          timeScale: { timeVisible: true, secondsVisible: false },
          handleScroll: false,
          handleScale: false,
        });
        const series = lines.map((line) => {
          const s = chart.addSeries(LineSeries, {
            ...QUIET_SERIES,
            lineType: LineType.WithSteps,
            lineWidth: line.tone === 'primary' ? 2 : 1,
            title: line.label,
            priceFormat: { type: 'price', precision: 2, minMove: 0.01 },
          });
          const grid = equityGrid(line.points, from, to).map((p) => ({ t: p.time * 1000, value: p.value }));
          s.setData(withChartTimes(grid, timeZone).map((p) => ({ time: p.time as UTCTimestamp, value: p.value })));
          return { s, line };
        });
        chart.timeScale().fitContent();
        drawn.current = { chart, series, applyTheme: (c) => applyChartTheme(chart, c) };
        paint(drawn.current, colorsNow.current);
      })
      .catch(() => {
        // Offline before the chart's chunk was ever cached: the figures still stand.
        if (!disposed) setFailed(true);
      });
    return () => {
      disposed = true;
      drawn.current?.chart.remove();
      drawn.current = null;
    };
  }, [lines, from, to, timeZone]);

  // The theme class on <html> changes when the user switches light/dark (or the OS does).
  useEffect(() => {
    colorsNow.current = colors;
    if (drawn.current) paint(drawn.current, colors);
  }, [colors]);

  return (
    <figure className={styles.chartFigure}>
      <div
        ref={host}
        className={styles.chart}
        role="img"
        aria-label={`Equity curve: ${lines.map((l) => l.label).join(' and ')}, realised P&L in USDT over the range`}
      />
      {failed && <p className={styles.note}>The chart could not be loaded; the figures above are complete.</p>}
      <figcaption className={styles.legend}>
        {lines.map((l) => (
          <span key={l.label} className={styles.legendItem} data-tone={l.tone}>
            {l.label}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
