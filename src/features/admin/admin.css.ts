import { style } from '@vanilla-extract/css';
import { space, vars } from '../../styles/theme.css';

// The user card on phones (ui/cardTable.css.ts): name, e-mail and badges across the top, then last login, then the
// actions, each across the card. Beside three buttons the last login had a sliver and wrapped a word per line.
const PHONE = 'screen and (max-width: 767.98px)';
export const userCardRow = style({
  '@media': { [PHONE]: { gridTemplateAreas: '"user user" "login login" "actions actions"' } },
});
export const cell = {
  user: style({ '@media': { [PHONE]: { gridArea: 'user' } } }),
  login: style({ whiteSpace: 'nowrap', '@media': { [PHONE]: { gridArea: 'login', fontSize: '13px' } } }),
  actions: style({
    whiteSpace: 'nowrap',
    '@media': { [PHONE]: { gridArea: 'actions', whiteSpace: 'normal', textAlign: 'left !important' as 'left' } },
  }),
};
/** The search box takes a row of its own on a phone rather than cutting its placeholder beside the role filter. */
export const searchItem = style({ flex: '1 1 220px', maxWidth: '320px' });
/** Role and status live in the user cell on phones. */
export const wideOnly = style({ '@media': { [PHONE]: { display: 'none !important' } } });

/** The backup card: its explanation beside the button, wrapping below it on phones. */
export const backupRow = style({
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'space-between',
  gap: space.md,
  flexWrap: 'wrap',
});
export const backupText = style({
  margin: 0,
  color: vars.color.textMuted,
  fontSize: '14px',
  flex: '1 1 220px',
  overflowWrap: 'anywhere',
});

/** The engine card: one line per server instance, its badges wrapping under the host name on phones. */
export const instanceList = style({ listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: space.sm });
export const instanceRow = style({
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'space-between',
  gap: space.sm,
  flexWrap: 'wrap',
  paddingBottom: space.sm,
  borderBottom: `1px solid ${vars.color.border}`,
});
export const instanceHost = style({ fontWeight: 600, overflowWrap: 'anywhere', minWidth: 0 });
export const instanceMeta = style({ color: vars.color.textMuted, fontSize: '13px' });
export const instanceBadges = style({ display: 'flex', gap: space.xs, flexWrap: 'wrap', alignItems: 'center' });
