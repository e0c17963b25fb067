import { style } from '@vanilla-extract/css';
import { space, vars } from '../../styles/theme.css';

export const holdings = style({ listStyle: 'none', margin: 0, padding: 0 });
export const holding = style({
  display: 'flex',
  justifyContent: 'space-between',
  alignItems: 'center',
  gap: space.md,
  padding: `${space.md} 0`,
  borderBottom: `1px solid ${vars.color.border}`,
  selectors: { '&:last-child': { borderBottom: 'none' } },
});
export const coin = style({ fontWeight: 700 });
export const amounts = style({ textAlign: 'right', fontVariantNumeric: 'tabular-nums' });
export const amountMain = style({ fontWeight: 650 });
export const amountSub = style({ fontSize: '13px', color: vars.color.textMuted });
export const statsList = style({
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fit, minmax(140px, 1fr))',
  gap: space.md,
  margin: 0,
});
export const statsItem = style({ display: 'flex', flexDirection: 'column', gap: '2px' });
export const statsTerm = style({ fontSize: '12.5px', color: vars.color.textMuted, fontWeight: 600 });
export const statsValue = style({ margin: 0, fontSize: '20px', fontWeight: 700, fontVariantNumeric: 'tabular-nums' });
