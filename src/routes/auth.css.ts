import { style } from '@vanilla-extract/css';
import { media, radius, space, vars } from '../styles/theme.css';
import { brandMark } from '../ui/ui.css';

export const page = style({
  minHeight: '100vh',
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'center',
  padding: space.lg,
  background: `radial-gradient(1200px 600px at 10% -10%, ${vars.color.primarySoft}, transparent 60%), ${vars.color.bg}`,
});
export const panel = style({
  width: '100%',
  maxWidth: '420px',
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: radius.lg,
  boxShadow: vars.shadow.popover,
  padding: space.xl,
  '@media': { [media.md]: { padding: space.xxl } },
});
export const brand = style({ display: 'flex', alignItems: 'center', gap: space.sm, marginBottom: space.xl });
export const logo = style([brandMark, { width: '36px', height: '36px', borderRadius: radius.md }]);
export const brandName = style({ fontSize: '20px', fontWeight: 750 });
export const title = style({ fontSize: '22px', fontWeight: 700, marginBottom: space.xs });
export const subtitle = style({ color: vars.color.textMuted, marginBottom: space.xl, marginTop: 0 });
export const form = style({ display: 'flex', flexDirection: 'column', gap: space.lg });
export const passwordWrap = style({ position: 'relative' });
export const toggle = style({
  position: 'absolute',
  right: '6px',
  top: '31px',
  border: 'none',
  background: 'transparent',
  color: vars.color.primary,
  fontWeight: 600,
  fontSize: '13px',
  padding: '6px 8px',
  cursor: 'pointer',
  borderRadius: radius.sm,
});
export const row = style({
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'space-between',
  gap: space.sm,
  flexWrap: 'wrap',
  fontSize: '14px',
});
export const submit = style({ width: '100%', minHeight: '44px' });
export const footnote = style({
  marginTop: space.xl,
  fontSize: '14px',
  color: vars.color.textMuted,
  textAlign: 'center',
});
