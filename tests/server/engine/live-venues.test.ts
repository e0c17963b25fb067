// The engine with the live connectors (ccxt for Binance, the ws client for Deriv) against the protocol-faithful
// fakes, as issue 9's "Done when" asks, for a trader on each of Deriv's APIs at once (issue 19): a forced dislocation
// opens the basis trade on both venues and convergence closes it, for a legacy token and a personal access token side
// by side; a Deriv stop-out closes the Binance leg at once; a Binance that refuses every order gives a few failed
// trades and a pause, never a loop.
import Decimal from 'decimal.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Trade } from '../../../contract/entities';
import { ArbitrageEngine, type EngineDeps } from '../../../server/engine/engine';
import type { EngineEvent } from '../../../server/engine/events';
import { createVenues, type Venues } from '../../../server/venues';
import type { VenueAccount, VenueFacts } from '../../../server/venues/types';
import { fixedFigures, MemoryTradeStore, MemoryUsers } from '../../../tools/doubles/memory-engine-parts';
import { startFakeVenues, type FakeVenues } from '../../fakes/venues';
import { eventLog, type EventLog } from './event-log';

const KEY = 'L'.repeat(60) + 'LIVE';
const PAT_KEY = 'P'.repeat(60) + 'PATS';
const SECRET = 's'.repeat(64);
const TOKEN = 'a1-LiveTraderToken';
const PAT = 'pat_LiveTrader0Kq3Vb8Hn5Jm2Kq3Vb8Hn5Jm2';
const APP_ID = 'Qx7Lm2Np9Rs4Tv6Wy8Za1';
/** The legacy trader ('trader') and the personal-access-token trader ('pat'), each with a Binance account. */
const USERS = {
  trader: { binanceKey: KEY, deriv: { derivToken: TOKEN }, derivAccount: 'CR7001' },
  pat: { binanceKey: PAT_KEY, deriv: { derivToken: PAT, derivAppId: APP_ID }, derivAccount: 'DOT7002' },
} as const;
type UserId = keyof typeof USERS;

let fakes: FakeVenues;
let venues: Venues;
let engine: ArbitrageEngine;
let users: MemoryUsers;
let log: EventLog;
const waitFor = (predicate: (e: EngineEvent) => boolean): Promise<EngineEvent> => log.waitFor(predicate);
const tradeOf = (e: EngineEvent): Trade => (e as { trade: Trade }).trade;
const isTrade = (status: string) => (e: EngineEvent) =>
  (e.type === 'trade_updated' || e.type === 'new_trade') && e.trade.status === status;
const bothOpen = (e: EngineEvent) => e.type === 'trade_updated' && e.trade.legs.every((l) => l.status === 'open');

/** Both venues quote BTC now: Binance at `mid`, Deriv `premium` above it. */
function quote(mid: number, premium: number): void {
  fakes.binance.pushQuote('BTCUSDT', mid.toFixed(2), (mid + 0.01).toFixed(2));
  const deriv = mid * (1 + premium);
  fakes.deriv.pushTick('cryBTCUSD', deriv.toFixed(3), (deriv + 10).toFixed(3));
}

/** What the connector wrote down per user (the API, the account), read back on the next load as the database would. */
let learned: Map<string, VenueFacts['deriv']>;

function accountFor(userId: string): VenueAccount {
  const user = USERS[userId as UserId];
  const facts = learned.get(userId);
  return {
    userId,
    credentials: {
      binanceApiKey: user.binanceKey,
      binanceSecretKey: SECRET,
      ...user.deriv,
      ...(facts && { derivApi: facts.api }),
      ...(facts?.chosen && { derivAccountId: facts.chosen }),
    },
    remember: async (f) => void learned.set(userId, f.deriv),
  };
}

