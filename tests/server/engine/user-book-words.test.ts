// The reason the engine records when a user already has a trade on the pair: said with the right article.
import { describe, expect, it } from 'vitest';
import type { TradingParams } from '../../../server/engine/costs';
import { newBook, whyNot } from '../../../server/engine/user-book';

const book = () => {
  const b = newBook({
    userId: 'u1',
    maxExposure: '1000',
    maxLoss: '100',
    minSpread: 0.002,
    takerFee: 0.001,
    autoTrade: true,
    stopped: null,
    windowStart: null,
    symbols: null,
  });
  b.bySymbol.set('ETH/USDT', 't1');
  b.bySymbol.set('BTC/USDT', 't2');
  return b;
};

describe('whyNot: a trade already open on the pair', () => {
  it('says "an ETH/USDT trade" and "a BTC/USDT trade"', () => {
    const params = {} as TradingParams; // not reached: the open trade answers first
    expect(whyNot(book(), 'ETH/USDT', 0.01, Date.now(), params)).toEqual({
      outcome: 'exposure_full',
      reason: 'an ETH/USDT trade is already open',
    });
    expect(whyNot(book(), 'BTC/USDT', 0.01, Date.now(), params)?.reason).toBe('a BTC/USDT trade is already open');
  });
});
