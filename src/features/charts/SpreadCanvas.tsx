// The spread chart's drawing, with the chart library: this module is loaded on its own (React.lazy), so only the
// screens that draw a chart download the library.
import type { AutoscaleInfo, ISeriesApi, SeriesMarker, UTCTimestamp } from 'lightweight-charts';
import { useEffect, useRef, useState } from 'react';
import { clusterMarks, isMissing, withChartTimes, type GridPoint, type TradeMark } from './chartData';
import { applyChartTheme, createSeriesMarkers, LineSeries, LineStyle, QUIET_SERIES, useAppChart } from './chartStack';
import type { ChartColors } from './chartTheme';
import { toChartTime } from './chartTime';
import * as styles from './charts.css';

export interface SpreadCanvasProps {
  /** On an even time grid (chartData.ts spreadGrid), `stepMs` apart. */
  points: GridPoint[];
  stepMs: number;
  marks: TradeMark[];
  /** Horizontal lines, fractions: the user's minSpread and the cost floor (drawn on both sides of zero). */
  minSpread: number | null;
  costFloor: number | null;
  showVenues: boolean;
  colors: ChartColors;
  timeZone: string;
}

const pct = (f: number) => f * 100;
/** Markers closer than this share one, with a count: room for an arrow and a two-digit count beside the next. */
export const MARKER_GAP_PX = 26;

export default function SpreadCanvas(props: SpreadCanvasProps) {
  const { points, stepMs, marks, minSpread, costFloor, showVenues, colors, timeZone } = props;
  const {
    box,
    chart,
    series: spread,
  } = useAppChart(
    { timeScale: { timeVisible: true, secondsVisible: false }, handleScroll: { vertTouchDrag: false } },
    (c) =>
      c.addSeries(LineSeries, {
        ...QUIET_SERIES,
        lineWidth: 2,
        priceFormat: { type: 'custom', formatter: (v: number) => `${v.toFixed(3)}%`, minMove: 0.001 },
      }),
  );
  const venues = useRef<ISeriesApi<'Line'>[]>([]);
  // How much time a pixel spans, as drawn now (it changes with the width and with zooming): what groups the markers.
  const [msPerPx, setMsPerPx] = useState<number | null>(null);
  // Writes what was drawn where onto the box, for a check that reads the page (a canvas cannot be asked); again
  // whenever the chart moves, as it settles a frame after its data.
  const report = useRef(() => {});
  useEffect(() => {
    const c = chart.current;
    if (!c) return;
    const measure = () => {
      const range = c.timeScale().getVisibleRange();
      const width = c.timeScale().width();
      if (!range || width <= 0) return;
      report.current();
      setMsPerPx((((range.to as number) - (range.from as number)) * 1000) / width);
    };
    c.timeScale().subscribeVisibleTimeRangeChange(measure);
    c.timeScale().subscribeSizeChange(measure);
    return () => {
      c.timeScale().unsubscribeVisibleTimeRangeChange(measure);
      c.timeScale().unsubscribeSizeChange(measure);
      // The venues' series go with the chart they were added to.
      venues.current = [];
    };
  }, [chart]);

  // Theme.
  useEffect(() => {
    if (chart.current) applyChartTheme(chart.current, colors);
    spread.current?.applyOptions({ color: colors.primary });
  }, [chart, spread, colors]);

  // Data and threshold lines.
  useEffect(() => {
    const s = spread.current;
    const c = chart.current;
    if (!s || !c) return;
    // The whole range fills the width, and stays so as live points arrive, unless the user zoomed or scrolled in.
    const shown = c.timeScale().getVisibleLogicalRange();
    const whole = !shown || (shown.from <= 0.5 && shown.to >= s.data().length - 1.5);
    s.setData(
      withChartTimes(points, timeZone).map((p) =>
        isMissing(p) ? { time: p.time as UTCTimestamp } : { time: p.time as UTCTimestamp, value: pct(p.spread) },
      ),
    );
    if (whole) c.timeScale().fitContent();
    for (const line of s.priceLines()) s.removePriceLine(line);
    // Named on the chart, not on the axis: a tag on the axis would cover its labels.
    const level = (value: number, title: string, color: string) => {
      for (const sign of [1, -1])
        s.createPriceLine({
          price: pct(sign * value),
          color,
          lineWidth: 1,
          lineStyle: LineStyle.Dashed,
          axisLabelVisible: false,
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
  }, [chart, spread, points, minSpread, costFloor, colors, timeZone]);

  // Trade markers: grouped so their labels never overlap at this width and zoom, each on its grid cell's point.
  useEffect(() => {
    const s = spread.current;
    const c = chart.current;
    const first = points[0]?.t;
    if (!s || !c || first === undefined || msPerPx === null) return;
    const clusters = clusterMarks(
      marks.filter((m) => m.t >= first),
      Math.max(stepMs, MARKER_GAP_PX * msPerPx),
    );
    const markers: SeriesMarker<UTCTimestamp>[] = clusters.map((m) => ({
      time: toChartTime(Math.floor(m.t / stepMs) * stepMs, timeZone) as UTCTimestamp,
      position: m.kind === 'open' ? 'belowBar' : 'aboveBar',
      shape: m.kind === 'open' ? 'arrowUp' : 'arrowDown',
      color: m.kind === 'open' ? colors.profit : colors.neutral,
      text: m.count > 1 ? String(m.count) : '',
    }));
    const plugin = createSeriesMarkers(s, markers);
    // The grid's step, the first and last points' positions beside the width, each marker's position, kind and count.
    report.current = () => {
      const ts = c.timeScale();
      const at = (t: number | undefined) =>
        t === undefined ? null : ts.timeToCoordinate(toChartTime(t, timeZone) as UTCTimestamp);
      if (box.current)
        box.current.dataset.drawn = JSON.stringify({
          stepMs,
          spanMs: (points[points.length - 1]?.t ?? 0) - (points[0]?.t ?? 0),
          span: [at(points[0]?.t), at(points[points.length - 1]?.t), ts.width()],
          markers: clusters.map((m) => [at(Math.floor(m.t / stepMs) * stepMs), m.kind, m.count]),
        });
    };
    report.current();
    return () => plugin.detach();
  }, [box, chart, spread, points, stepMs, marks, msPerPx, colors, timeZone]);

  // The two venues' prices, on demand, on the left scale.
  useEffect(() => {
    const c = chart.current;
    if (!c) return;
    for (const v of venues.current) c.removeSeries(v);
    venues.current = [];
    c.applyOptions({ leftPriceScale: { visible: showVenues } });
    if (!showVenues) return;
    const data = withChartTimes(points, timeZone);
    const add = (key: 'binance' | 'deriv', color: string, title: string) => {
      const v = c.addSeries(LineSeries, { ...QUIET_SERIES, priceScaleId: 'left', color, lineWidth: 1, title });
      v.setData(
        data.map((p) =>
          isMissing(p) ? { time: p.time as UTCTimestamp } : { time: p.time as UTCTimestamp, value: p[key] },
        ),
      );
      venues.current.push(v);
    };
    add('binance', colors.warning, 'Binance');
    add('deriv', colors.profit, 'Deriv');
  }, [chart, showVenues, points, colors, timeZone]);

  return <div ref={box} className={styles.canvas} data-testid="spread-canvas" aria-hidden="true" />;
}
