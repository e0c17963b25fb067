import { style, styleVariants } from '@vanilla-extract/css';
import { media, radius, space, vars } from '../../styles/theme.css';
import { brandMark } from '../../ui/ui.css';

export const shell = style({ display: 'flex', minHeight: '100vh' });
export const sidebar = style({
  display: 'none',
  '@media': {
    [media.md]: {
      display: 'flex',
      flexDirection: 'column',
      width: '232px',
      flexShrink: 0,
      background: vars.color.surface,
      borderRight: `1px solid ${vars.color.border}`,
      position: 'sticky',
      top: 0,
      height: '100vh',
    },
  },
});
export const brand = style({
  display: 'flex',
  alignItems: 'center',
  gap: space.sm,
  padding: `${space.lg} ${space.lg}`,
  fontWeight: 750,
  fontSize: '18px',
  textDecoration: 'none',
  color: vars.color.text,
});
export const logo = style([brandMark, { width: '30px', height: '30px', borderRadius: radius.sm, fontSize: '15px' }]);
export const nav = style({ display: 'flex', flexDirection: 'column', gap: '2px', padding: `0 ${space.sm}`, flex: 1 });
export const navSection = style({
  padding: `${space.lg} ${space.md} ${space.xs}`,
  fontSize: '11px',
  fontWeight: 700,
  textTransform: 'uppercase',
  letterSpacing: '0.06em',
  color: vars.color.textMuted,
});
export const navLink = style({
  display: 'flex',
  alignItems: 'center',
  gap: space.sm,
  padding: `9px ${space.md}`,
  borderRadius: radius.md,
  color: vars.color.textMuted,
  textDecoration: 'none',
  fontWeight: 550,
  selectors: {
    '&:hover': { background: vars.color.surfaceHover, color: vars.color.text },
    '&[data-status="active"]': { background: vars.color.primarySoft, color: vars.color.primary },
  },
});
export const sidebarFooter = style({
  display: 'flex',
  alignItems: 'center',
  gap: space.sm,
  padding: space.lg,
  borderTop: `1px solid ${vars.color.border}`,
});
export const avatar = style({
  width: '34px',
  height: '34px',
  borderRadius: '50%',
  background: vars.color.primarySoft,
  color: vars.color.primary,
  display: 'grid',
  placeItems: 'center',
  fontWeight: 700,
  flexShrink: 0,
  textTransform: 'uppercase',
});
export const footerName = style({
  fontWeight: 600,
  fontSize: '14px',
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  whiteSpace: 'nowrap',
});
export const footerRole = style({ fontSize: '12px', color: vars.color.textMuted, textTransform: 'capitalize' });
export const main = style({ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' });
export const topbar = style({
  position: 'sticky',
  top: 0,
  zIndex: 20,
  display: 'flex',
  alignItems: 'center',
  gap: space.sm,
  padding: `${space.sm} ${space.lg}`,
  minHeight: '56px',
  background: vars.color.surface,
  borderBottom: `1px solid ${vars.color.border}`,
});
export const topbarTitle = style({
  fontWeight: 700,
  fontSize: '17px',
  flex: 1,
  minWidth: 0,
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  whiteSpace: 'nowrap',
});
export const hamburger = style({ '@media': { [media.md]: { display: 'none' } } });
export const content = style({
  padding: space.lg,
  // Room at the foot for a toast (features/toasts/keepClear.ts scrolls the pressed control above one).
  paddingBottom: '96px',
  width: '100%',
  maxWidth: '1320px',
  margin: '0 auto',
  '@media': { [media.md]: { padding: space.xl, paddingBottom: '96px' } },
});
export const menuWrap = style({ position: 'relative' });
export const menu = style({
  position: 'absolute',
  right: 0,
  top: 'calc(100% + 6px)',
  minWidth: '240px',
  background: vars.color.surfaceRaised,
  border: `1px solid ${vars.color.border}`,
  borderRadius: radius.md,
  boxShadow: vars.shadow.popover,
  padding: space.xs,
  zIndex: 50,
});
export const mobileMenu = style({
  position: 'absolute',
  left: 0,
  right: 0,
  top: '100%',
  background: vars.color.surface,
  borderBottom: `1px solid ${vars.color.border}`,
  boxShadow: vars.shadow.popover,
  padding: space.sm,
  display: 'flex',
  flexDirection: 'column',
  '@media': { [media.md]: { display: 'none' } },
});
export const menuHeader = style({
  padding: `${space.sm} ${space.md}`,
  borderBottom: `1px solid ${vars.color.border}`,
  marginBottom: space.xs,
});
export const menuItem = style({
  display: 'block',
  width: '100%',
  textAlign: 'left',
  padding: `8px ${space.md}`,
  borderRadius: radius.sm,
  border: 'none',
  background: 'transparent',
  color: vars.color.text,
  textDecoration: 'none',
  cursor: 'pointer',
  fontSize: '14px',
  selectors: { '&:hover, &:focus-visible': { background: vars.color.surfaceHover } },
});
export const userButton = style({
  display: 'flex',
  alignItems: 'center',
  gap: space.sm,
  border: `1px solid ${vars.color.border}`,
  background: vars.color.surface,
  borderRadius: radius.pill,
  padding: '3px 10px 3px 3px',
  cursor: 'pointer',
  maxWidth: '200px',
});
/**
 * The user button's initial is drawn from data-initial, not text: the button's accessible name ('User menu for
 * alice') must contain its visible text (WCAG 2.5.3, axe label-content-name-mismatch), and 'aalice' would not be.
 */
export const avatarInitial = style([avatar, { selectors: { '&::before': { content: 'attr(data-initial)' } } }]);
export const userButtonName = style({
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  whiteSpace: 'nowrap',
  fontWeight: 600,
  fontSize: '14px',
  display: 'none',
  '@media': { [media.md]: { display: 'inline' } },
});
export const connection = style({
  display: 'inline-flex',
  alignItems: 'center',
  gap: '6px',
  fontSize: '12.5px',
  color: vars.color.textMuted,
  whiteSpace: 'nowrap',
});
export const dot = style({ width: '8px', height: '8px', borderRadius: '50%', display: 'inline-block' });
export const banner = style({
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'space-between',
  gap: space.md,
  flexWrap: 'wrap',
  padding: `${space.sm} ${space.lg}`,
  background: vars.color.warningSoft,
  color: vars.color.warning,
  fontSize: '14px',
  fontWeight: 550,
});
/** The market the server trades on, a slim line under the top bar on every screen. */
export const marketLabel = style({
  padding: `4px ${space.lg}`,
  fontSize: '12.5px',
  fontWeight: 600,
  borderBottom: `1px solid ${vars.color.border}`,
});
/** The calibrated market's pace under its label: quieter, and wraps on a phone. */
export const marketPace = style({
  padding: `2px ${space.lg} 4px`,
  // Over the label's bottom border: the two read as one block.
  marginTop: '-1px',
  fontSize: '12px',
  borderBottom: `1px solid ${vars.color.border}`,
  overflowWrap: 'anywhere',
});
export const marketTone = styleVariants({
  calibrated: { background: vars.color.surface, color: vars.color.textMuted },
  demo: { background: vars.color.warningSoft, color: vars.color.warning },
  live: { background: vars.color.primarySoft, color: vars.color.primary },
});
