// Coin a round trip leaves behind on live Binance (issue 20, finding 11), through ccxt against the fake venue: a buyer
// pays its commission in the coin, so it receives a quantity off the lot step, and a sell can only be whole steps.
// The position is what the close can sell; the remainder stays on the account as the user's coin and is not booked
// as a loss: the trade's profit is the USDT the round trip made plus the cost of the coin still held.
import Decimal from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredLeg } from '../../../server/db/schema/trades';
import { tradeProfit } from '../../../server/engine/profit';
import { BinanceVenue } from '../../../server/venues/binance/venue';
import type { VenueAccount } from '../../../server/venues/types';
import { startFakeBinance, type FakeBinance } from '../../fakes/binance/server';

const KEY = 'd'.repeat(60) + 'DUST';
const SECRET = 's'.repeat(64);
const trader: VenueAccount = { userId: 'u-dust', credentials: { binanceApiKey: KEY, binanceSecretKey: SECRET } };
const STEP = new Decimal('0.00001');

let fake: FakeBinance;
let venue: BinanceVenue;

beforeAll(async () => {
  fake = await startFakeBinance({ accounts: [{ apiKey: KEY, secret: SECRET, balances: { USDT: '5000', BTC: '0' } }] });
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

describe('coin left behind by a round trip on Binance', () => {
  it('holds and sells whole lot steps, and never books the coin still held as a loss', async () => {
    const usdt = () => new Decimal(fake.balances(KEY).USDT as string);
    const btc = () => new Decimal(fake.balances(KEY).BTC ?? '0');
    const before = usdt();
    fake.pushQuote('BTCUSDT', '80000.00', '80000.01');
    // 1,000 USDT buys 0.01249 BTC, of which Binance keeps 0.00001249 as commission: 0.01247751 arrives
    const open = await venue.openLeg(trader, {
      clientOrderId: 'dust1-b',
      symbol: 'BTC/USDT',
      side: 'buy',
      notional: '1000',
    });
    expect(new Decimal(open.quantity).mod(STEP).isZero()).toBe(true);
    expect(open.quantity).toBe('0.01247');
    fake.pushQuote('BTCUSDT', '80100.00', '80100.01');
    const close = await venue.closeLeg(trader, {
      clientOrderId: 'dust1-b-c',
      symbol: 'BTC/USDT',
      side: 'buy',
      quantity: open.quantity,
      venueOrderId: open.venueOrderId,
    });
    expect(close.quantity).toBe(open.quantity);
    const held = btc();
    expect(held.toFixed()).toBe('0.00000751');
    const leg: StoredLeg = {
      venue: 'binance',
      side: 'buy',
      clientOrderId: 'dust1-b',
      venueOrderId: open.venueOrderId,
      status: 'closed',
      open: { ...open, at: '' },
      close: { ...close, at: '' },
    };
    const made = usdt().minus(before);
    // what the USDT paid for the coin still held is its cost, not a loss
    const stillHeld = held.times(open.price);
    expect(new Decimal(tradeProfit([leg]).toString()).minus(made.plus(stillHeld)).abs().lte('0.000001')).toBe(true);

    // The same account's next round trip holds its own whole steps; the coin left before stays where it is.
    fake.pushQuote('BTCUSDT', '80000.00', '80000.01');
    const again = await venue.openLeg(trader, {
      clientOrderId: 'dust2-b',
      symbol: 'BTC/USDT',
      side: 'buy',
      notional: '1000',
    });
    const closedAgain = await venue.closeLeg(trader, {
      clientOrderId: 'dust2-b-c',
      symbol: 'BTC/USDT',
      side: 'buy',
      quantity: again.quantity,
      venueOrderId: again.venueOrderId,
    });
    expect(closedAgain.quantity).toBe(again.quantity);
    expect(btc().minus(held).toFixed()).toBe('0.00000751');
  });
});
