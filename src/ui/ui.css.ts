import { keyframes, style, styleVariants } from '@vanilla-extract/css';
import { font, radius, space, vars } from '../styles/theme.css';

// Design-system primitives on the one theme contract.

/** The app's mark (sidebar, sign-in screens); each place sets its size. */
export const brandMark = style({
  background: `linear-gradient(135deg, ${vars.color.primary}, ${vars.color.profit})`,
  color: '#fff',
  display: 'grid',
  placeItems: 'center',
  fontWeight: 800,
});

export const card = style({
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: radius.lg,
  boxShadow: vars.shadow.card,
  padding: space.lg,
  minWidth: 0,
});
export const cardHeader = style({
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'space-between',
  gap: space.sm,
  marginBottom: space.md,
  flexWrap: 'wrap',
});
export const cardTitle = style({ fontSize: '16px', fontWeight: 650 });

const buttonBase = style({
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  gap: space.sm,
  minHeight: '38px',
  padding: `0 ${space.lg}`,
  borderRadius: radius.md,
  border: '1px solid transparent',
  fontWeight: 600,
  fontSize: '14px',
  cursor: 'pointer',
  whiteSpace: 'nowrap',
  textDecoration: 'none',
  transition: 'background 120ms ease, border-color 120ms ease',
  selectors: { '&:disabled': { opacity: 0.55, cursor: 'not-allowed' } },
});
export const button = styleVariants({
  primary: [
    buttonBase,
    {
      background: vars.color.primary,
      color: vars.color.primaryText,
      selectors: { '&:hover:not(:disabled)': { background: vars.color.primaryHover } },
    },
  ],
  secondary: [
    buttonBase,
    {
      background: vars.color.surface,
      color: vars.color.text,
      borderColor: vars.color.border,
      selectors: { '&:hover:not(:disabled)': { background: vars.color.surfaceHover } },
    },
  ],
  danger: [
    buttonBase,
    {
      background: vars.color.loss,
      color: vars.color.lossText,
      selectors: { '&:hover:not(:disabled)': { filter: 'brightness(0.92)' } },
    },
  ],
  ghost: [
    buttonBase,
    {
      background: 'transparent',
      color: vars.color.text,
      selectors: { '&:hover:not(:disabled)': { background: vars.color.surfaceHover } },
    },
  ],
});
export const buttonSmall = style({ minHeight: '30px', padding: `0 ${space.md}`, fontSize: '13px' });

export const badge = style({
  display: 'inline-flex',
  alignItems: 'center',
  padding: '2px 10px',
  borderRadius: radius.pill,
  fontSize: '12px',
  fontWeight: 650,
  textTransform: 'capitalize',
  whiteSpace: 'nowrap',
});
export const badgeAsWritten = style({ textTransform: 'none' });
export const badgeTone = styleVariants({
  profit: { background: vars.color.profitSoft, color: vars.color.profit },
  loss: { background: vars.color.lossSoft, color: vars.color.loss },
  warning: { background: vars.color.warningSoft, color: vars.color.warning },
  neutral: { background: vars.color.neutralSoft, color: vars.color.neutral },
  primary: { background: vars.color.primarySoft, color: vars.color.primary },
});
export const tone = styleVariants({
  profit: { color: vars.color.profit },
  loss: { color: vars.color.loss },
  warning: { color: vars.color.warning },
  neutral: { color: vars.color.textMuted },
});

