import type { ChartOptions, DeepPartial } from 'lightweight-charts';
import { useEffect, useState } from 'react';
import { vars } from '../../styles/theme.css';

// Charts draw on a canvas, which cannot read CSS variables: the theme's colours are resolved from <html> and read
// again whenever the theme class on it changes, so a chart follows light and dark like everything else. Every chart
// of the app is made in chartStack.ts with these colours; this module does not load the chart library (types only), so
// the cards that hold a chart use it while the library itself waits until a chart is drawn.

export interface ChartColors {
  text: string;
  muted: string;
  grid: string;
  surface: string;
  primary: string;
  profit: string;
  loss: string;
  warning: string;
  neutral: string;
}

const cssVar = (ref: string) => ref.replace(/^var\((--[^,)]+).*$/, '$1');

export function readChartColors(): ChartColors {
  const style = getComputedStyle(document.documentElement);
  const get = (ref: string, fallback: string) => style.getPropertyValue(cssVar(ref)).trim() || fallback;
  return {
    text: get(vars.color.text, '#0f172a'),
    muted: get(vars.color.textMuted, '#556173'),
    grid: get(vars.color.border, '#dde3ec'),
    surface: get(vars.color.surface, '#ffffff'),
    primary: get(vars.color.primary, '#2453d6'),
    profit: get(vars.color.profit, '#0a7a45'),
    loss: get(vars.color.loss, '#c42b2b'),
    warning: get(vars.color.warning, '#9a6000'),
    neutral: get(vars.color.neutral, '#4b5563'),
  };
}

/** The theme's chart colours, read again when the theme changes. */
export function useChartColors(): ChartColors {
  const [colors, setColors] = useState(readChartColors);
  useEffect(() => {
    const observer = new MutationObserver(() => setColors(readChartColors()));
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['class'] });
    return () => observer.disconnect();
  }, []);
  return colors;
}

/** The chart options that carry the theme: transparent background, muted text, grid and scale borders. */
export function chartThemeOptions(colors: ChartColors): DeepPartial<ChartOptions> {
  return {
    layout: { background: { color: 'transparent' }, textColor: colors.muted },
    grid: { vertLines: { color: colors.grid }, horzLines: { color: colors.grid } },
    rightPriceScale: { borderColor: colors.grid },
    leftPriceScale: { borderColor: colors.grid },
    timeScale: { borderColor: colors.grid },
  };
}
