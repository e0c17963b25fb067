import { globalStyle, style } from '@vanilla-extract/css';
import { radius, space, vars } from '../styles/theme.css';

// A table that turns into a list of cards below the `md` breakpoint: one DOM for both widths (screen readers and
// tests read the same table), no sideways scrolling on a phone. Each table names its cells' places in the card with
// `cardArea` (grid-area names) and gives its rows a `grid-template-areas`.
const PHONE = 'screen and (max-width: 767.98px)';

export const cardTable = style({});

globalStyle(`${cardTable}, ${cardTable} tbody`, { '@media': { [PHONE]: { display: 'block' } } });
globalStyle(`${cardTable} tbody tr`, {
  '@media': {
    [PHONE]: {
      display: 'grid',
      gridTemplateColumns: 'minmax(0, 1fr) auto',
      gap: `${space.xs} ${space.md}`,
      alignItems: 'center',
      padding: space.md,
      marginBottom: space.sm,
      border: `1px solid ${vars.color.border}`,
      borderRadius: radius.md,
      background: vars.color.surfaceRaised,
    },
  },
});
globalStyle(`${cardTable} tbody td`, {
  '@media': { [PHONE]: { display: 'block', padding: 0, border: 'none', minWidth: 0 } },
});
/** A cell's label, shown before its value on the card only (the table has a header). */
globalStyle(`${cardTable} tbody td[data-label]::before`, {
  '@media': {
    [PHONE]: { content: 'attr(data-label) " "', color: vars.color.textMuted, fontSize: '12px', fontWeight: 600 },
  },
});
globalStyle(`${cardTable} tbody td:empty`, { '@media': { [PHONE]: { display: 'none' } } });

/** The header stays on phones as a row of sort chips (sorting works at every width). */
export const chipHeader = style({});
globalStyle(`${chipHeader}`, { '@media': { [PHONE]: { display: 'block', marginBottom: space.sm } } });
globalStyle(`${chipHeader} tr`, { '@media': { [PHONE]: { display: 'flex', flexWrap: 'wrap', gap: space.xs } } });
globalStyle(`${chipHeader} th`, {
  '@media': {
    [PHONE]: {
      display: 'block',
      border: `1px solid ${vars.color.border}`,
      borderRadius: radius.pill,
      padding: `4px ${space.md}`,
      textAlign: 'left',
    },
  },
});

/** A header with nothing to do on a card (no sorting): kept for screen readers, hidden from sight on phones. */
export const hiddenHeader = style({
  '@media': {
    [PHONE]: {
      position: 'absolute',
      width: '1px',
      height: '1px',
      overflow: 'hidden',
      clip: 'rect(0 0 0 0)',
      whiteSpace: 'nowrap',
    },
  },
});

/** Right-aligned in the table; on the card the grid places it. */
export const alignEnd = style({ textAlign: 'right' });
export const endOnCard = style({ '@media': { [PHONE]: { textAlign: 'right', justifySelf: 'end' } } });
export const startOnCard = style({ '@media': { [PHONE]: { textAlign: 'left', justifySelf: 'start' } } });