export const field = style({ display: 'flex', flexDirection: 'column', gap: '6px', minWidth: 0 });
export const label = style({ fontSize: '13px', fontWeight: 600, color: vars.color.text });
export const hint = style({ fontSize: '12px', color: vars.color.textMuted });
export const fieldError = style({ fontSize: '12.5px', color: vars.color.loss, fontWeight: 500 });
export const input = style({
  width: '100%',
  minHeight: '40px',
  padding: `8px ${space.md}`,
  borderRadius: radius.md,
  border: `1px solid ${vars.color.border}`,
  background: vars.color.surfaceRaised,
  color: vars.color.text,
  fontSize: '14px',
  selectors: {
    '&:focus': { borderColor: vars.color.focus, outline: `2px solid ${vars.color.primarySoft}`, outlineOffset: 0 },
    '&[aria-invalid="true"]': { borderColor: vars.color.loss },
    '&:disabled, &[readonly]': { background: vars.color.bg, color: vars.color.textMuted },
  },
});
export const checkboxRow = style({
  display: 'inline-flex',
  alignItems: 'center',
  gap: space.sm,
  fontSize: '14px',
  cursor: 'pointer',
});
export const checkbox = style({ width: '18px', height: '18px', accentColor: vars.color.primary });

const spin = keyframes({ to: { transform: 'rotate(360deg)' } });
export const spinner = style({
  width: '28px',
  height: '28px',
  borderRadius: '50%',
  border: `3px solid ${vars.color.border}`,
  borderTopColor: vars.color.primary,
  animation: `${spin} 0.8s linear infinite`,
  '@media': { '(prefers-reduced-motion: reduce)': { animationDuration: '2s' } },
});
export const spinnerWrap = style({
  display: 'flex',
  flexDirection: 'column',
  alignItems: 'center',
  justifyContent: 'center',
  gap: space.md,
  padding: space.xxl,
  color: vars.color.textMuted,
  minHeight: '40vh',
});

export const overlay = style({
  position: 'fixed',
  inset: 0,
  background: vars.color.overlay,
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'center',
  padding: space.lg,
  zIndex: 100,
});
export const modal = style({
  width: '100%',
  maxWidth: '460px',
  maxHeight: 'calc(100vh - 32px)',
  overflowY: 'auto',
  background: vars.color.surface,
  borderRadius: radius.lg,
  boxShadow: vars.shadow.popover,
  border: `1px solid ${vars.color.border}`,
});
export const modalHeader = style({
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'space-between',
  padding: `${space.lg} ${space.xl}`,
  borderBottom: `1px solid ${vars.color.border}`,
});
export const modalBody = style({ padding: space.xl, display: 'flex', flexDirection: 'column', gap: space.lg });
export const modalFooter = style({
  display: 'flex',
  justifyContent: 'flex-end',
  gap: space.sm,
  padding: `${space.md} ${space.xl} ${space.xl}`,
});

export const tableWrap = style({ width: '100%', overflowX: 'auto' });
export const table = style({ width: '100%', borderCollapse: 'collapse', fontSize: '14px' });
export const th = style({
  textAlign: 'left',
  padding: `10px ${space.md}`,
  fontSize: '12px',
  fontWeight: 650,
  textTransform: 'uppercase',
  letterSpacing: '0.04em',
  color: vars.color.textMuted,
  borderBottom: `1px solid ${vars.color.border}`,
  whiteSpace: 'nowrap',
});
export const td = style({
  padding: `12px ${space.md}`,
  borderBottom: `1px solid ${vars.color.border}`,
  verticalAlign: 'middle',
});
export const numeric = style({ fontVariantNumeric: 'tabular-nums', fontFamily: font.body, whiteSpace: 'nowrap' });
export const muted = style({ color: vars.color.textMuted });
export const empty = style({ textAlign: 'center', padding: `${space.xxl} ${space.lg}`, color: vars.color.textMuted });
export const emptyTitle = style({ fontWeight: 650, color: vars.color.text, marginBottom: space.xs });

/** Columns that give way on phones (their content is repeated in the first cell there). */
export const hideSm = style({
  display: 'none',
  '@media': { 'screen and (min-width: 768px)': { display: 'table-cell' } },
});
export const showSm = style({
  display: 'flex',
  gap: '6px',
  marginTop: '4px',
  flexWrap: 'wrap',
  '@media': { 'screen and (min-width: 768px)': { display: 'none' } },
});
