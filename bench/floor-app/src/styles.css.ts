import { globalStyle, style } from '@vanilla-extract/css';

// The sign-in card's look, about as much CSS as the product's login screen.
globalStyle('body', { margin: 0, font: '15px/1.5 system-ui, sans-serif', background: '#f5f7fb', color: '#0f172a' });
export const page = style({
  minHeight: '100vh',
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'center',
  padding: 16,
  boxSizing: 'border-box',
});
export const panel = style({
  width: '100%',
  maxWidth: 420,
  padding: 24,
  background: '#fff',
  border: '1px solid #dde3ec',
  borderRadius: 14,
  boxSizing: 'border-box',
});
export const title = style({ fontSize: 22, margin: '0 0 16px' });
export const form = style({ display: 'flex', flexDirection: 'column', gap: 16 });
export const label = style({ display: 'flex', flexDirection: 'column', gap: 4, fontWeight: 600 });
export const input = style({ padding: '10px 12px', border: '1px solid #cbd5e1', borderRadius: 8, font: 'inherit' });
export const error = style({ color: '#b42318', fontSize: 13 });
export const row = style({ display: 'flex', justifyContent: 'space-between', alignItems: 'center' });
export const button = style({
  padding: '12px',
  border: 0,
  borderRadius: 8,
  background: '#2453d6',
  color: '#fff',
  font: 'inherit',
  fontWeight: 700,
});
