import { style } from '@vanilla-extract/css';
import { media, space, vars } from '../styles/theme.css';
import { card } from './ui.css';

/** A stat tile is the design system's card. */
export const statCard = card;
export const statLabel = style({
  fontSize: '12.5px',
  fontWeight: 600,
  color: vars.color.textMuted,
  textTransform: 'uppercase',
  letterSpacing: '0.04em',
});
export const statValue = style({
  fontSize: '19px',
  fontWeight: 750,
  marginTop: space.xs,
  fontVariantNumeric: 'tabular-nums',
  overflowWrap: 'anywhere',
  '@media': { [media.md]: { fontSize: '26px' } },
});
export const statSub = style({ fontSize: '12.5px', color: vars.color.textMuted, marginTop: '2px' });
