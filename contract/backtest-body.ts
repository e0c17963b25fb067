// The backtest request's schema: the server validates with it (and documents it in OpenAPI). Apart from
// ./backtest.ts so the client's Backtest tab does not load zod for the types and constants it needs.
import { z } from './zod';
import { isoDateTimeText } from './text';
import { BACKTEST_MAX_DAYS, BACKTEST_MAX_RANGE_MS, BACKTEST_SYMBOLS, type BacktestBody as Body } from './backtest';

const isoDateTime = (label: string) =>
  isoDateTimeText(label, `${label} must be a date and time, e.g. 2026-01-01T00:00:00Z`);

export const BacktestBody = z
  .object({
    symbol: z.enum(BACKTEST_SYMBOLS, { message: 'Pick BTC/USDT, ETH/USDT or both' }),
    from: isoDateTime('From'),
    to: isoDateTime('To'),
    /** The same bounds as the trading settings. */
    minSpread: z
      .number({ message: 'Min spread must be a number' })
      .finite()
      .min(0, 'Min spread must be 0 or more')
      .max(0.1, 'Min spread must be at most 10%'),
    maxExposure: z
      .number({ message: 'Max exposure must be a number' })
      .finite()
      .min(0, 'Max exposure must be 0 or more')
      .max(1_000_000_000, 'Max exposure must be at most 1,000,000,000 USDT'),
    maxLoss: z
      .number({ message: 'Max loss must be a number' })
      .finite()
      .min(0, 'Max loss must be 0 or more')
      .max(1_000_000_000, 'Max loss must be at most 1,000,000,000 USDT'),
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
