import { style } from '@vanilla-extract/css';
import { radius, space, vars } from '../../styles/theme.css';

export const stack = style({ display: 'flex', flexDirection: 'column', gap: space.md, maxWidth: '480px' });
export const text = style({ margin: 0, color: vars.color.textMuted, fontSize: '14px' });
// The QR code keeps a white quiet zone in the dark theme too, or phone cameras fail to read it.
export const qr = style({
  width: '200px',
  height: '200px',
  background: '#fff',
  padding: space.sm,
  borderRadius: radius.md,
  alignSelf: 'flex-start',
});
export const secret = style({
  fontFamily: 'ui-monospace, monospace',
  fontSize: '14px',
  overflowWrap: 'anywhere',
  userSelect: 'all',
});
export const codes = style({
  display: 'grid',
  gridTemplateColumns: 'repeat(2, minmax(0, 1fr))',
  gap: space.xs,
  margin: 0,
  padding: space.md,
  listStyle: 'none',
  fontFamily: 'ui-monospace, monospace',
  background: vars.color.surfaceHover,
  borderRadius: radius.md,
});
export const actions = style({ display: 'flex', gap: space.sm, flexWrap: 'wrap' });
export const reminder = style({
  padding: `${space.sm} ${space.lg}`,
  background: vars.color.warningSoft,
  color: vars.color.warning,
  fontWeight: 600,
  fontSize: '14px',
  borderBottom: `1px solid ${vars.color.border}`,
});
export const copyRow = style({ display: 'inline-flex', alignItems: 'center', gap: space.sm, flexWrap: 'wrap' });
export const secretRow = style({ display: 'flex', flexDirection: 'column', gap: space.xs });