async function startEngine(params: EngineDeps['params'] = {}, traders: UserId[] = ['trader']): Promise<void> {
  venues = await createVenues(
    {
      market: 'live',
      binanceRestUrl: fakes.binance.restUrl,
      binanceWsUrl: fakes.binance.wsUrl,
      derivWsUrl: fakes.deriv.url,
      derivPublicWsUrl: fakes.deriv.publicUrl,
      derivApiUrl: fakes.deriv.apiUrl,
      derivAppId: '1089',
    },
    { live: { backoff: { initialMs: 20, maxMs: 200 } } },
  );
  const store = new MemoryTradeStore();
  users = new MemoryUsers(store);
  for (const id of traders) users.set(id, { maxExposure: '1000' });
  learned = new Map();
  engine = new ArbitrageEngine({
    venues: { binance: venues.binance, deriv: venues.deriv },
    store,
    users,
    account: async (userId) => accountFor(userId),
    figures: fixedFigures(),
    housekeepingMs: 20,
    params,
  });
  log = eventLog(engine.events$);
  await engine.start();
  await Promise.all([
    fakes.binance.waitForSubscription('btcusdt@bookTicker'),
    fakes.deriv.waitForSubscription('ticks:cryBTCUSD'),
  ]);
}

beforeEach(async () => {
  // Deriv offers BTC multipliers from ×50 only: the hedge must use what the venue offers.
  fakes = await startFakeVenues({
    binanceAccounts: [
      { apiKey: KEY, secret: SECRET, balances: { USDT: '10000', BTC: '0', ETH: '0' } },
      { apiKey: PAT_KEY, secret: SECRET, balances: { USDT: '10000', BTC: '0', ETH: '0' } },
    ],
    derivAccounts: [{ token: TOKEN, loginid: 'CR7001', balance: '10000' }],
    derivPats: [{ token: PAT, appId: APP_ID, accounts: [{ accountId: 'DOT7002', balance: '10000' }] }],
  });
  fakes.deriv.setMultipliers('cryBTCUSD', [50, 100]);
});

afterEach(async () => {
  await engine?.stop();
  await venues?.close();
  await fakes?.close();
});

