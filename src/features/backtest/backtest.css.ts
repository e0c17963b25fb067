import { style } from '@vanilla-extract/css';
import { media, radius, space, vars } from '../../styles/theme.css';

export const panel = style({ display: 'flex', flexDirection: 'column', gap: space.lg, minWidth: 0 });
export const intro = style({ margin: 0, fontSize: '13.5px', color: vars.color.textMuted, lineHeight: 1.5 });
export const ranges = style({
  display: 'flex',
  gap: space.xs,
  flexWrap: 'wrap',
  border: 'none',
  padding: 0,
  margin: 0,
  minWidth: 0,
});
export const rangeLegend = style({ fontSize: '13px', fontWeight: 600, marginBottom: space.xs, padding: 0 });
export const rangeOption = style({
  display: 'inline-flex',
  alignItems: 'center',
  minHeight: '36px',
  padding: `0 ${space.md}`,
  borderRadius: radius.pill,
  border: `1px solid ${vars.color.border}`,
  fontSize: '13.5px',
  fontWeight: 600,
  cursor: 'pointer',
  color: vars.color.text,
  selectors: {
    '&:has(input:checked)': {
      background: vars.color.primarySoft,
      borderColor: vars.color.primary,
      color: vars.color.primary,
    },
    '&:has(input:focus-visible)': { outline: `2px solid ${vars.color.focus}`, outlineOffset: '2px' },
  },
});
export const visuallyHidden = style({
  position: 'absolute',
  width: '1px',
  height: '1px',
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
});
export const fields = style({
  display: 'grid',
  gap: space.md,
  gridTemplateColumns: 'minmax(0, 1fr)',
  '@media': { [media.md]: { gridTemplateColumns: 'repeat(4, minmax(0, 1fr))' } },
});
export const actions = style({ display: 'flex', gap: space.sm, flexWrap: 'wrap', alignItems: 'center' });
export const offline = style({ fontSize: '12.5px', color: vars.color.warning, fontWeight: 600 });
export const results = style({ display: 'flex', flexDirection: 'column', gap: space.md, minWidth: 0 });
export const compare = style({ width: '100%', borderCollapse: 'collapse', fontSize: '14px', tableLayout: 'fixed' });
export const compareHead = style({
  textAlign: 'right',
  fontSize: '12px',
  color: vars.color.textMuted,
  fontWeight: 600,
  padding: `${space.xs} ${space.sm}`,
  borderBottom: `1px solid ${vars.color.border}`,
  selectors: { '&:first-child': { textAlign: 'left' } },
});
export const compareLabel = style({
  textAlign: 'left',
  fontWeight: 500,
  padding: `${space.sm}`,
  borderBottom: `1px solid ${vars.color.border}`,
  color: vars.color.textMuted,
  fontSize: '13px',
});
export const compareCell = style({
  textAlign: 'right',
  padding: `${space.sm}`,
  borderBottom: `1px solid ${vars.color.border}`,
  fontVariantNumeric: 'tabular-nums',
  whiteSpace: 'nowrap',
  overflow: 'hidden',
  textOverflow: 'ellipsis',
});
export const profit = style({ color: vars.color.profit });
export const loss = style({ color: vars.color.loss });
export const note = style({ margin: 0, fontSize: '12.5px', color: vars.color.textMuted, lineHeight: 1.5 });
export const stopped = style({
  margin: 0,
  padding: `${space.sm} ${space.md}`,
  borderRadius: radius.sm,
  background: vars.color.warningSoft,
  color: vars.color.warning,
  fontSize: '13px',
  fontWeight: 600,
});
export const chartFigure = style({ margin: 0, display: 'flex', flexDirection: 'column', gap: space.xs, minWidth: 0 });
export const chart = style({ width: '100%', height: '220px', '@media': { [media.md]: { height: '280px' } } });
export const legend = style({
  display: 'flex',
  gap: space.md,
  flexWrap: 'wrap',
  fontSize: '12.5px',
  color: vars.color.textMuted,
});
export const legendItem = style({
  display: 'inline-flex',
  alignItems: 'center',
  gap: space.xs,
  selectors: {
    '&::before': { content: '""', width: '14px', height: '3px', borderRadius: '2px', background: vars.color.textMuted },
    '&[data-tone="primary"]::before': { background: vars.color.primary },
  },
});
export const range = style({ margin: 0, fontSize: '13px', fontWeight: 600, color: vars.color.text });
