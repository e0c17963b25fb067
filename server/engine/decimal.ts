// Money arithmetic: a Decimal with enough significant digits that price × quantity products of the numeric(28,10)
// columns stay exact. Never add money as binary floats.
import Decimal from 'decimal.js';

export const Money = Decimal.clone({ precision: 60, rounding: Decimal.ROUND_HALF_EVEN });
export type Money = InstanceType<typeof Money>;

export const money = (value: string | number | Money): Money => new Money(value);

/** The form stored in numeric(28,10) columns: at most 10 decimals, no exponent. */
export const toStored = (value: Money): string => value.toDecimalPlaces(10).toFixed();
