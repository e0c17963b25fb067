// The backtest request's schema: the server validates with it (and documents it in OpenAPI). Apart from
// ./backtest.ts so the client's Backtest tab does not load zod for the types and constants it needs.
import { z } from './zod';
import { isoDateTimeText, text } from './text';
import { BACKTEST_ALL_PAIRS, BACKTEST_MAX_DAYS, BACKTEST_MAX_RANGE_MS, type BacktestBody as Body } from './backtest';
import { isKnownSymbol } from './pairs';
import { TRADING_LIMITS } from './domain';
import { LIMIT_MESSAGES } from './messages';
import { percentText } from './percent';

const isoDateTime = (label: string) =>
  isoDateTimeText(label, `${label} must be a date and time, e.g. 2026-01-01T00:00:00Z`);

/** One of the trading settings' limits, within the same bounds (TRADING_LIMITS); `maxText` words the upper one. */
const limit = (key: keyof typeof TRADING_LIMITS, label: string, maxText: string) =>
  z
    .number({ message: LIMIT_MESSAGES.notANumber(label) })
    .finite()
    .min(TRADING_LIMITS[key].min, LIMIT_MESSAGES.belowMin(label, TRADING_LIMITS[key].min))
    .max(TRADING_LIMITS[key].max, LIMIT_MESSAGES.aboveMax(label, maxText));
const usdt = (amount: number) => `${amount.toLocaleString('en-US')} USDT`;

export const BacktestBody = z
  .object({
    symbol: text('Symbol', { message: 'Pick a pair such as BTC/USDT, or all pairs' }).refine(
      (v): v is Body['symbol'] => v === BACKTEST_ALL_PAIRS || isKnownSymbol(v),
      {
        message: 'Pick a pair such as BTC/USDT, or all pairs',
      },
    ),
    from: isoDateTime('From'),
    to: isoDateTime('To'),
    /** The same bounds as the trading settings. */
    minSpread: limit('minSpread', 'Min spread', percentText(TRADING_LIMITS.minSpread.max)),
    maxExposure: limit('maxExposure', 'Max exposure', usdt(TRADING_LIMITS.maxExposure.max)),
    maxLoss: limit('maxLoss', 'Max loss', usdt(TRADING_LIMITS.maxLoss.max)),
  })
  .strict()
  .refine((b) => Date.parse(b.from) < Date.parse(b.to), {
    message: 'The start of the range must be before its end',
    path: ['from'],
  })
  .refine((b) => Date.parse(b.to) - Date.parse(b.from) <= BACKTEST_MAX_RANGE_MS, {
    message: `A backtest covers at most ${BACKTEST_MAX_DAYS} days; pick a shorter range`,
    path: ['to'],
  });

// The schema and the interface the client uses describe the same request: this line stops compiling if they part.
type Parsed = z.infer<typeof BacktestBody>;
const sameShape: [Body] extends [Parsed] ? ([Parsed] extends [Body] ? true : never) : never = true;
void sameShape;
