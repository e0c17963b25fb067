import { style } from '@vanilla-extract/css';
import { media, radius, space, vars } from '../../styles/theme.css';

export const tabs = style({
  display: 'flex',
  gap: space.xs,
  borderBottom: `1px solid ${vars.color.border}`,
  marginBottom: space.lg,
  overflowX: 'auto',
  // Four tabs do not fit one line at 390 px and a sideways-scrolling bar hid Backtest with no cue: on a phone they
  // sit in a 2 × 2 grid, every tab in sight.
  '@media': {
    'screen and (max-width: 480px)': {
      display: 'grid',
      gridTemplateColumns: 'repeat(2, minmax(0, 1fr))',
      overflowX: 'visible',
    },
  },
});
export const tab = style({
  border: 'none',
  background: 'transparent',
  padding: `${space.sm} ${space.lg}`,
  fontWeight: 600,
  color: vars.color.textMuted,
  cursor: 'pointer',
  whiteSpace: 'nowrap',
  '@media': { 'screen and (max-width: 480px)': { padding: `${space.sm} ${space.md}` } },
  borderBottom: '2px solid transparent',
  marginBottom: '-1px',
  borderRadius: `${radius.sm} ${radius.sm} 0 0`,
  selectors: { '&[aria-selected="true"]': { color: vars.color.primary, borderBottomColor: vars.color.primary } },
});
export const formGrid = style({
  display: 'grid',
  gap: space.lg,
  gridTemplateColumns: 'minmax(0, 1fr)',
  '@media': { [media.md]: { gridTemplateColumns: 'repeat(2, minmax(0, 1fr))' } },
});
export const section = style({ display: 'flex', flexDirection: 'column', gap: space.lg });
export const sectionTitle = style({ fontSize: '15px', fontWeight: 650 });
export const actions = style({ display: 'flex', gap: space.sm, justifyContent: 'flex-end', flexWrap: 'wrap' });
export const saved = style({ fontSize: '12.5px', color: vars.color.profit, fontWeight: 600 });
export const paused = style({
  margin: 0,
  padding: `${space.sm} ${space.md}`,
  borderRadius: radius.sm,
  background: vars.color.warningSoft,
  color: vars.color.warning,
  fontSize: '13px',
  fontWeight: 600,
});
export const note = style({ margin: 0, fontSize: '13px', color: vars.color.textMuted, overflowWrap: 'anywhere' });

/** Which Deriv API and account are in use, as Deriv last said. */
export const derivStatus = style({
  margin: 0,
  padding: `${space.sm} ${space.md}`,
  borderRadius: radius.sm,
  background: vars.color.neutralSoft,
  fontSize: '13.5px',
  fontWeight: 600,
  overflowWrap: 'anywhere',
});
export const accounts = style({
  margin: 0,
  padding: space.md,
  border: `1px solid ${vars.color.border}`,
  borderRadius: radius.sm,
  display: 'flex',
  flexDirection: 'column',
  gap: space.sm,
  minWidth: 0,
});
export const accountsLegend = style({ padding: `0 ${space.xs}`, fontSize: '13px', fontWeight: 600 });
export const accountRow = style({
  display: 'flex',
  alignItems: 'center',
  flexWrap: 'wrap',
  gap: space.sm,
  minHeight: '40px',
  cursor: 'pointer',
  fontSize: '14px',
});
export const accountFigures = style({ fontVariantNumeric: 'tabular-nums', overflowWrap: 'anywhere' });

/** The simulated market's note above the keys: what they are for there, and the way to the Dashboard. */
export const simNote = style({
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'center',
  gap: '8px 16px',
  margin: '0 0 16px',
  padding: '12px 16px',
  borderRadius: '8px',
  fontSize: '14px',
  background: vars.color.surfaceHover,
  color: vars.color.text,
  overflowWrap: 'anywhere',
});
export const simNoteLink = style({ fontWeight: 600, whiteSpace: 'nowrap' });

/** The pair picker: a fieldset of checkboxes, two columns on a phone, more as the screen widens. */
export const pairPicker = style({ border: 'none', margin: 0, padding: 0, minWidth: 0 });
export const pairGrid = style({
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fill, minmax(140px, 1fr))',
  gap: `${space.xs} ${space.md}`,
});
export const pairError = style({ margin: 0, fontSize: '13px', color: vars.color.loss });
