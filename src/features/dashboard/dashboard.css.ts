import { style } from '@vanilla-extract/css';
import { radius, space, vars } from '../../styles/theme.css';

export const tradeList = style({ listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column' });
export const tradeRow = style({
  display: 'grid',
  gridTemplateColumns: 'minmax(0, 1fr) auto',
  gap: `2px ${space.md}`,
  padding: `${space.md} 0`,
  borderBottom: `1px solid ${vars.color.border}`,
  selectors: { '&:last-child': { borderBottom: 'none' } },
});
export const tradeMain = style({
  display: 'flex',
  alignItems: 'center',
  gap: space.sm,
  flexWrap: 'wrap',
  fontWeight: 650,
});
export const tradeMeta = style({
  fontSize: '13px',
  color: vars.color.textMuted,
  display: 'flex',
  gap: space.md,
  flexWrap: 'wrap',
  fontVariantNumeric: 'tabular-nums',
});
export const tradeRight = style({
  textAlign: 'right',
  display: 'flex',
  flexDirection: 'column',
  alignItems: 'flex-end',
  gap: '2px',
});
export const priceGrid = style({ display: 'grid', gap: space.md });
export const priceCard = style({
  border: `1px solid ${vars.color.border}`,
  borderRadius: radius.md,
  padding: space.lg,
  background: vars.color.surfaceRaised,
  transition: 'background 200ms ease, border-color 200ms ease',
  selectors: { '&[data-profitable="true"]': { borderColor: vars.color.profit, background: vars.color.highlight } },
});
export const priceHead = style({
  display: 'flex',
  justifyContent: 'space-between',
  alignItems: 'baseline',
  marginBottom: space.sm,
  gap: space.sm,
});
export const priceSymbol = style({ fontWeight: 700, fontSize: '16px' });
export const priceName = style({ fontSize: '13px', color: vars.color.textMuted });
export const priceRows = style({
  display: 'grid',
  gridTemplateColumns: 'auto 1fr',
  gap: `4px ${space.md}`,
  fontSize: '14px',
});
export const priceValue = style({ textAlign: 'right', fontVariantNumeric: 'tabular-nums', fontWeight: 600 });

/**
 * The cockpit's layout. On a phone one column in reading order: prices, positions, then the rest. From `lg` up the
 * risk strip and stats run across, the spread chart sits beside prices and positions, the equity curve beside the
 * opportunities.
 */
export const cockpit = style({
  display: 'grid',
  gap: space.lg,
  gridTemplateColumns: 'minmax(0, 1fr)',
  '@media': {
    'screen and (min-width: 1100px)': {
      gap: space.xl,
      gridTemplateColumns: 'minmax(0, 3fr) minmax(0, 2fr)',
      gridTemplateAreas: `"risk risk" "stats stats" "spread prices" "spread positions" "equity opportunities" "recent opportunities"`,
      alignItems: 'start',
    },
  },
});
const area = (name: string) =>
  style({ minWidth: 0, '@media': { 'screen and (min-width: 1100px)': { gridArea: name } } });
export const areaRisk = area('risk');
export const areaStats = area('stats');
export const areaSpread = style([
  area('spread'),
  { '@media': { 'screen and (min-width: 1100px)': { alignSelf: 'stretch' } } },
]);
export const areaPrices = area('prices');
export const areaPositions = area('positions');
export const areaEquity = area('equity');
export const areaOpportunities = area('opportunities');
export const areaRecent = area('recent');

/** The list of many pairs (more than the spec's two): one compact row each, usable with a dozen on a phone. */
export const pairList = style({ listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: '2px' });
export const pairRow = style({
  display: 'grid',
  gridTemplateColumns: 'minmax(0, 1fr) auto',
  gap: `2px ${space.md}`,
  padding: `${space.sm} ${space.md}`,
  borderRadius: radius.md,
  border: `1px solid transparent`,
  background: vars.color.surfaceRaised,
  selectors: {
    '&[data-profitable="true"]': { borderColor: vars.color.profit, background: vars.color.highlight },
    '&[data-mine="false"]': { opacity: 0.75 },
  },
});
export const pairName = style({ minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' });
export const pairSpread = style({ textAlign: 'right', fontVariantNumeric: 'tabular-nums', fontWeight: 600 });
export const pairVenues = style({
  gridColumn: '1 / -1',
  fontSize: '13px',
  color: vars.color.textMuted,
  fontVariantNumeric: 'tabular-nums',
  overflowWrap: 'anywhere',
});

export const venueList = style({ listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: space.md });
export const venueRow = style({ display: 'grid', gap: '2px', minWidth: 0 });
export const venueHead = style({
  display: 'flex',
  justifyContent: 'space-between',
  alignItems: 'center',
  gap: space.sm,
  flexWrap: 'wrap',
});
export const venueName = style({ fontWeight: 700 });
export const venueMeta = style({
  fontSize: '13px',
  color: vars.color.textMuted,
  fontVariantNumeric: 'tabular-nums',
  overflowWrap: 'anywhere',
  selectors: { '&:empty': { display: 'none' } },
});
