// Coin left behind by round trips on live Binance (issue 20, finding 11), through ccxt against the fake venue: a buyer
// pays its commission in the coin, so it receives a quantity off the lot step, and a sell can only be whole steps.
// The position is what the close can sell; the remainder stays on the account as the user's coin and is not booked
// as a loss while it is held. It is carried into the next buy of the coin: once what was left and what arrives make a
// whole step, that buy's position takes it in and its close sells it, so the remainder never grows past one step and
// the user's own coin is never sold. Each trade's profit is the USDT its round trip made plus the coin it left on the
// account (or took from it), valued at its opening price.
import Decimal from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredLeg } from '../../../server/db/schema/trades';
import { tradeProfit } from '../../../server/engine/profit';
import { BinanceVenue } from '../../../server/venues/binance/venue';
import type { LegFill, VenueAccount } from '../../../server/venues/types';
import { startFakeBinance, type FakeBinance } from '../../fakes/binance/server';

const KEY = 'd'.repeat(60) + 'DUST';
const HOLDER_KEY = 'h'.repeat(60) + 'HOLD';
const SECRET = 's'.repeat(64);
const trader: VenueAccount = { userId: 'u-dust', credentials: { binanceApiKey: KEY, binanceSecretKey: SECRET } };
const holder: VenueAccount = {
  userId: 'u-holder',
  credentials: { binanceApiKey: HOLDER_KEY, binanceSecretKey: SECRET },
};
const STEP = new Decimal('0.00001');
const OWN_COIN = new Decimal('0.5');

let fake: FakeBinance;
let venue: BinanceVenue;

beforeAll(async () => {
  fake = await startFakeBinance({
    accounts: [
      { apiKey: KEY, secret: SECRET, balances: { USDT: '5000', BTC: '0' } },
      // Holds coin of its own, on the step (a mirror trade's inventory): never sold by a basis trade's close.
      { apiKey: HOLDER_KEY, secret: SECRET, balances: { USDT: '5000', BTC: OWN_COIN.toFixed() } },
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

const balanceOf = (key: string, asset: 'USDT' | 'BTC') => new Decimal(fake.balances(key)[asset] ?? '0');

interface RoundTrip {
  open: LegFill;
  close: LegFill;
  /** USDT the round trip moved, and the coin it left on the account (negative: took from it). */
  usdtMade: Decimal;
  coinLeft: Decimal;
  profit: Decimal;
}

/** One basis trade's Binance leg: a market buy of `notional` USDT at `ask`, then its close at `bid`. */
async function roundTrip(account: VenueAccount, id: string, ask: string, bid: string): Promise<RoundTrip> {
  const key = account.credentials.binanceApiKey as string;
  const usdtBefore = balanceOf(key, 'USDT');
  const coinBefore = balanceOf(key, 'BTC');
  fake.pushQuote('BTCUSDT', (Number(ask) - 0.01).toFixed(2), ask);
  const open = await venue.openLeg(account, {
    clientOrderId: `${id}-b`,
    symbol: 'BTC/USDT',
    side: 'buy',
    notional: '1000',
  });
  fake.pushQuote('BTCUSDT', bid, (Number(bid) + 0.01).toFixed(2));
  const close = await venue.closeLeg(account, {
    clientOrderId: `${id}-b-c`,
    symbol: 'BTC/USDT',
    side: 'buy',
    quantity: open.quantity,
    venueOrderId: open.venueOrderId,
  });
  const leg: StoredLeg = {
    venue: 'binance',
    side: 'buy',
    clientOrderId: `${id}-b`,
    venueOrderId: open.venueOrderId,
    status: 'closed',
    open: { ...open, at: '' },
    close: { ...close, at: '' },
  };
  return {
    open,
    close,
    usdtMade: balanceOf(key, 'USDT').minus(usdtBefore),
    coinLeft: balanceOf(key, 'BTC').minus(coinBefore),
    profit: new Decimal(tradeProfit([leg]).toString()),
  };
}

/** The trade's booked profit is its USDT plus the coin it left (or took), valued at its opening price. */
function expectBookedAsHeld(trip: RoundTrip): void {
  const expected = trip.usdtMade.plus(trip.coinLeft.times(trip.open.price));
  expect(trip.profit.minus(expected).abs().lte('0.000001'), `${trip.profit} vs ${expected}`).toBe(true);
}

describe('coin left behind by round trips on Binance', () => {
  it('holds and sells whole lot steps, never books the coin still held as a loss, and carries it into the next buy', async () => {
    // 1,000 USDT buys 0.01249 BTC, of which Binance keeps 0.00001249 as commission: 0.01247751 arrives.
    const first = await roundTrip(trader, 'dust1', '80000.01', '80100.00');
    expect(first.open.quantity).toBe('0.01247');
    expect(first.close.quantity).toBe(first.open.quantity);
    expect(balanceOf(KEY, 'BTC').toFixed()).toBe('0.00000751');
    expectBookedAsHeld(first);

    // The next buy receives 0.01247751 again: with the 0.00000751 left, the account gained 0.01248 in whole steps,
    // so the position takes in one step of the remainder and its close sells it.
    const second = await roundTrip(trader, 'dust2', '80000.01', '79950.00');
    expect(second.open.quantity).toBe('0.01248');
    expect(second.close.quantity).toBe('0.01248');
    expect(balanceOf(KEY, 'BTC').toFixed()).toBe('0.00000502');
    expectBookedAsHeld(second);
  });

  it('keeps the coin left under one step over many round trips, and never sells the coin the account held before', async () => {
    const prices: [string, string][] = [
      ['80000.01', '80020.00'],
      ['80500.01', '80400.00'],
      ['79000.01', '79100.00'],
      ['81000.01', '80990.00'],
      ['80000.01', '80000.00'],
      ['60000.01', '60300.00'],
    ];
    for (const [i, [ask, bid]] of prices.entries()) {
      const trip = await roundTrip(holder, `hold${i}`, ask, bid);
      expect(new Decimal(trip.open.quantity).mod(STEP).isZero()).toBe(true);
      expect(trip.close.quantity).toBe(trip.open.quantity);
      const coin = balanceOf(HOLDER_KEY, 'BTC');
      expect(coin.gte(OWN_COIN), `round trip ${i}: ${coin.toFixed()} BTC`).toBe(true);
      expect(coin.minus(OWN_COIN).lt(STEP), `round trip ${i}: ${coin.toFixed()} BTC`).toBe(true);
      expectBookedAsHeld(trip);
    }
  });
});
