// The equity curve of a backtest (and of the current settings beside it). lightweight-charts is imported here, on
// first render, so it is its own chunk: the app and the Settings screen load without it. Colours come from the theme
// tokens as they resolve on <html>, and follow a switch between light and dark.
import { useEffect, useRef, useState } from 'react';
import type { BacktestEquityPoint } from '../../../contract/backtest';
import { vars } from '../../styles/theme.css';
import * as styles from './backtest.css';
import { equityGrid } from './equityGrid';
import { canDrawCharts } from '../charts/canvasSupport';

export interface EquityLine {
  label: string;
  points: BacktestEquityPoint[];
  tone: 'primary' | 'muted';
}

/** A theme token's current value, e.g. vars.color.text → '#0f172a'. */
function tokenValue(token: string): string {
  const name = /^var\((--[^),]+)/.exec(token)?.[1];
  return name ? getComputedStyle(document.documentElement).getPropertyValue(name).trim() : token;
}

export function EquityChart({ lines, from, to }: { lines: EquityLine[]; from: number; to: number }) {
  const host = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const el = host.current;
    if (!el || !canDrawCharts()) return;
    let disposed = false;
    let cleanup = () => {};
    import('lightweight-charts')
      .then(({ createChart, LineSeries, LineType, ColorType }) => {
        if (disposed) return;
        const themed = () => ({
          layout: {
            background: { type: ColorType.Solid, color: 'transparent' },
            textColor: tokenValue(vars.color.textMuted),
            attributionLogo: false,
          },
          grid: {
            vertLines: { color: tokenValue(vars.color.border) },
            horzLines: { color: tokenValue(vars.color.border) },
          },
          rightPriceScale: { borderColor: tokenValue(vars.color.border) },
          timeScale: { borderColor: tokenValue(vars.color.border), timeVisible: true, secondsVisible: false },
        });
        const chart = createChart(el, { autoSize: true, ...themed(), handleScroll: false, handleScale: false });
        const series = lines.map((line) => {
          const s = chart.addSeries(LineSeries, {
            lineType: LineType.WithSteps,
            lineWidth: line.tone === 'primary' ? 2 : 1,
            color: tokenValue(line.tone === 'primary' ? vars.color.primary : vars.color.textMuted),
            title: line.label,
            priceFormat: { type: 'price', precision: 2, minMove: 0.01 },
          });
          s.setData(equityGrid(line.points, from, to) as never);
          return { s, line };
        });
        chart.timeScale().fitContent();
        // The theme class on <html> changes when the user switches light/dark (or the OS does).
        const observer = new MutationObserver(() => {
          chart.applyOptions(themed());
          for (const { s, line } of series)
            s.applyOptions({ color: tokenValue(line.tone === 'primary' ? vars.color.primary : vars.color.textMuted) });
        });
        observer.observe(document.documentElement, { attributes: true, attributeFilter: ['class'] });
        cleanup = () => {
          observer.disconnect();
          chart.remove();
        };
      })
      .catch(() => {
        // Offline before the chart's chunk was ever cached: the figures still stand.
        if (!disposed) setFailed(true);
      });
    return () => {
      disposed = true;
      cleanup();
    };
  }, [lines, from, to]);

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
