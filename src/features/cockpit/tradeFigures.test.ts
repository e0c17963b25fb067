import { describe, expect, it } from 'vitest';
import type { TradeLeg } from '../../../contract/entities';
import { entrySlippage, filledOpenSpread, legSlippage, totalFees } from './tradeFigures';

const leg = (venue: 'binance' | 'deriv', price: number, fee: number, closeFee?: number): TradeLeg => ({
  venue,
  side: venue === 'binance' ? 'buy' : 'sell',
  clientOrderId: venue,
  venueOrderId: null,
  status: 'open',
  open: { price, quantity: 1, fee, at: '' },
  close: closeFee === undefined ? null : { price, quantity: 1, fee: closeFee, at: '' },
});

describe('trade detail figures', () => {
  it('adds every fee, open and close', () => {
    expect(totalFees({ legs: [leg('binance', 100, 0.1, 0.1), leg('deriv', 101, 0.05)] })).toBeCloseTo(0.25, 10);
  });
  it('measures the entry against the decided spread, positive when it cost the trade', () => {
    const legs = [leg('binance', 100, 0), leg('deriv', 100.3, 0)];
    expect(filledOpenSpread({ legs })).toBeCloseTo(0.003, 10);
    // Decided at 0.4 %, filled at 0.3 %: 0.1 % of the edge lost.
    expect(entrySlippage({ legs, arbitrageSpread: 0.004 })).toBeCloseTo(0.001, 10);
    // The mirror case: decided at −0.4 %, filled at −0.5 %: the entry was better by 0.1 %.
    expect(
      entrySlippage({ legs: [leg('binance', 100, 0), leg('deriv', 99.5, 0)], arbitrageSpread: -0.004 }),
    ).toBeCloseTo(-0.001, 10);
    expect(entrySlippage({ legs: [leg('binance', 100, 0)], arbitrageSpread: 0.004 })).toBeNull();
  });
});

describe('legSlippage', () => {
  const decision = { binance: { bid: 99.9, ask: 100 }, deriv: { bid: 100.5, ask: 100.6 } };
  it('measures a buy against the ask and a sell against the bid, positive when it cost the trade', () => {
    const buy = legSlippage(leg('binance', 100.1, 0), decision);
    expect(buy?.quote).toBe(100);
    expect(buy?.slippage).toBeCloseTo(0.001, 10);
    const sell = legSlippage(leg('deriv', 100.6, 0), decision);
    expect(sell?.quote).toBe(100.5);
    expect(sell?.slippage).toBeCloseTo(-0.1 / 100.5, 10);
  });
  it('is unknown without the decision quotes or a fill', () => {
    expect(legSlippage(leg('binance', 100, 0), null)).toBeNull();
    expect(legSlippage({ ...leg('binance', 100, 0), open: null }, decision)).toBeNull();
  });
});
