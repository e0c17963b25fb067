import Decimal from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { InMemoryPaperBook } from '../../../server/venues/sim/paper-book';
import { SimMarket } from '../../../server/venues/sim/market';
import { simParams } from '../../../server/venues/sim/params';
import { SimVenue } from '../../../server/venues/sim/venue';
import { VenueError, type VenueAccount } from '../../../server/venues/types';
import { PAPER_SEED } from '../../../server/venues/sim/paper-seed';

const alice: VenueAccount = { userId: 'alice', credentials: {} };
const bob: VenueAccount = { userId: 'bob', credentials: {} };

function setup() {
  // No dislocations, so prices only move by the random walk between steps.
  const market = new SimMarket({ seed: 11, params: simParams({ dislocation: { perMinute: 0 } }) });
  const book = new InMemoryPaperBook();
  const binance = new SimVenue('binance', { market, paperBook: book, latencyMs: 0 });
  const deriv = new SimVenue('deriv', { market, paperBook: book, latencyMs: 0 });
  return { market, book, binance, deriv };
}

describe('InMemoryPaperBook', () => {
  it('starts every user at the paper seed and keeps users apart', async () => {
    const book = new InMemoryPaperBook();
    expect(await book.balances('alice', 'binance')).toEqual(PAPER_SEED.binance);
    expect(await book.balances('alice', 'deriv')).toEqual(PAPER_SEED.deriv);
    const fill = { clientOrderId: 'o1', venueOrderId: 'v1', price: '1', quantity: '1', fee: '0', at: 0 };
    await book.recordFill('alice', 'binance', 'BTC/USDT', fill, { USDT: '-100' });
    expect((await book.balances('alice', 'binance')).USDT).toBe('9900');
    expect((await book.balances('bob', 'binance')).USDT).toBe('10000');
    expect(await book.findOrder('bob', 'binance', 'o1')).toBeNull();
  });

  it('returns the first fill for a repeated client order id without moving balances again', async () => {
    const book = new InMemoryPaperBook();
    const first = { clientOrderId: 'o1', venueOrderId: 'v1', price: '1', quantity: '1', fee: '0', at: 0 };
    await book.recordFill('alice', 'binance', 'BTC/USDT', first, { USDT: '-100' });
    const again = await book.recordFill('alice', 'binance', 'BTC/USDT', { ...first, price: '2' }, { USDT: '-100' });
    expect(again.price).toBe('1');
    expect((await book.balances('alice', 'binance')).USDT).toBe('9900');
  });

  it('refuses a fill that would take a balance below zero, changing nothing', async () => {
    const book = new InMemoryPaperBook();
    const fill = { clientOrderId: 'o1', venueOrderId: 'v1', price: '1', quantity: '1', fee: '0', at: 0 };
    const attempt = book.recordFill('alice', 'binance', 'BTC/USDT', fill, { USDT: '+50', BTC: '-0.2' });
    await expect(attempt).rejects.toMatchObject({ kind: 'insufficient-balance', venue: 'binance' });
    expect(await book.balances('alice', 'binance')).toEqual(PAPER_SEED.binance);
    expect(await book.findOrder('alice', 'binance', 'o1')).toBeNull();
  });
});

