import { style } from '@vanilla-extract/css';
import { space, vars } from '../../styles/theme.css';

export const sortButton = style({
  all: 'unset',
  cursor: 'pointer',
  display: 'inline-flex',
  alignItems: 'center',
  gap: '4px',
  selectors: { '&:focus-visible': { outline: `2px solid ${vars.color.focus}`, outlineOffset: '2px' }, '&:hover': { color: vars.color.text } },
});
export const pagination = style({ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: space.md, flexWrap: 'wrap', paddingTop: space.lg });
export const pages = style({ display: 'flex', gap: space.xs, flexWrap: 'wrap' });
export const currentPage = style({ background: vars.color.primary, color: vars.color.primaryText, borderColor: vars.color.primary });
