import { globalStyle } from '@vanilla-extract/css';
import { font, vars } from './theme.css';

globalStyle('*, *::before, *::after', { boxSizing: 'border-box' });
globalStyle('html, body', { margin: 0, padding: 0, minHeight: '100%' });
globalStyle('html', { WebkitTextSizeAdjust: '100%' });
globalStyle('body', {
  background: vars.color.bg,
  color: vars.color.text,
  fontFamily: font.body,
  fontSize: '15px',
  lineHeight: 1.5,
  WebkitFontSmoothing: 'antialiased',
  overflowX: 'hidden',
});
globalStyle('a', { color: vars.color.primary });
globalStyle('h1, h2, h3, h4', { margin: 0, lineHeight: 1.25 });
globalStyle('button, input, select, textarea', { font: 'inherit', color: 'inherit' });
// Visible focus for keyboard users everywhere; mouse clicks don't leave a ring.
globalStyle(':focus-visible', { outline: `2px solid ${vars.color.focus}`, outlineOffset: '2px' });
globalStyle('.Toastify__toast', { fontFamily: font.body, fontSize: '14px' });
// Below the sidebar breakpoint the top bar holds the menu button, the title and the user menu: toasts start under it
// (56 px bar + a gap) instead of at the very top, where react-toastify puts them on small screens.
globalStyle('.Toastify .Toastify__toast-container--top-right', {
  '@media': { 'screen and (max-width: 767.98px)': { top: 'calc(64px + env(safe-area-inset-top))' } },
});
