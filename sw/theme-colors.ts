// The browser-chrome colours of the installed app, one per colour scheme. They match the top bar of the light and dark
// themes; manifest.webmanifest carries the dark one as theme_color/background_color (a manifest has only one).
export const THEME_COLOR_LIGHT = '#ffffff';
export const THEME_COLOR_DARK = '#0b1220';
