import { globalStyle, style } from '@vanilla-extract/css';
import { media, radius, space, vars } from '../../styles/theme.css';

export const controls = style({
  display: 'flex',
  flexWrap: 'wrap',
  gap: space.sm,
  alignItems: 'center',
  justifyContent: 'space-between',
  marginBottom: space.md,
});
/** Day / Week / Month as one segmented control. */
export const segments = style({
  display: 'inline-flex',
  border: `1px solid ${vars.color.border}`,
  borderRadius: radius.md,
  overflow: 'hidden',
});
export const segment = style({
  all: 'unset',
  cursor: 'pointer',
  padding: `6px ${space.lg}`,
  fontSize: '13px',
  fontWeight: 600,
  color: vars.color.textMuted,
  selectors: {
    '&[aria-pressed="true"]': { background: vars.color.primary, color: vars.color.primaryText },
    '&:focus-visible': { outline: `2px solid ${vars.color.focus}`, outlineOffset: '-2px' },
  },
});
export const canvas = style({ width: '100%', height: '180px', '@media': { [media.md]: { height: '240px' } } });
export const placeholder = style([
  canvas,
  { display: 'flex', alignItems: 'center', justifyContent: 'center', color: vars.color.textMuted, fontSize: '13px' },
]);
export const subTitle = style({ fontSize: '14px', fontWeight: 650, margin: `${space.lg} 0 ${space.sm}` });
export const note = style({ fontSize: '12.5px', color: vars.color.textMuted, margin: `${space.sm} 0 0` });
/** Report tables are a handful of short numbers: on a phone tighter cells, and the won count gives way. */
export const compact = style({ fontSize: '13px' });
globalStyle(`${compact} th, ${compact} td`, {
  '@media': { 'screen and (max-width: 767.98px)': { padding: `${space.sm} ${space.xs}` } },
});
/** The period or pair: the one column that may wrap. */
export const keyCell = style({ whiteSpace: 'normal', minWidth: '88px' });
export const total = style({ fontWeight: 650 });
