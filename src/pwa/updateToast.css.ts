import { style } from '@vanilla-extract/css';
import { radius, space, vars } from '../styles/theme.css';

export const body = style({ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: space.md });

export const reload = style({
  flexShrink: 0,
  padding: `${space.xs} ${space.md}`,
  border: 'none',
  borderRadius: radius.sm,
  background: vars.color.primary,
  color: vars.color.primaryText,
  font: 'inherit',
  fontWeight: 600,
  cursor: 'pointer',
  ':hover': { background: vars.color.primaryHover },
  ':focus-visible': { outline: `2px solid ${vars.color.focus}`, outlineOffset: '2px' },
});
