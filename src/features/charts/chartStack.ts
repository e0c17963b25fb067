// The one way the app makes a chart: lightweight-charts with the app's base options and the theme's colours. This
// module imports the library, so only modules loaded on demand import it (the lazy canvases, and the Backtest tab's
// chart on first draw): the screens around them load without the library.
import { createChart, type DeepPartial, type IChartApi, type TimeChartOptions } from 'lightweight-charts';
import { useEffect, useRef, type RefObject } from 'react';
import { chartThemeOptions, type ChartColors } from './chartTheme';
import { formatCrosshairTime, formatTick } from './chartTime';

export { AreaSeries, createSeriesMarkers, HistogramSeries, LineSeries, LineStyle, LineType } from 'lightweight-charts';

/**
 * A series that shows its values on the line only: a value tag (and its price line) on the axis covers the axis's own
 * labels, on a phone most of them. The latest value is said in the chart's summary below it instead.
 */
export const QUIET_SERIES = { lastValueVisible: false, priceLineVisible: false } as const;

/**
 * A chart filling `host`. `options` adds what this chart alone needs (scales, scrolling); the base (size, font, no
 * attribution logo, borderless price scales, the time axis) is the same for every chart of the app. Its colours come
 * from applyChartTheme, called by the chart's theme effect (which runs after the one that made it, and on every
 * switch). Times given to it are chart times (chartTime.ts): the zone's wall clock read as UTC.
 */
export function createAppChart(host: HTMLElement, options: DeepPartial<TimeChartOptions> = {}): IChartApi {
  return createChart(host, {
    autoSize: true,
    rightPriceScale: { borderVisible: false },
    leftPriceScale: { borderVisible: false },
    ...options,
    timeScale: {
      // The first and last points sit on the edges (no empty space beside them), and a label there is moved inside
      // rather than cut ("15:4").
      fixLeftEdge: true,
      fixRightEdge: true,
      tickMarkFormatter: (time: unknown, type: number) => (typeof time === 'number' ? formatTick(time, type) : null),
      ...options.timeScale,
    },
    localization: {
      timeFormatter: formatCrosshairTime,
      ...options.localization,
    },
    layout: { attributionLogo: false, fontSize: 11, ...options.layout },
  });
}

/** The theme's colours on an existing chart (a switch between light and dark). */
export function applyChartTheme(chart: IChartApi, colors: ChartColors): void {
  chart.applyOptions(chartThemeOptions(colors));
}

/**
 * A canvas component's chart: made once in `box` with the series `addSeries` puts on it, removed with the component.
 * `options` and `addSeries` are read on the first render only.
 */
export function useAppChart<Series>(
  options: DeepPartial<TimeChartOptions>,
  addSeries: (chart: IChartApi) => Series,
): { box: RefObject<HTMLDivElement | null>; chart: RefObject<IChartApi | null>; series: RefObject<Series | null> } {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<IChartApi | null>(null);
  const series = useRef<Series | null>(null);
  const made = useRef({ options, addSeries });
  useEffect(() => {
    if (!box.current) return;
    const c = createAppChart(box.current, made.current.options);
    chart.current = c;
    series.current = made.current.addSeries(c);
    return () => {
      c.remove();
      chart.current = null;
      series.current = null;
    };
  }, []);
  return { box, chart, series };
}
