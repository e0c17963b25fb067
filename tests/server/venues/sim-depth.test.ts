// The simulated market under load: orders meeting the same quote consume its depth together (server/venues/sim/
// depth.ts), so the later ones fill further from the touch; a new quote refills the book.
import { EMPTY } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { BookDepth } from '../../../server/venues/sim/depth';
import { InMemoryPaperBook } from '../../../server/venues/sim/paper-book';
import { SimVenue } from '../../../server/venues/sim/venue';
import type { Quote } from '../../../server/venues/types';

describe('book depth', () => {
  it('prices each order at the middle of the depth it consumes, per side and quote', () => {
    const depth = new BookDepth({ depthUsdt: 100_000, impactPerDepth: 0.0001 });
    expect(depth.take('BTC/USDT', 'buy', 1, 100_000)).toBeCloseTo(0.00005, 12);
    expect(depth.take('BTC/USDT', 'buy', 1, 100_000)).toBeCloseTo(0.00015, 12);
    expect(depth.take('BTC/USDT', 'sell', 1, 100_000)).toBeCloseTo(0.00005, 12);
    expect(depth.take('BTC/USDT', 'buy', 2, 100_000)).toBeCloseTo(0.00005, 12);
  });
});

describe('a simulated venue under a burst', () => {
  let quote: Quote = { venue: 'binance', symbol: 'BTC/USDT', bid: 60_000, ask: 60_001, ts: 1 };
  const market = { quotes: () => EMPTY, latest: () => quote, now: () => 1 };
  const venue = new SimVenue('binance', {
    market,
    paperBook: new InMemoryPaperBook({
      binance: { USDT: '100000000', BTC: '0', ETH: '0' },
      deriv: { USDT: '0', BTC: '0', ETH: '0' },
    }),
    latencyMs: 0,
    costs: { slippage: 0 },
  });
  const buy = (id: string) =>
    venue.openLeg(
      { userId: 'u', credentials: {} },
      { clientOrderId: id, symbol: 'BTC/USDT', side: 'buy', notional: '250000' },
    );

  it('fills many orders on one quote at rising prices, and the next quote at the touch again', async () => {
    const prices = [];
    for (let i = 0; i < 4; i += 1) prices.push(Number((await buy(`o${i}`)).price));
    for (let i = 1; i < prices.length; i += 1) expect(prices[i]).toBeGreaterThan(prices[i - 1] as number);
    expect(prices[0]).toBeCloseTo(60_001 * (1 + 0.00005), 4);
    quote = { ...quote, ts: 2 };
    expect(Number((await buy('next')).price)).toBeCloseTo(prices[0] as number, 6);
  });
});
