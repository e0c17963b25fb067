// The spread chart's drawing, with the chart library: this module is loaded on its own (React.lazy), so only the
// screens that draw a chart download the library.
import type { AutoscaleInfo, ISeriesApi, SeriesMarker, UTCTimestamp } from 'lightweight-charts';
import { useEffect, useRef } from 'react';
import type { SpreadPoint } from '../../../contract/entities';
import { toSeconds, type TradeMark } from './chartData';
import { applyChartTheme, createSeriesMarkers, LineSeries, useAppChart, LineStyle } from './chartStack';
import type { ChartColors } from './chartTheme';
import * as styles from './charts.css';

export interface SpreadCanvasProps {
  points: SpreadPoint[];
  marks: TradeMark[];
  /** Horizontal lines, fractions: the user's minSpread and the cost floor (drawn on both sides of zero). */
  minSpread: number | null;
  costFloor: number | null;
  showVenues: boolean;
  colors: ChartColors;
}

const pct = (f: number) => f * 100;

export default function SpreadCanvas({ points, marks, minSpread, costFloor, showVenues, colors }: SpreadCanvasProps) {
  const {
    box,
    chart,
    series: spread,
  } = useAppChart(
    { timeScale: { timeVisible: true, secondsVisible: false }, handleScroll: { vertTouchDrag: false } },
    (c) =>
      c.addSeries(LineSeries, {
        lineWidth: 2,
        priceFormat: { type: 'custom', formatter: (v: number) => `${v.toFixed(3)}%`, minMove: 0.001 },
        title: 'spread',
      }),
  );
  const venues = useRef<ISeriesApi<'Line'>[]>([]);
  // The venues' series go with the chart they were added to.
  useEffect(
    () => () => {
      venues.current = [];
    },
    [],
  );

  // Theme.
  useEffect(() => {
    if (chart.current) applyChartTheme(chart.current, colors);
    spread.current?.applyOptions({ color: colors.primary });
  }, [chart, spread, colors]);

  // Data, threshold lines and trade markers.
  useEffect(() => {
    const s = spread.current;
    if (!s) return;
    const data = toSeconds(points);
    s.setData(data.map((p) => ({ time: p.time as UTCTimestamp, value: pct(p.spread) })));
    for (const line of s.priceLines()) s.removePriceLine(line);
    const level = (value: number, title: string, color: string) => {
      for (const sign of [1, -1])
        s.createPriceLine({
          price: pct(sign * value),
          color,
          lineWidth: 1,
          lineStyle: LineStyle.Dashed,
          axisLabelVisible: sign === 1,
          title: sign === 1 ? title : '',
        });
    };
    if (minSpread !== null) level(minSpread, 'min spread', colors.warning);
    if (costFloor !== null) level(costFloor, 'cost floor', colors.loss);
    // The scale always reaches the threshold lines: how far the spread is from trading is the point of the chart.
    const reach = pct(Math.max(minSpread ?? 0, costFloor ?? 0));
    s.applyOptions({
      autoscaleInfoProvider: (original: () => AutoscaleInfo | null) => {
        const base = original();
        if (!base?.priceRange || reach === 0) return base;
        return {
          ...base,
          priceRange: {
            minValue: Math.min(base.priceRange.minValue, -reach),
            maxValue: Math.max(base.priceRange.maxValue, reach),
          },
        };
      },
    });
    const first = data[0]?.time ?? Infinity;
    const markers: SeriesMarker<UTCTimestamp>[] = marks
      .filter((m) => Math.floor(m.t / 1000) >= first)
      .map((m) => ({
        time: Math.floor(m.t / 1000) as UTCTimestamp,
        position: m.kind === 'open' ? 'belowBar' : 'aboveBar',
        shape: m.kind === 'open' ? 'arrowUp' : 'arrowDown',
        color: m.kind === 'open' ? colors.profit : colors.neutral,
        text: m.kind === 'open' ? 'open' : 'close',
      }));
    const plugin = createSeriesMarkers(s, markers);
    return () => plugin.detach();
  }, [spread, points, marks, minSpread, costFloor, colors]);

  // The two venues' prices, on demand, on the left scale.
  useEffect(() => {
    const c = chart.current;
    if (!c) return;
    for (const v of venues.current) c.removeSeries(v);
    venues.current = [];
    c.applyOptions({ leftPriceScale: { visible: showVenues } });
    if (!showVenues) return;
    const data = toSeconds(points);
    const add = (key: 'binance' | 'deriv', color: string, title: string) => {
      const v = c.addSeries(LineSeries, {
        priceScaleId: 'left',
        color,
        lineWidth: 1,
        title,
        priceLineVisible: false,
        lastValueVisible: true,
      });
      v.setData(data.map((p) => ({ time: p.time as UTCTimestamp, value: p[key] })));
      venues.current.push(v);
    };
    add('binance', colors.warning, 'Binance');
    add('deriv', colors.profit, 'Deriv');
  }, [chart, showVenues, points, colors]);

  return <div ref={box} className={styles.canvas} data-testid="spread-canvas" aria-hidden="true" />;
}
