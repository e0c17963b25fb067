import { style } from '@vanilla-extract/css';
import { media, space, vars } from '../styles/theme.css';

// How a screen arranges its cards: a vertical stack, stat grids, column splits, a filter toolbar.
export const stack = style({
  display: 'flex',
  flexDirection: 'column',
  gap: space.lg,
  '@media': { [media.md]: { gap: space.xl } },
});
export const statGrid = style({
  display: 'grid',
  gap: space.md,
  gridTemplateColumns: 'repeat(2, minmax(0, 1fr))',
  '@media': { [media.lg]: { gridTemplateColumns: 'repeat(4, minmax(0, 1fr))', gap: space.lg } },
});
export const statGrid3 = style([
  statGrid,
  { '@media': { [media.md]: { gridTemplateColumns: 'repeat(3, minmax(0, 1fr))' } } },
]);
export const twoCols = style({
  display: 'grid',
  gap: space.lg,
  gridTemplateColumns: 'minmax(0, 1fr)',
  '@media': { [media.lg]: { gridTemplateColumns: 'minmax(0, 3fr) minmax(0, 2fr)', gap: space.xl } },
});
export const halves = style({
  display: 'grid',
  gap: space.lg,
  gridTemplateColumns: 'minmax(0, 1fr)',
  '@media': { [media.md]: { gridTemplateColumns: 'repeat(2, minmax(0, 1fr))' } },
});
export const toolbar = style({ display: 'flex', gap: space.md, flexWrap: 'wrap', alignItems: 'flex-end' });
export const toolbarItem = style({ flex: '1 1 150px', maxWidth: '240px' });
export const cachedNote = style({ fontSize: '12.5px', color: vars.color.textMuted });
