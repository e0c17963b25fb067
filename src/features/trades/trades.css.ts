import { style } from '@vanilla-extract/css';
import { space, vars } from '../../styles/theme.css';

export const sortButton = style({
  all: 'unset',
  cursor: 'pointer',
  display: 'inline-flex',
  alignItems: 'center',
  gap: '4px',
  selectors: {
    '&:focus-visible': { outline: `2px solid ${vars.color.focus}`, outlineOffset: '2px' },
    '&:hover': { color: vars.color.text },
  },
});
export const pagination = style({
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'space-between',
  gap: space.md,
  flexWrap: 'wrap',
  paddingTop: space.lg,
});
export const pages = style({ display: 'flex', gap: space.xs, flexWrap: 'wrap' });
export const currentPage = style({
  background: vars.color.primary,
  color: vars.color.primaryText,
  borderColor: vars.color.primary,
});

// The trade card on phones (ui/cardTable.css.ts): pair and profit first, then status and date, amount and spread,
// the fees, and the actions across the bottom.
const PHONE = 'screen and (max-width: 767.98px)';
export const tradeCardRow = style({
  '@media': {
    [PHONE]: { gridTemplateAreas: '"pair profit" "status date" "amount spread" "fees fees" "actions actions"' },
  },
});
const area = (name: string) => style({ '@media': { [PHONE]: { gridArea: name } } });
export const cell = {
  pair: area('pair'),
  status: area('status'),
  amount: area('amount'),
  spread: area('spread'),
  profit: style({ '@media': { [PHONE]: { gridArea: 'profit', fontSize: '16px', fontWeight: 650 } } }),
  date: area('date'),
  fees: area('fees'),
  actions: area('actions'),
};
