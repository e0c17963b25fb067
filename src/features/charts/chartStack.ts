// The one way the app makes a chart: lightweight-charts with the app's base options and the theme's colours. This
// module imports the library, so only modules loaded on demand import it (the lazy canvases, and the Backtest tab's
// chart on first draw): the screens around them load without the library.
import { createChart, type DeepPartial, type IChartApi, type TimeChartOptions } from 'lightweight-charts';
import { chartThemeOptions, type ChartColors } from './chartTheme';

export { AreaSeries, createSeriesMarkers, HistogramSeries, LineSeries, LineStyle, LineType } from 'lightweight-charts';

/**
 * A chart filling `host`. `options` adds what this chart alone needs (scales, scrolling); the base (size, font, no
 * attribution logo, borderless price scales) is the same for every chart of the app. Its colours come from
 * applyChartTheme, called by the chart's theme effect (which runs after the one that made it, and on every switch).
 */
export function createAppChart(host: HTMLElement, options: DeepPartial<TimeChartOptions> = {}): IChartApi {
  return createChart(host, {
    autoSize: true,
    rightPriceScale: { borderVisible: false },
    leftPriceScale: { borderVisible: false },
    ...options,
    layout: { attributionLogo: false, fontSize: 11, ...options.layout },
  });
}

/** The theme's colours on an existing chart (a switch between light and dark). */
export function applyChartTheme(chart: IChartApi, colors: ChartColors): void {
  chart.applyOptions(chartThemeOptions(colors));
}
