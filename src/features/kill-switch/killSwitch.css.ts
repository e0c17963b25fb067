import { style } from '@vanilla-extract/css';
import { space, vars } from '../../styles/theme.css';

/** The global halt, above every screen: impossible to miss, never wider than the phone. */
export const banner = style({
  padding: `${space.sm} ${space.lg}`,
  background: vars.color.lossSoft,
  color: vars.color.loss,
  fontWeight: 650,
  fontSize: '14px',
  borderBottom: `1px solid ${vars.color.loss}`,
  overflowWrap: 'anywhere',
});
export const row = style({
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'space-between',
  gap: space.md,
  flexWrap: 'wrap',
});
export const text = style({ margin: 0, color: vars.color.textMuted, fontSize: '14px', flex: '1 1 220px' });
export const results = style({
  listStyle: 'none',
  margin: `${space.md} 0 0`,
  padding: 0,
  display: 'flex',
  flexDirection: 'column',
  gap: space.xs,
});
export const result = style({
  display: 'flex',
  justifyContent: 'space-between',
  gap: space.md,
  fontSize: '14px',
  overflowWrap: 'anywhere',
});