describe('the engine on the live connectors against the venue fakes', () => {
  it('opens the basis trade for a legacy and a PAT trader side by side on a forced dislocation, closes both on convergence', async () => {
    await startEngine({}, ['trader', 'pat']);
    quote(80_000, 0.0001);
    await waitFor((e) => e.type === 'priceUpdate' && e.price.deriv !== null && e.price.binance !== null);
    expect(log.events.some((e) => e.type === 'new_trade')).toBe(false);
    quote(80_000, 0.01);
    const opened = await Promise.all(
      (['trader', 'pat'] as const).map(async (userId) =>
        tradeOf(await waitFor((e) => bothOpen(e) && tradeOf(e).userId === userId)),
      ),
    );
    for (const open of opened) {
      const user = USERS[open.userId as UserId];
      expect(open.legs.map((l) => [l.venue, l.side])).toEqual([
        ['binance', 'buy'],
        ['deriv', 'sell'],
      ]);
      const [binanceOrder] = fakes.binance.orders(user.binanceKey);
      expect(binanceOrder).toMatchObject({ side: 'BUY', clientOrderId: `${open.tradeId}-b`, commissionAsset: 'BTC' });
      const contract = fakes.deriv.contracts().find((c) => String(c.contractId) === open.legs[1]?.venueOrderId);
      expect(contract).toMatchObject({
        loginid: user.derivAccount,
        contractType: 'MULTDOWN',
        multiplier: 50,
        sold: null,
      });
    }
    // each on its own API: the PAT trader on the one-time-password socket, never authorized; the legacy one authorized
    expect(learned.get('pat')).toMatchObject({ api: 'new', chosen: 'DOT7002' });
    expect(learned.get('trader')).toMatchObject({ api: 'legacy' });
    const buys = fakes.deriv.requests.filter((r) => r.call === 'buy').map((r) => r.dialect);
    expect(buys.sort()).toEqual(['legacy', 'new']);
    expect(fakes.deriv.requests.filter((r) => r.call === 'authorize').map((r) => r.request['authorize'])).toEqual([
      TOKEN,
    ]);
    quote(80_020, 0.0001);
    for (const userId of ['trader', 'pat'] as const) {
      const user = USERS[userId];
      const done = tradeOf(await waitFor((e) => isTrade('completed')(e) && tradeOf(e).userId === userId));
      expect(done.reason).toBe('converged');
      expect(fakes.binance.orders(user.binanceKey).map((o) => [o.side, o.clientOrderId])).toEqual([
        ['BUY', `${done.tradeId}-b`],
        ['SELL', `${done.tradeId}-b-c`],
      ]);
      expect(fakes.deriv.contracts().find((c) => c.loginid === user.derivAccount)?.sold).not.toBeNull();
      // The profit is the money the two accounts made, the Binance commission (paid in BTC) counted once; the BTC
      // the lot step left on the account is still the user's, held at what it cost (never booked as a loss). Deriv
      // pays in cents, hence the tolerance.
      const dust = new Decimal(fakes.binance.balances(user.binanceKey).BTC as string);
      expect(dust.lt('0.00001')).toBe(true);
      const bought = done.legs.find((l) => l.venue === 'binance')?.open;
      const made = new Decimal(fakes.binance.balances(user.binanceKey).USDT as string)
        .minus(10_000)
        .plus(new Decimal(fakes.deriv.balance(user.derivAccount)).minus(10_000))
        .plus(dust.times(bought?.price ?? 0));
      expect(Math.abs(done.actualProfit - made.toNumber())).toBeLessThan(0.02);
      expect(done.actualProfit).toBeGreaterThan(0);
    }
  });

  it.each(['trader', 'pat'] as const)(
    'closes the Binance leg at once when Deriv stops %s’s contract out, and records why',
    async (userId) => {
      await startEngine({}, [userId]);
      quote(80_000, 0.01);
      const open = tradeOf(await waitFor(bothOpen));
      const contractId = Number(open.legs.find((l) => l.venue === 'deriv')?.venueOrderId);
      await fakes.deriv.waitForSubscription(`poc:${contractId}`);
      fakes.deriv.stopOut(contractId);
      const done = tradeOf(await waitFor(isTrade('completed')));
      expect(done.reason).toBe('stopped out by the venue: Deriv stopped the contract out');
      expect(done.legs.map((l) => [l.venue, l.status])).toEqual([
        ['binance', 'closed'],
        ['deriv', 'closed'],
      ]);
      expect(fakes.binance.orders(USERS[userId].binanceKey).map((o) => o.side)).toEqual(['BUY', 'SELL']);
    },
  );

  it.each(['trader', 'pat'] as const)(
    'pauses %s after a few failed trades when Binance refuses every order for insufficient balance, never looping',
    async (userId) => {
      await startEngine({ backoffBaseMs: 30 }, [userId]);
      fakes.binance.refuseOrders(-2010);
      // The dislocation stays for as long as the market feed runs; the engine decides how often to try.
      const feed = setInterval(() => quote(80_000, 0.01), 20);
      try {
        const notice = await waitFor((e) => e.type === 'notice');
        expect(notice).toMatchObject({
          notice: {
            message: expect.stringMatching(
              /^Automated trading is paused: Binance refused the order — insufficient USDT \(3 failed trades in a row\)/,
            ),
          },
        });
        // ten more quotes of the same market: nothing new is tried
        const prices = () => log.events.filter((e) => e.type === 'priceUpdate').length;
        const seen = prices();
        await waitFor((e) => e.type === 'priceUpdate' && prices() >= seen + 10);
        await engine.idle();
        expect(log.events.filter(isTrade('failed'))).toHaveLength(3);
        expect(log.events.filter((e) => e.type === 'new_trade')).toHaveLength(3);
      } finally {
        clearInterval(feed);
      }
      expect(users.stops).toEqual([
        { userId, reason: 'Binance refused the order — insufficient USDT (3 failed trades in a row)' },
      ]);
      // each failed trade unwound its Deriv contract, on the user's own account
      const contracts = fakes.deriv.contracts();
      expect(contracts.every((c) => c.sold !== null && c.loginid === USERS[userId].derivAccount)).toBe(true);
    },
  );
});
