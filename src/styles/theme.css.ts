import { createTheme, createThemeContract } from '@vanilla-extract/css';

// One contract, two themes. Components use only these tokens, so a theme switch is one class on <html>.
export const vars = createThemeContract({
  color: {
    bg: null,
    surface: null,
    surfaceRaised: null,
    surfaceHover: null,
    border: null,
    text: null,
    textMuted: null,
    primary: null,
    primaryHover: null,
    primaryText: null,
    primarySoft: null,
    profit: null,
    profitSoft: null,
    loss: null,
    lossSoft: null,
    /** Text on a loss-coloured background (the Delete button): white on the dark red of light mode, ink on the
     * light red of dark mode, each at least 4.5:1 (WCAG AA). */
    lossText: null,
    warning: null,
    warningSoft: null,
    neutral: null,
    neutralSoft: null,
    focus: null,
    overlay: null,
    highlight: null,
  },
  shadow: { card: null, popover: null },
});

export const space = { xs: '4px', sm: '8px', md: '12px', lg: '16px', xl: '24px', xxl: '32px' } as const;
export const radius = { sm: '6px', md: '10px', lg: '14px', pill: '999px' } as const;
export const font = {
  body: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  mono: 'ui-monospace, "SF Mono", "Cascadia Mono", Menlo, Consolas, monospace',
} as const;
/** Breakpoints: the sidebar appears from `md` up; below it a hamburger menu. */
export const media = { md: 'screen and (min-width: 768px)', lg: 'screen and (min-width: 1100px)' } as const;

export const lightTheme = createTheme(vars, {
  color: {
    bg: '#f5f7fb',
    surface: '#ffffff',
    surfaceRaised: '#ffffff',
    surfaceHover: '#eef2f8',
    border: '#dde3ec',
    text: '#0f172a',
    textMuted: '#556173',
    primary: '#2453d6',
    primaryHover: '#1b43b4',
    primaryText: '#ffffff',
    primarySoft: '#e5ecfd',
    profit: '#0a7a45',
    profitSoft: '#dff5e9',
    loss: '#c42b2b',
    lossSoft: '#fde6e6',
    lossText: '#ffffff',
    warning: '#9a6000',
    warningSoft: '#fff1d6',
    neutral: '#4b5563',
    neutralSoft: '#eceff3',
    focus: '#2453d6',
    overlay: 'rgba(15, 23, 42, 0.45)',
    highlight: '#e7f7ee',
  },
  shadow: {
    card: '0 1px 2px rgba(15,23,42,0.06), 0 1px 3px rgba(15,23,42,0.08)',
    popover: '0 10px 30px rgba(15,23,42,0.18)',
  },
});

export const darkTheme = createTheme(vars, {
  color: {
    bg: '#0b1220',
    surface: '#111a2c',
    surfaceRaised: '#16213a',
    surfaceHover: '#1c2946',
    border: '#26324d',
    text: '#e6ebf5',
    textMuted: '#9aa7bf',
    primary: '#6d95ff',
    primaryHover: '#8aabff',
    primaryText: '#0b1220',
    primarySoft: '#1d2b52',
    profit: '#3ddc97',
    profitSoft: '#10362a',
    loss: '#ff6b6b',
    lossSoft: '#3d1a1f',
    lossText: '#0b1220',
    warning: '#f5b84a',
    warningSoft: '#3a2c10',
    neutral: '#a7b0c0',
    neutralSoft: '#222c40',
    focus: '#8aabff',
    overlay: 'rgba(0, 0, 0, 0.6)',
    highlight: '#0f3325',
  },
  shadow: { card: '0 1px 2px rgba(0,0,0,0.4)', popover: '0 12px 32px rgba(0,0,0,0.55)' },
});
