import { style } from '@vanilla-extract/css';
import { space, vars } from '../../styles/theme.css';

// One event a row, stacked on a phone (no table to scroll sideways).
export const list = style({ listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column' });
export const item = style({
  display: 'grid',
  gridTemplateColumns: 'minmax(0, 1fr) auto',
  gap: `2px ${space.md}`,
  padding: `${space.sm} 0`,
  borderBottom: `1px solid ${vars.color.border}`,
  selectors: { '&:last-child': { borderBottom: 'none' } },
});
export const action = style({ fontWeight: 650, overflowWrap: 'anywhere' });
export const when = style({
  fontSize: '12.5px',
  color: vars.color.textMuted,
  whiteSpace: 'nowrap',
  textAlign: 'right',
});
export const meta = style({
  gridColumn: '1 / -1',
  fontSize: '12.5px',
  color: vars.color.textMuted,
  overflowWrap: 'anywhere',
});
