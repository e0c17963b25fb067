// More pairs than the spec's two (SYMBOLS): a user picks the pairs they trade and trades a third pair end to end on
// the simulated market; the engine trades no pair the user did not pick; an admin sees the pairs known, offered and
// enabled.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filter, firstValueFrom } from 'rxjs';
import type { AdminPairsResponse, BalancesResponse, MetaResponse, UserResponse } from '../../../contract/api';
import type { Trade } from '../../../contract/entities';
import { SERVER_EVENTS } from '../../../contract/events';
import { PAIR_CATALOGUE } from '../../../contract/pairs';
import { createEngineApp, type Actor, type EngineApp } from './engine-app';
import { backends } from '../helpers/app';

const THREE = 'BTC/USDT,ETH/USDT,LTC/USDT';

describe.each(backends)('a server trading %s with a third pair', (backend) => {
  let e: EngineApp;
  let alice: Actor;

  beforeAll(async () => {
    // A short hold limit closes a trade on its own within seconds, converged or not.
    e = await createEngineApp(backend, { SYMBOLS: THREE, TRADE_MAX_HOLD_MS: '2000' });
    alice = await e.createUser();
  }, 60_000);
  afterAll(async () => e?.close());

  const saveSettings = (body: unknown) =>
    e.request('PUT', `/api/users/${alice.user._id}`, { token: alice.token, body });

  it('names its pairs in the market answer, and a new user trades all of them', async () => {
    const meta = (await e.request('GET', '/api/meta', { token: alice.token })).json() as MetaResponse;
    expect(meta.market.symbols).toEqual(['BTC/USDT', 'ETH/USDT', 'LTC/USDT']);
    expect(alice.user.symbols).toEqual(['BTC/USDT', 'ETH/USDT', 'LTC/USDT']);
  });

  it('saves the pairs a user picks, refusing one the server does not trade with its name', async () => {
    const refused = await saveSettings({ symbols: ['LTC/USDT', 'SOL/USDT'] });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ message: string }>().message).toBe(
      'This server does not trade SOL/USDT; pick from BTC/USDT, ETH/USDT, LTC/USDT',
    );
    const none = await saveSettings({ symbols: [] });
    expect(none.statusCode).toBe(400);
    expect(none.json<{ message: string }>().message).toBe('Pick at least one pair to trade');
    const saved = await saveSettings({ symbols: ['LTC/USDT'] });
    expect(saved.statusCode).toBe(200);
    expect(saved.json<UserResponse>().user.symbols).toEqual(['LTC/USDT']);
  });

  it('trades the third pair end to end: opened, closed, with its coin in the balances', async () => {
    const closed = firstValueFrom(
      e.engine.events$.pipe(
        filter(
          (ev): ev is Extract<typeof ev, { trade: Trade }> =>
            ev.type === SERVER_EVENTS.tradeUpdated && ev.trade.symbol === 'LTC/USDT' && ev.trade.status !== 'pending',
        ),
      ),
    );
    const res = await e.request('POST', '/api/trades', {
      token: alice.token,
      body: { symbol: 'LTC/USDT', totalAmount: 50 },
    });
    expect(res.statusCode, res.body).toBe(201);
    const opened = res.json<{ trade: Trade }>().trade;
    expect(opened.symbol).toBe('LTC/USDT');
    const done = (await closed).trade;
    expect(done._id).toBe(opened._id);
    expect(done.status).toBe('completed');
    // The Binance leg was filled on LTC's own book: at a price in LTC's modelled range, for about the notional.
    const spot = done.legs.find((l) => l.venue === 'binance')?.open;
    expect(spot?.price).toBeGreaterThan(60);
    expect(spot?.price).toBeLessThan(130);
    expect((spot?.price ?? 0) * (spot?.quantity ?? 0)).toBeCloseTo(50, -1);
    const balances = (await e.request('GET', '/api/balances', { token: alice.token })).json<BalancesResponse>();
    expect(Object.keys(balances.balance.binance)).toEqual(['USDT', 'BTC', 'ETH', 'LTC']);
  }, 60_000);

  it('never trades a pair the user did not pick: a manual trade on it is refused', async () => {
    const res = await e.request('POST', '/api/trades', {
      token: alice.token,
      body: { symbol: 'BTC/USDT', totalAmount: 50 },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toBe(
      'BTC/USDT is not among your pairs; add it in your trading settings to trade it',
    );
    const other = await e.request('POST', '/api/trades', {
      token: alice.token,
      body: { symbol: 'DOGE/USDT', totalAmount: 50 },
    });
    expect(other.statusCode).toBe(400);
    expect(other.json<{ message: string }>().message).toContain('This server does not trade DOGE/USDT');
  });

  it('shows an admin every pair the product knows, those the market offers and those enabled', async () => {
    const refused = await e.request('GET', '/api/admin/pairs', { token: alice.token });
    expect(refused.statusCode).toBe(403);
    const res = await e.request('GET', '/api/admin/pairs', { token: e.admin.token });
    expect(res.statusCode).toBe(200);
    const body = res.json<AdminPairsResponse>();
    expect(body.market).toBe('sim');
    expect(body.pairs.map((p) => p.symbol)).toEqual(PAIR_CATALOGUE.map((p) => p.symbol));
    expect(body.pairs.filter((p) => p.enabled).map((p) => p.symbol)).toEqual(THREE.split(','));
    // The simulated market models every pair in the catalogue.
    expect(body.pairs.every((p) => p.binance && p.deriv)).toBe(true);
  });
});
