import { style } from '@vanilla-extract/css';
import { radius, space, vars } from '../../styles/theme.css';

export const banner = style({
  display: 'flex',
  alignItems: 'center',
  gap: space.sm,
  padding: `${space.sm} ${space.lg}`,
  borderRadius: radius.md,
  background: vars.color.warningSoft,
  color: vars.color.warning,
  border: `1px solid ${vars.color.warning}`,
  fontWeight: 600,
  fontVariantNumeric: 'tabular-nums',
});

export const dot = style({
  width: '8px',
  height: '8px',
  borderRadius: radius.pill,
  background: 'currentColor',
  flexShrink: 0,
});

export const note = style({
  margin: `${space.sm} 0 0`,
  color: vars.color.textMuted,
  fontSize: '0.875rem',
});
