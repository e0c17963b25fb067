// Min spread travels as a fraction (0.002) and people read and type it in percent (0.2 %): the conversions, once, for
// the forms, the schemas' texts and the bounds the inputs show. Rounded so float noise (0.1 × 100 = 10.000000000000002
// in other orders of operations) never reaches a field or the wire.

/** A fraction as the percent a form shows, to 4 decimals: 0.002 → 0.2. */
export const percentOf = (fraction: number): number => Number((fraction * 100).toFixed(4));

/** A typed percent as the fraction the wire carries, to 6 decimals: 0.25 → 0.0025. */
export const fractionOf = (percent: number): number => Number((percent / 100).toFixed(6));

/** A fraction in words: 0.1 → '10%'. */
export const percentText = (fraction: number): string => `${percentOf(fraction)}%`;

/** Fields that travel as fractions and are read in percent wherever they are shown (the audit log's details too). */
export const PERCENT_FIELDS: ReadonlySet<string> = new Set(['minSpread']);
