import { firstValueFrom, filter, take, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Decimal from 'decimal.js';
import { tradeProfit } from '../../../server/engine/profit';
import { BinanceVenue } from '../../../server/venues/binance/venue';
import { VenueError, type VenueAccount } from '../../../server/venues/types';
import { startFakeBinance, type FakeBinance } from '../../fakes/binance/server';

const KEY = 'k'.repeat(60) + 'MAIN';
const SECRET = 's'.repeat(64);
const LOW_FEE_KEY = 'f'.repeat(60) + 'FEES';
const FEE_KEY = 'c'.repeat(60) + 'COIN';

const account = (apiKey = KEY, secret = SECRET, userId = 'u1'): VenueAccount => ({
  userId,
  credentials: { binanceApiKey: apiKey, binanceSecretKey: secret },
});

let fake: FakeBinance;
let venue: BinanceVenue;

beforeAll(async () => {
  fake = await startFakeBinance({
    accounts: [
      { apiKey: KEY, secret: SECRET, balances: { USDT: '10000', BTC: '0', ETH: '1' } },
      { apiKey: LOW_FEE_KEY, secret: SECRET, balances: { USDT: '500' }, takerCommission: '0.00075' },
      { apiKey: FEE_KEY, secret: SECRET, balances: { USDT: '5000', BTC: '0' } },
    ],
  });
  venue = new BinanceVenue({
    endpoints: { restUrl: fake.restUrl, wsUrl: fake.wsUrl },
    backoff: { initialMs: 20, maxMs: 200 },
    feeCacheMs: 0,
  });
});

afterAll(async () => {
  await venue.close();
  await fake.close();
});

const expectVenueError = async (promise: Promise<unknown>, kind: VenueError['kind']): Promise<VenueError> => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(VenueError);
  expect((error as VenueError).kind).toBe(kind);
  expect((error as VenueError).venue).toBe('binance');
  return error as VenueError;
};

