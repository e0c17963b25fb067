// The paper venues and the recorded profit agree: over seeded random price paths (small moves, and jumps that stop a
// Deriv multiplier out), what a round trip moved the paper balances equals the trade's profit as the engine records
// it from the fills (engine/profit.ts). The only difference allowed is the venue's rounding of each amount to 8
// decimals: half a unit of the 8th decimal per fill.
import Decimal from 'decimal.js';
import fc from 'fast-check';
import { EMPTY } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { SymbolId, VenueId } from '../../../contract/domain';
import type { StoredLeg } from '../../../server/db/schema/trades';
import { tradeProfit } from '../../../server/engine/profit';
import { InMemoryPaperBook } from '../../../server/venues/sim/paper-book';
import { SimVenue } from '../../../server/venues/sim/venue';
import type { LegFill, Quote, VenueAccount } from '../../../server/venues/types';

const HALF_UNIT = new Decimal('0.000000005');
/** Enough of everything that a Binance sell of held coin is always funded. */
const RICH = {
  binance: { USDT: '1000000', BTC: '100', ETH: '1000' },
  deriv: { USDT: '1000000', BTC: '0', ETH: '0' },
};

/** A market that quotes whatever the test sets, on both venues. */
function settableMarket() {
  let mid = 1;
  const latest = (venue: VenueId, symbol: SymbolId): Quote => ({
    venue,
    symbol,
    bid: Number((mid * 0.9999).toFixed(2)),
    ask: Number((mid * 1.0001).toFixed(2)),
    ts: 0,
  });
  return { set: (next: number) => (mid = next), market: { quotes: () => EMPTY, latest, now: () => 0 } };
}

const stored = (fill: LegFill) => ({ price: fill.price, quantity: fill.quantity, fee: fill.fee, at: '0' });

const roundTrip = fc.record({
  symbol: fc.constantFrom<SymbolId>('BTC/USDT', 'ETH/USDT'),
  binanceSide: fc.constantFrom<'buy' | 'sell'>('buy', 'sell'),
  notional: fc.integer({ min: 20, max: 2_000 }),
  entry: fc.double({ min: 1_000, max: 100_000, noNaN: true }),
  // Mostly ordinary moves; a third of the paths jump far enough to stop the 10× multiplier out either way.
  move: fc.oneof(
    fc.double({ min: -0.02, max: 0.02, noNaN: true }),
    fc.double({ min: -0.5, max: -0.1, noNaN: true }),
    fc.double({ min: 0.1, max: 0.8, noNaN: true }),
  ),
});

describe('paper balances against recorded profit', () => {
  it('a round trip moves the balances by exactly the recorded profit, Deriv stop-outs included', async () => {
    let stopOuts = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(roundTrip, { minLength: 1, maxLength: 8 }), async (trips) => {
        const { set, market } = settableMarket();
        const book = new InMemoryPaperBook(RICH);
        const binance = new SimVenue('binance', { market, paperBook: book, latencyMs: 0 });
        const deriv = new SimVenue('deriv', { market, paperBook: book, latencyMs: 0 });
        const account: VenueAccount = { userId: 'u', credentials: {} };
        const usdt = async () =>
          new Decimal((await book.balances('u', 'binance')).USDT!).plus((await book.balances('u', 'deriv')).USDT!);
        const coins = async () => book.balances('u', 'binance');
        const startUsdt = await usdt();
        const startCoins = await coins();
        let recorded = new Decimal(0);
        let fills = 0;
        for (const [i, trip] of trips.entries()) {
          const derivSide = trip.binanceSide === 'buy' ? 'sell' : 'buy';
          const legs: StoredLeg[] = [];
          set(trip.entry);
          const binanceOpen = await binance.openLeg(account, {
            clientOrderId: `t${i}-b`,
            symbol: trip.symbol,
            side: trip.binanceSide,
            notional: String(trip.notional),
          });
          const derivOpen = await deriv.openLeg(account, {
            clientOrderId: `t${i}-d`,
            symbol: trip.symbol,
            side: derivSide,
            notional: String(trip.notional),
          });
          set(trip.entry * (1 + trip.move));
          const binanceClose = await binance.closeLeg(account, {
            clientOrderId: `t${i}-b-c`,
            symbol: trip.symbol,
            side: trip.binanceSide,
            quantity: binanceOpen.quantity,
            venueOrderId: binanceOpen.venueOrderId,
          });
          const derivClose = await deriv.closeLeg(account, {
            clientOrderId: `t${i}-d-c`,
            symbol: trip.symbol,
            side: derivSide,
            quantity: derivOpen.quantity,
            venueOrderId: derivOpen.venueOrderId,
          });
          const stopped = derivSide === 'buy' ? trip.move < -0.1 : trip.move > 0.1;
          if (stopped) stopOuts += 1;
          for (const [venue, side, open, close] of [
            ['binance', trip.binanceSide, binanceOpen, binanceClose],
            ['deriv', derivSide, derivOpen, derivClose],
          ] as const)
            legs.push({
              venue,
              side,
              clientOrderId: open.clientOrderId,
              venueOrderId: open.venueOrderId,
              status: 'closed',
              open: stored(open),
              close: stored(close),
            });
          recorded = recorded.plus(tradeProfit(legs).toString());
          fills += 4;
        }
        const moved = (await usdt()).minus(startUsdt);
        expect(moved.minus(recorded).abs().lte(HALF_UNIT.times(fills)), `moved ${moved} recorded ${recorded}`).toBe(
          true,
        );
        // the coin a Binance leg bought or sold came back: only USDT moved
        expect(await coins()).toMatchObject({ BTC: startCoins.BTC, ETH: startCoins.ETH });
      }),
      { seed: 20_05, numRuns: 60 },
    );
    expect(stopOuts).toBeGreaterThan(0);
  });
});
