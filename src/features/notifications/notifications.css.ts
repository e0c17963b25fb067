import { style } from '@vanilla-extract/css';
import { radius, space, vars } from '../../styles/theme.css';

// The top bar's bell with the unread count, and the Notifications screen's list.

export const bell = style({
  position: 'relative',
  display: 'grid',
  placeItems: 'center',
  width: '40px',
  height: '40px',
  flexShrink: 0,
  borderRadius: radius.pill,
  color: vars.color.textMuted,
  textDecoration: 'none',
  selectors: {
    '&:hover': { background: vars.color.surfaceHover, color: vars.color.text },
    '&[data-status="active"]': { color: vars.color.primary },
  },
});
export const bellIcon = style({ width: '20px', height: '20px' });
export const bellCount = style({
  position: 'absolute',
  top: '2px',
  right: '0',
  minWidth: '18px',
  height: '18px',
  padding: '0 5px',
  borderRadius: radius.pill,
  background: vars.color.loss,
  color: vars.color.lossText,
  fontSize: '11px',
  fontWeight: 700,
  lineHeight: '18px',
  textAlign: 'center',
});

export const list = style({ listStyle: 'none', margin: 0, padding: 0 });
export const item = style({
  display: 'grid',
  gridTemplateColumns: '10px minmax(0, 1fr)',
  columnGap: space.md,
  padding: `${space.md} 0`,
  borderTop: `1px solid ${vars.color.border}`,
  selectors: { '&:first-child': { borderTop: 'none' } },
});
export const dot = style({
  width: '8px',
  height: '8px',
  marginTop: '7px',
  borderRadius: '50%',
  background: vars.color.primary,
});
export const readDot = style([dot, { background: 'transparent' }]);
export const title = style({
  color: vars.color.text,
  fontWeight: 500,
  textDecoration: 'none',
  overflowWrap: 'anywhere',
  selectors: { '&:hover': { textDecoration: 'underline' } },
});
export const unreadTitle = style([title, { fontWeight: 700 }]);
export const body = style({
  color: vars.color.textMuted,
  fontSize: '14px',
  marginTop: '2px',
  overflowWrap: 'anywhere',
});
export const meta = style({ color: vars.color.textMuted, fontSize: '12.5px', marginTop: space.xs });
export const footer = style({ display: 'flex', justifyContent: 'center', paddingTop: space.md });
export const headerActions = style({ display: 'flex', alignItems: 'center', gap: space.sm, flexWrap: 'wrap' });
export const unreadCount = style({ color: vars.color.textMuted, fontSize: '13px' });
