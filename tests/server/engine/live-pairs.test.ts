// A third pair on the live connectors (ccxt for Binance, the ws client for Deriv) against the venue fakes, as issue
// 26's "Done when" asks: SYMBOLS=BTC/USDT,ETH/USDT,LTC/USDT passes the start-up check against what the fakes offer,
// and a user who picked LTC/USDT alone trades it end to end on a dislocation (Binance LTCUSDT, Deriv cryLTCUSD) and
// never BTC/USDT, though BTC dislocates on the same tick.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SYMBOLS, type SymbolId } from '../../../contract/pairs';
import type { Trade } from '../../../contract/entities';
import { ArbitrageEngine } from '../../../server/engine/engine';
import type { EngineEvent } from '../../../server/engine/events';
import { createVenues, type Venues } from '../../../server/venues';
import { enableSymbols } from '../../../server/venues/enabled-pairs';
import { offeredPairs, pairProblems } from '../../../server/venues/pair-check';
import { fixedFigures, MemoryTradeStore, MemoryUsers } from '../../../tools/doubles/memory-engine-parts';
import { startFakeVenues, type FakeVenues } from '../../fakes/venues';
import { eventLog } from './event-log';

const KEY = 'T'.repeat(60) + 'LTC3';
const SECRET = 's'.repeat(64);
const TOKEN = 'a1-ThirdPairTrader';
const THREE: SymbolId[] = ['BTC/USDT', 'ETH/USDT', 'LTC/USDT'];

let fakes: FakeVenues;
let venues: Venues | undefined;
let engine: ArbitrageEngine | undefined;
const tradeOf = (e: EngineEvent): Trade | null =>
  e.type === 'new_trade' || e.type === 'trade_updated' ? (e as { trade: Trade }).trade : null;

/** Binance at `mid`, Deriv `premium` above it, for one pair on both venues. */
function quote(binanceSymbol: string, derivUnderlying: string, mid: number, premium: number, decimals: number): void {
  fakes.binance.pushQuote(binanceSymbol, mid.toFixed(decimals), (mid + 10 ** -decimals).toFixed(decimals));
  const deriv = mid * (1 + premium);
  fakes.deriv.pushTick(derivUnderlying, deriv.toFixed(3), (deriv + 0.01).toFixed(3));
}

const config = () => ({
  market: 'live' as const,
  binanceRestUrl: fakes.binance.restUrl,
  binanceWsUrl: fakes.binance.wsUrl,
  derivWsUrl: fakes.deriv.url,
  derivPublicWsUrl: fakes.deriv.publicUrl,
  derivApiUrl: fakes.deriv.apiUrl,
  derivAppId: '1089',
});

beforeEach(async () => {
  fakes = await startFakeVenues({
    binanceAccounts: [{ apiKey: KEY, secret: SECRET, balances: { USDT: '10000', BTC: '0', ETH: '0', LTC: '0' } }],
    derivAccounts: [{ token: TOKEN, loginid: 'CR7301', balance: '10000' }],
  });
});

afterEach(async () => {
  await engine?.stop();
  await venues?.close();
  await fakes?.close();
  engine = undefined;
  venues = undefined;
  enableSymbols(DEFAULT_SYMBOLS);
});

describe('a third pair on the live market against the venue fakes', () => {
  it('passes the start-up check, and a user who picked LTC/USDT trades LTC end to end and never BTC', async () => {
    expect(pairProblems(await offeredPairs(config(), THREE), 'live')).toEqual([]);
    enableSymbols(THREE);
    venues = await createVenues(config(), { live: { backoff: { initialMs: 20, maxMs: 200 } } });
    const store = new MemoryTradeStore();
    const users = new MemoryUsers(store);
    users.set('trader', { maxExposure: '1000', symbols: ['LTC/USDT'] });
    engine = new ArbitrageEngine({
      venues: { binance: venues.binance, deriv: venues.deriv },
      store,
      users,
      account: async (userId) => ({
        userId,
        credentials: { binanceApiKey: KEY, binanceSecretKey: SECRET, derivToken: TOKEN },
        remember: async () => {},
      }),
      figures: fixedFigures(),
      housekeepingMs: 20,
      params: {},
    });
    const { events, waitFor } = eventLog(engine.events$);
    await engine.start();
    await Promise.all([
      fakes.binance.waitForSubscription('ltcusdt@bookTicker'),
      fakes.deriv.waitForSubscription('ticks:cryLTCUSD'),
      fakes.binance.waitForSubscription('btcusdt@bookTicker'),
    ]);

    // Both pairs dislocate by 1 %: only the picked one is traded.
    quote('BTCUSDT', 'cryBTCUSD', 80_000, 0.01, 2);
    quote('LTCUSDT', 'cryLTCUSD', 90, 0.01, 2);
    const opened = tradeOf(
      await waitFor((e) => e.type === 'trade_updated' && !!tradeOf(e)?.legs.every((l) => l.status === 'open')),
    );
    expect(opened?.symbol).toBe('LTC/USDT');
    const [buy] = fakes.binance.orders(KEY);
    expect(buy).toMatchObject({ symbol: 'LTCUSDT', side: 'BUY', clientOrderId: `${opened?.tradeId}-b` });
    const contract = fakes.deriv.contracts().find((c) => String(c.contractId) === opened?.legs[1]?.venueOrderId);
    expect(contract).toMatchObject({ loginid: 'CR7301', contractType: 'MULTDOWN', sold: null });

    // Convergence closes it on both venues.
    quote('LTCUSDT', 'cryLTCUSD', 90.02, 0.0001, 2);
    const done = tradeOf(await waitFor((e) => tradeOf(e)?.status === 'completed'));
    expect(done).toMatchObject({ symbol: 'LTC/USDT', reason: 'converged' });
    expect(fakes.binance.orders(KEY).map((o) => [o.symbol, o.side])).toEqual([
      ['LTCUSDT', 'BUY'],
      ['LTCUSDT', 'SELL'],
    ]);
    expect(fakes.deriv.contracts().find((c) => c.loginid === 'CR7301')?.sold).not.toBeNull();
    // Never the pair the user did not pick.
    expect(events.map(tradeOf).filter((t) => t !== null && t.symbol !== 'LTC/USDT')).toEqual([]);
  });
});