describe('SimVenue paper execution', () => {
  it('buys spot on Binance at the ask plus slippage, with the 0.1 % taker fee in USDT', async () => {
    const { market, binance, book } = setup();
    const quote = market.latest('binance', 'BTC/USDT');
    const fill = await binance.openLeg(alice, {
      clientOrderId: 't1-b',
      symbol: 'BTC/USDT',
      side: 'buy',
      notional: '1000',
    });
    const price = new Decimal(fill.price);
    expect(price.toNumber()).toBeGreaterThanOrEqual(quote.ask);
    expect(price.toNumber()).toBeLessThan(quote.ask * 1.001);
    const cost = new Decimal(fill.quantity).times(price);
    expect(cost.toNumber()).toBeCloseTo(1000, 2);
    expect(new Decimal(fill.fee).toNumber()).toBeCloseTo(1, 4);
    const balances = await book.balances('alice', 'binance');
    expect(new Decimal(balances.USDT!).toNumber()).toBeCloseTo(10_000 - 1000 - 1, 2);
    expect(balances.BTC).toBe(new Decimal('0.1').plus(fill.quantity).toFixed());
    expect(await binance.takerFeeRate(alice)).toBe('0.001');
  });

  it('is idempotent on clientOrderId: a retry, even concurrent, returns the first fill', async () => {
    const { market, binance, book } = setup();
    const order = { clientOrderId: 't2-b', symbol: 'ETH/USDT', side: 'buy', notional: '500' } as const;
    const [a, b] = await Promise.all([binance.openLeg(alice, order), binance.openLeg(alice, order)]);
    market.step();
    const c = await binance.openLeg(alice, order);
    expect(b).toEqual(a);
    expect(c).toEqual(a);
    expect(await binance.findOrder(alice, 'ETH/USDT', 't2-b')).toEqual(a);
    const spent = new Decimal(10_000).minus((await book.balances('alice', 'binance')).USDT!);
    expect(spent.toNumber()).toBeCloseTo(500.5, 2);
  });

  it('rejects a spot sell beyond the coins held as insufficient balance', async () => {
    const { binance } = setup();
    const attempt = binance.openLeg(alice, {
      clientOrderId: 't3-b',
      symbol: 'BTC/USDT',
      side: 'sell',
      notional: '50000',
    });
    await expect(attempt).rejects.toBeInstanceOf(VenueError);
    await expect(attempt).rejects.toMatchObject({ kind: 'insufficient-balance' });
    expect(await binance.findOrder(alice, 'BTC/USDT', 't3-b')).toBeNull();
  });

  it('rejects a non-positive or malformed notional', async () => {
    const { binance } = setup();
    for (const notional of ['0', '-5', 'abc']) {
      await expect(
        binance.openLeg(alice, { clientOrderId: `bad-${notional}`, symbol: 'BTC/USDT', side: 'buy', notional }),
      ).rejects.toMatchObject({
        kind: 'rejected',
      });
    }
  });

  it('opens a Deriv short by reserving stake plus commission, and closes it realising the move', async () => {
    const { market, deriv, book } = setup();
    const open = await deriv.openLeg(alice, {
      clientOrderId: 't4-d',
      symbol: 'BTC/USDT',
      side: 'sell',
      notional: '1000',
    });
    const stake = new Decimal(open.quantity).times(open.price).dividedBy(deriv.costs.derivMultiplier);
    expect(stake.toNumber()).toBeCloseTo(100, 2);
    expect(new Decimal(open.fee).toNumber()).toBeCloseTo(100 * deriv.costs.derivCommissionOfStake, 4);
    const afterOpen = await book.balances('alice', 'deriv');
    expect(new Decimal(afterOpen.USDT!).toNumber()).toBeCloseTo(10_000 - 100 - 0.3, 2);
    expect(afterOpen.BTC).toBe('0');

    for (let i = 0; i < 20; i += 1) market.step();
    const exitAsk = market.latest('deriv', 'BTC/USDT').ask;
    const close = await deriv.closeLeg(alice, {
      clientOrderId: 't4-d-c',
      symbol: 'BTC/USDT',
      side: 'sell',
      quantity: open.quantity,
      venueOrderId: open.venueOrderId,
    });
    expect(close.venueOrderId).toBe(open.venueOrderId);
    expect(Number(close.price)).toBeGreaterThanOrEqual(exitAsk);
    const pnl = new Decimal(open.price).minus(close.price).times(open.quantity);
    const afterClose = await book.balances('alice', 'deriv');
    expect(new Decimal(afterClose.USDT!).toNumber()).toBeCloseTo(
      new Decimal(afterOpen.USDT!).plus(stake).plus(pnl).toNumber(),
      4,
    );
    const retry = await deriv.closeLeg(alice, {
      clientOrderId: 't4-d-c',
      symbol: 'BTC/USDT',
      side: 'sell',
      quantity: open.quantity,
      venueOrderId: open.venueOrderId,
    });
    expect(retry).toEqual(close);
    expect(await book.balances('alice', 'deriv')).toEqual(afterClose);
  });

  it('refuses to close a Deriv contract it never opened', async () => {
    const { deriv } = setup();
    const attempt = deriv.closeLeg(bob, {
      clientOrderId: 'x-c',
      symbol: 'ETH/USDT',
      side: 'buy',
      quantity: '1',
      venueOrderId: 'paper:x',
    });
    await expect(attempt).rejects.toMatchObject({ kind: 'rejected' });
  });

  it('round-trips a Binance leg: sell back what was bought', async () => {
    const { binance, book } = setup();
    const open = await binance.openLeg(bob, {
      clientOrderId: 't5-b',
      symbol: 'ETH/USDT',
      side: 'buy',
      notional: '300',
    });
    const close = await binance.closeLeg(bob, {
      clientOrderId: 't5-b-c',
      symbol: 'ETH/USDT',
      side: 'buy',
      quantity: open.quantity,
      venueOrderId: open.venueOrderId,
    });
    expect(Number(close.price)).toBeLessThan(Number(open.price));
    const balances = await book.balances('bob', 'binance');
    expect(balances.ETH).toBe('2');
    // Lost the spread, the slippage and two fees: a little over 0.2 % of 300.
    const loss = new Decimal(10_000).minus(balances.USDT!).toNumber();
    expect(loss).toBeGreaterThan(0.6);
    expect(loss).toBeLessThan(0.7);
  });

  it('waits its latency before filling, on the real clock', async () => {
    const market = new SimMarket({ seed: 5 });
    const venue = new SimVenue('binance', { market, paperBook: new InMemoryPaperBook(), latencyMs: 5 });
    const fill = await venue.openLeg(alice, { clientOrderId: 'lat', symbol: 'BTC/USDT', side: 'buy', notional: '100' });
    expect(fill.clientOrderId).toBe('lat');
    expect(await venue.testConnection(alice)).toMatch(/Simulated binance/);
    market.close();
  });
});

