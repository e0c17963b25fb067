import { style } from '@vanilla-extract/css';
import { media, space, vars } from '../../styles/theme.css';

// Charts fill their card's width; a phone gets a shorter chart so prices and positions stay close.
export const canvas = style({ width: '100%', height: '220px', '@media': { [media.md]: { height: '300px' } } });
export const placeholder = style([
  canvas,
  { display: 'flex', alignItems: 'center', justifyContent: 'center', color: vars.color.textMuted, fontSize: '13px' },
]);
export const controls = style({
  display: 'flex',
  flexWrap: 'wrap',
  gap: space.sm,
  alignItems: 'center',
  marginBottom: space.sm,
});
export const summary = style({ fontSize: '13px', color: vars.color.textMuted, margin: `${space.sm} 0 0` });
export const legend = style({
  fontSize: '12px',
  color: vars.color.textMuted,
  display: 'flex',
  gap: space.md,
  flexWrap: 'wrap',
  marginTop: space.xs,
});