describe('Binance connector against the fake venue', () => {
  it('streams best bid/ask per symbol from bookTicker', async () => {
    const next = firstValueFrom(venue.quotes('ETH/USDT').pipe(filter((q) => q.bid === 3100.5)));
    await fake.waitForSubscription('ethusdt@bookTicker');
    fake.pushQuote('BTCUSDT', '81000.00', '81000.10');
    fake.pushQuote('ETHUSDT', '3100.50', '3100.60');
    const quote = await next;
    expect(quote).toMatchObject({ venue: 'binance', symbol: 'ETH/USDT', bid: 3100.5, ask: 3100.6 });
    expect(quote.ts).toBeGreaterThan(0);
  });

  it('recovers the stream after the connection drops', async () => {
    const quotes = venue.quotes('BTC/USDT');
    const firstTwo = firstValueFrom(
      quotes.pipe(
        filter((q) => q.bid === 82000 || q.bid === 83000),
        take(2),
        toArray(),
      ),
    );
    await fake.waitForSubscription('btcusdt@bookTicker');
    fake.pushQuote('BTCUSDT', '82000.00', '82000.10');
    expect(fake.dropStreams()).toBeGreaterThan(0);
    await fake.waitForSubscription('btcusdt@bookTicker');
    fake.pushQuote('BTCUSDT', '83000.00', '83000.10');
    expect((await firstTwo).map((q) => q.bid)).toEqual([82000, 83000]);
  });

  it('reads balances and the account taker fee', async () => {
    expect(await venue.balances(account())).toEqual({ USDT: '10000', BTC: '0', ETH: '1' });
    expect(await venue.takerFeeRate(account())).toBe('0.001');
    expect(await venue.takerFeeRate(account(LOW_FEE_KEY, SECRET, 'u2'))).toBe('0.00075');
    expect(await venue.testConnection(account())).toMatch(/Binance connected.*0\.1 %/);
  });

  it('buys a notional with a client order id, fee in USDT, and returns the first fill on retry', async () => {
    fake.pushQuote('BTCUSDT', '80000.00', '80000.01');
    const order = { clientOrderId: 'trade1-b', symbol: 'BTC/USDT', side: 'buy', notional: '1000' } as const;
    const fill = await venue.openLeg(account(), order);
    expect(fill.clientOrderId).toBe('trade1-b');
    expect(fill.price).toBe('80000.01');
    // 0.01249 bought; the position holds it less the 0.00001249 BTC commission Binance kept, in whole lot steps of
    // 0.00001 (what a sell can close); the 0.00000751 left over stays on the account, outside the trade.
    expect(fill.quantity).toBe('0.01247');
    // Commission 0.1 % of the coins bought, valued at the fill price.
    expect(Number(fill.fee)).toBeCloseTo(0.01249 * 0.001 * 80000.01, 6);
    const again = await venue.openLeg(account(), order);
    expect(again).toEqual(fill);
    expect(fake.orders(KEY).filter((o) => o.clientOrderId === 'trade1-b')).toHaveLength(1);
    expect(await venue.findOrder(account(), 'BTC/USDT', 'trade1-b')).toEqual(fill);
    expect(await venue.findOrder(account(), 'BTC/USDT', 'never-placed')).toBeNull();
  });

  it('places one order for concurrent calls with the same client order id', async () => {
    const order = { clientOrderId: 'concurrent-b', symbol: 'ETH/USDT', side: 'buy', notional: '100' } as const;
    const [a, b] = await Promise.all([venue.openLeg(account(), order), venue.openLeg(account(), order)]);
    expect(b).toEqual(a);
    expect(fake.orders(KEY).filter((o) => o.clientOrderId === 'concurrent-b')).toHaveLength(1);
  });

  it('closes a bought leg by selling the coins actually held', async () => {
    const open = await venue.findOrder(account(), 'BTC/USDT', 'trade1-b');
    fake.pushQuote('BTCUSDT', '80100.00', '80100.01');
    const close = await venue.closeLeg(account(), {
      clientOrderId: 'trade1-b-c',
      symbol: 'BTC/USDT',
      side: 'buy',
      quantity: open!.quantity,
      venueOrderId: open!.venueOrderId,
    });
    expect(close.price).toBe('80100');
    // 0.01249 bought minus the 0.00001249 commission, truncated to the 0.00001 lot step.
    expect(close.quantity).toBe('0.01247');
    expect(new Decimal(fake.balances(KEY).BTC!).toNumber()).toBeCloseTo(0.00000751, 8);
  });

  it('counts the commission a buyer pays in the coin once: profit equals the USDT the round trip made (issue 9, finding 8)', async () => {
    const trader = account(FEE_KEY, SECRET, 'u-fee');
    const usdtBefore = new Decimal(fake.balances(FEE_KEY).USDT as string);
    fake.pushQuote('BTCUSDT', '79990.00', '80000.00');
    // 800 USDT at 80,000 buys exactly 0.01 BTC, of which Binance keeps 0.00001 BTC as commission.
    const open = await venue.openLeg(trader, {
      clientOrderId: 'fee1-b',
      symbol: 'BTC/USDT',
      side: 'buy',
      notional: '800',
    });
    expect(open).toMatchObject({ price: '80000', quantity: '0.00999', fee: '0.8' });
    fake.pushQuote('BTCUSDT', '80400.00', '80400.01');
    const close = await venue.closeLeg(trader, {
      clientOrderId: 'fee1-b-c',
      symbol: 'BTC/USDT',
      side: 'buy',
      quantity: open.quantity,
      venueOrderId: open.venueOrderId,
    });
    expect(close.quantity).toBe('0.00999');
    expect(fake.balances(FEE_KEY).BTC).toBe('0');
    const leg = {
      venue: 'binance' as const,
      side: 'buy' as const,
      clientOrderId: 'fee1-b',
      venueOrderId: open.venueOrderId,
      status: 'closed' as const,
      open: { ...open, at: '' },
      close: { ...close, at: '' },
    };
    const usdtMade = new Decimal(fake.balances(FEE_KEY).USDT as string).minus(usdtBefore);
    expect(tradeProfit([leg]).toFixed()).toBe(usdtMade.toFixed());
  });

  it('places an opening order as LIMIT IOC at the decision price and tolerance, refused when the price moved beyond it (issue 9, finding 7)', async () => {
    fake.pushQuote('ETHUSDT', '3000.00', '3000.01');
    const order = {
      symbol: 'ETH/USDT',
      side: 'buy',
      notional: '300',
      protection: { price: '2990.00', maxSlippage: 0.001 },
    } as const;
    const usdtBefore = fake.balances(KEY).USDT;
    const moved = await expectVenueError(venue.openLeg(account(), { ...order, clientOrderId: 'ioc1-b' }), 'rejected');
    expect(moved.message).toMatch(/expired unfilled/);
    expect(fake.balances(KEY).USDT).toBe(usdtBefore);
    const within = await venue.openLeg(account(), {
      ...order,
      clientOrderId: 'ioc2-b',
      protection: { price: '2999.50', maxSlippage: 0.001 },
    });
    expect(within.price).toBe('3000.01');
    expect(fake.orders(KEY).find((o) => o.clientOrderId === 'ioc2-b')).toMatchObject({ executedQty: '0.10000000' });
  });

  it('states the symbol filters from exchangeInfo and the account fee as trade rules', async () => {
    expect(await venue.tradeRules(account(), 'BTC/USDT')).toMatchObject({
      currency: 'USDT',
      minNotional: '5',
      stepSize: '0.00001',
      minQuantity: '0.00001',
      feeRate: '0.001',
      multiplier: null,
    });
  });

  it('maps a refusal for insufficient balance (-2010) the venue answers on demand', async () => {
    fake.refuseOrders(-2010);
    try {
      const error = await expectVenueError(
        venue.openLeg(account(), { clientOrderId: 'refused-b', symbol: 'BTC/USDT', side: 'buy', notional: '50' }),
        'insufficient-balance',
      );
      expect(error.message).toMatch(/insufficient balance/);
    } finally {
      fake.refuseOrders(null);
    }
  });

  it('maps insufficient balance', async () => {
    const error = await expectVenueError(
      venue.openLeg(account(), { clientOrderId: 'big-b', symbol: 'ETH/USDT', side: 'buy', notional: '1000000' }),
      'insufficient-balance',
    );
    expect(error.message).toMatch(/insufficient balance/i);
  });

  it('maps an unknown key, a malformed key and a bad signature to auth', async () => {
    await expectVenueError(venue.balances(account('Z'.repeat(64), SECRET, 'u3')), 'auth');
    await expectVenueError(venue.balances(account('short-key', SECRET, 'u4')), 'auth');
    const badSignature = await expectVenueError(venue.balances(account(KEY, 'wrong'.repeat(10), 'u5')), 'auth');
    expect(badSignature.message).toMatch(/Signature for this request is not valid/);
    await expectVenueError(venue.testConnection({ userId: 'u6', credentials: {} }), 'auth');
  });

  it('reports an unreachable venue as unavailable', async () => {
    const nowhere = new BinanceVenue({ endpoints: { restUrl: 'http://127.0.0.1:9', wsUrl: 'ws://127.0.0.1:9' } });
    await expectVenueError(nowhere.balances(account()), 'unavailable');
    await nowhere.close();
  });

  it('maps 429 to rate-limit with the Retry-After delay', async () => {
    fake.rateLimitNext(7);
    const error = await expectVenueError(venue.balances(account()), 'rate-limit');
    expect(error.retryAfterMs).toBe(7000);
  });

  it('on a 5xx whose order did execute, queries the order and returns its fill', async () => {
    fake.pushQuote('ETHUSDT', '3000.00', '3000.01');
    fake.failNextOrder({ status: 503, execute: true });
    const fill = await venue.openLeg(account(), {
      clientOrderId: 'trade2-b',
      symbol: 'ETH/USDT',
      side: 'buy',
      notional: '300',
    });
    expect(fill.clientOrderId).toBe('trade2-b');
    expect(fill.price).toBe('3000.01');
    expect(fake.orders(KEY).filter((o) => o.clientOrderId === 'trade2-b')).toHaveLength(1);
    const lookups = fake.requests.filter((r) => r.method === 'GET' && r.path === '/api/v3/order');
    expect(lookups.length).toBeGreaterThan(0);
  });

  it('on a 5xx whose order did not execute, queries the order and reports it not executed', async () => {
    fake.failNextOrder({ status: 500, execute: false });
    const before = fake.balances(KEY);
    const error = await expectVenueError(
      venue.openLeg(account(), { clientOrderId: 'trade3-b', symbol: 'ETH/USDT', side: 'sell', notional: '300' }),
      'unavailable',
    );
    expect(error.message).toMatch(/not executed/);
    expect(fake.orders(KEY).filter((o) => o.clientOrderId === 'trade3-b')).toHaveLength(0);
    expect(fake.balances(KEY)).toEqual(before);
    // The same id can then be placed for real.
    const fill = await venue.openLeg(account(), {
      clientOrderId: 'trade3-b',
      symbol: 'ETH/USDT',
      side: 'sell',
      notional: '300',
    });
    expect(fill.price).toBe('3000');
  });
});
