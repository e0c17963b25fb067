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
globalStyle('.Toastify__toast', {
  fontFamily: font.body,
  fontSize: '14px',
  // react-toastify squares phone toasts off and stacks them edge to edge; ours keep their corners and a gap.
  '@media': { 'screen and (max-width: 480px)': { borderRadius: '10px', marginBottom: '8px' } },
});
// Toasts sit at the bottom (features/toasts/ToastHost.tsx), clear of the top bar, the menus that open from it and the
// sidebar: on a phone across the width, lifted off the screen's edge and the home indicator (there is no bottom
// navigation to clear).
globalStyle('.Toastify .Toastify__toast-container--bottom-right', {
  '@media': {
    'screen and (max-width: 480px)': {
      bottom: 'calc(8px + env(safe-area-inset-bottom))',
      padding: '0 8px',
    },
  },
});