describe('SimVenue safety contract (issue 9)', () => {
  it('refuses an opening fill beyond the decision price and tolerance, as a limit order would, and moves nothing', async () => {
    const { market, binance, deriv, book } = setup();
    const ask = market.latest('binance', 'BTC/USDT').ask;
    const before = await book.balances('alice', 'binance');
    const moved = binance.openLeg(alice, {
      clientOrderId: 'p1-b',
      symbol: 'BTC/USDT',
      side: 'buy',
      notional: '100',
      protection: { price: String(ask * 0.99), maxSlippage: 0.001 },
    });
    await expect(moved).rejects.toMatchObject({
      kind: 'rejected',
      message: expect.stringMatching(/price moved beyond the limit/),
    });
    expect(await book.balances('alice', 'binance')).toEqual(before);
    const within = await binance.openLeg(alice, {
      clientOrderId: 'p2-b',
      symbol: 'BTC/USDT',
      side: 'buy',
      notional: '100',
      protection: { price: String(ask), maxSlippage: 0.001 },
    });
    expect(Number(within.price)).toBeGreaterThanOrEqual(ask);
    const bid = market.latest('deriv', 'BTC/USDT').bid;
    await expect(
      deriv.openLeg(alice, {
        clientOrderId: 'p3-d',
        symbol: 'BTC/USDT',
        side: 'sell',
        notional: '100',
        protection: { price: String(bid * 1.01), maxSlippage: 0.001 },
      }),
    ).rejects.toBeInstanceOf(VenueError);
  });

  it('states the same kind of limits as the live venues: Binance filters and fee, Deriv multiplier, stake bounds, commission', async () => {
    const { binance, deriv } = setup();
    expect(await binance.tradeRules(alice, 'ETH/USDT')).toMatchObject({
      currency: 'USDT',
      minNotional: '5',
      stepSize: '0.0001',
      feeRate: '0.001',
      multiplier: null,
    });
    expect(await deriv.tradeRules(alice, 'BTC/USDT')).toMatchObject({
      multiplier: 10,
      minStake: '1',
      maxStake: '2000',
      feeRate: '0.0003',
    });
  });
});
