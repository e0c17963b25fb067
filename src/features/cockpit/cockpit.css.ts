import { style } from '@vanilla-extract/css';
import { media, radius, space, vars } from '../../styles/theme.css';

// The cockpit's panels: the risk strip, open positions, opportunities and a trade's detail.
export const strip = style({
  display: 'grid',
  gap: space.sm,
  gridTemplateColumns: 'repeat(2, minmax(0, 1fr))',
  '@media': { [media.lg]: { gridTemplateColumns: 'repeat(4, minmax(0, 1fr))' } },
});
export const stripItem = style({
  border: `1px solid ${vars.color.border}`,
  borderRadius: radius.md,
  padding: `${space.sm} ${space.md}`,
  background: vars.color.surface,
  minWidth: 0,
  display: 'flex',
  flexDirection: 'column',
  gap: '2px',
});
export const stripLabel = style({ fontSize: '12px', color: vars.color.textMuted, fontWeight: 600 });
export const stripValue = style({
  fontSize: '14px',
  fontWeight: 650,
  fontVariantNumeric: 'tabular-nums',
  overflowWrap: 'anywhere',
});
export const stripSub = style({ fontSize: '12px', color: vars.color.textMuted, overflowWrap: 'anywhere' });
export const meter = style({
  height: '6px',
  borderRadius: radius.pill,
  background: vars.color.neutralSoft,
  overflow: 'hidden',
  marginTop: '2px',
});
export const meterFill = style({
  height: '100%',
  background: vars.color.primary,
  selectors: {
    '&[data-tone="warning"]': { background: vars.color.warning },
    '&[data-tone="loss"]': { background: vars.color.loss },
  },
});

export const list = style({ listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column' });
export const row = style({
  display: 'grid',
  gridTemplateColumns: 'minmax(0, 1fr) auto',
  gap: `4px ${space.md}`,
  padding: `${space.md} 0`,
  borderBottom: `1px solid ${vars.color.border}`,
  selectors: { '&:last-child': { borderBottom: 'none' } },
});
export const rowMain = style({
  display: 'flex',
  alignItems: 'center',
  gap: space.sm,
  flexWrap: 'wrap',
  fontWeight: 650,
  minWidth: 0,
});
export const rowMeta = style({
  fontSize: '13px',
  color: vars.color.textMuted,
  display: 'flex',
  gap: `2px ${space.md}`,
  flexWrap: 'wrap',
  fontVariantNumeric: 'tabular-nums',
  minWidth: 0,
});
export const rowRight = style({
  textAlign: 'right',
  display: 'flex',
  flexDirection: 'column',
  alignItems: 'flex-end',
  gap: '4px',
});
export const legs = style({
  gridColumn: '1 / -1',
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fit, minmax(140px, 1fr))',
  gap: space.sm,
  fontSize: '13px',
});
export const leg = style({
  background: vars.color.surfaceRaised,
  border: `1px solid ${vars.color.border}`,
  borderRadius: radius.sm,
  padding: `${space.xs} ${space.sm}`,
  fontVariantNumeric: 'tabular-nums',
});
export const exposure = style({ fontSize: '13px', color: vars.color.textMuted, marginBottom: space.sm });

export const detailGrid = style({
  display: 'grid',
  gap: `${space.sm} ${space.lg}`,
  gridTemplateColumns: 'minmax(0, 1fr) minmax(0, 1fr)',
  fontSize: '14px',
  '@media': { [media.md]: { gridTemplateColumns: 'repeat(4, minmax(0, 1fr))' } },
});
/** The trade page's actions above its figures (Close while open), with why one is disabled. */
export const detailActions = style({
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'center',
  gap: space.sm,
  margin: `0 0 ${space.md}`,
  fontSize: '13px',
});
export const term = style({ fontSize: '12px', color: vars.color.textMuted, fontWeight: 600 });
export const definition = style({ margin: 0, fontVariantNumeric: 'tabular-nums', overflowWrap: 'anywhere' });
export const filters = style({ display: 'flex', gap: space.sm, flexWrap: 'wrap', marginBottom: space.sm });
