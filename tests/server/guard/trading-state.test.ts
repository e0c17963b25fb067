// The trading-state owner (server/trading) through the real app on a real database: live trading is never switched
// on without the venue keys, whichever call asks (the settings save included), and every way trading stops is stored
// as its kind. A recording engine shows which users this instance's engine was asked to trade.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserResponse } from '../../../contract/api';
import type { TradingStop } from '../../../contract/trading-state';
import { users } from '../../../server/db/schema';
import type { TradingFacade } from '../../../server/http/plugins/engine-port';
import { TRADING_KEYS_MISSING } from '../../../server/trading';
import { backends, createTestApp, type SignedIn, type TestApp } from '../helpers/app';

/** An engine that records what it is asked; it trades nothing and closes no trade (none are open here). */
function recordingEngine() {
  const refreshed: string[] = [];
  const removed: string[] = [];
  const unused = () => {
    throw new Error('not used by these tests');
  };
  const engine: TradingFacade = {
    isTrading: true,
    venues: {} as TradingFacade['venues'],
    prices: () => ({}),
    venueHealth: () => [],
    recentOutcomes: () => [],
    addUser: unused,
    refreshUser: async (userId) => void refreshed.push(userId),
    removeUser: async (userId) => void removed.push(userId),
    createManualTrade: unused,
    cancelTrade: unused,
    closeUserTrades: async () => ({ open: 0, closed: true }),
    setGlobalHalt: () => undefined,
  };
  return { engine, refreshed, removed };
}

const KEYS = { binanceApiKey: 'k'.repeat(64), binanceSecretKey: 's'.repeat(64), derivToken: 'a1B2c3D4e5F6g7H' };

describe.each(backends)('trading state on %s', (backend) => {
  let t: TestApp;
  let recorder: ReturnType<typeof recordingEngine>;

  const stored = async (user: SignedIn) => {
    const [row] = await t.db
      .select({ tradingEnabled: users.tradingEnabled, tradingStop: users.tradingStop, maxExposure: users.maxExposure })
      .from(users)
      .where(eq(users.id, user.user._id));
    return row;
  };
  const save = (user: SignedIn, body: object) =>
    t.request('PUT', `/api/users/${user.user._id}`, { token: user.token, body });
  const saveKeys = (user: SignedIn, body: object) =>
    t.request('PUT', `/api/users/${user.user._id}/api-keys`, { token: user.token, body });

  beforeAll(async () => {
    recorder = recordingEngine();
    t = await createTestApp(backend, { env: { MARKET: 'live' }, build: { engine: recorder.engine } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('never switches live trading on without the keys: not by the settings save, not by add-user', async () => {
    const alice = await t.createUser();
    // The settings form's call: the limits are saved, trading stays off, and the answer says why.
    const res = await save(alice, { maxExposure: 2500, minSpread: 0.003, maxLoss: 50, tradingEnabled: true });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as UserResponse;
    expect(body.user).toMatchObject({ tradingEnabled: false, tradingStop: 'off', maxExposure: 2500, maxLoss: 50 });
    expect(body.message).toContain(TRADING_KEYS_MISSING);
    expect(await stored(alice)).toMatchObject({ tradingEnabled: false, tradingStop: 'off' });
    // The form's next call, which the spec's warning text answers.
    const add = await t.request('POST', '/api/exchanges/trading/add-user', { token: alice.token });
    expect(add.statusCode).toBe(400);
    expect(add.json()).toMatchObject({ success: false, message: TRADING_KEYS_MISSING });
    expect(await stored(alice)).toMatchObject({ tradingEnabled: false, tradingStop: 'off' });
    // The engine was never asked to trade for alice.
    expect(recorder.refreshed).not.toContain(alice.user._id);
  });

  it('refuses with some of the keys, and switches on once all are saved', async () => {
    const bob = await t.createUser();
    for (const partial of [
      { binanceApiKey: KEYS.binanceApiKey, binanceSecretKey: KEYS.binanceSecretKey },
      { derivToken: KEYS.derivToken, binanceApiKey: '', binanceSecretKey: '' },
      { binanceApiKey: KEYS.binanceApiKey, derivToken: KEYS.derivToken },
    ]) {
      expect((await saveKeys(bob, partial)).statusCode).toBe(200);
      expect(((await save(bob, { tradingEnabled: true })).json() as UserResponse).user.tradingEnabled).toBe(false);
      expect((await t.request('POST', '/api/exchanges/trading/add-user', { token: bob.token })).statusCode).toBe(400);
      expect(await stored(bob)).toMatchObject({ tradingEnabled: false });
    }
    expect(recorder.refreshed).not.toContain(bob.user._id);

    expect((await saveKeys(bob, KEYS)).statusCode).toBe(200);
    const on = (await save(bob, { tradingEnabled: true })).json() as UserResponse;
    expect(on).toMatchObject({ message: 'Trading settings updated successfully' });
    expect(on.user).toMatchObject({ tradingEnabled: true, tradingStop: null });
    expect(recorder.refreshed).toContain(bob.user._id);
  });

  it('stores how trading stopped: by the user, by Stop & flatten, by an admin', async () => {
    const carol = await t.createUser();
    expect((await saveKeys(carol, KEYS)).statusCode).toBe(200);
    const stopAs = async (stop: TradingStop, off: () => Promise<unknown>) => {
      expect((await t.request('POST', '/api/exchanges/trading/add-user', { token: carol.token })).statusCode).toBe(200);
      expect(await stored(carol)).toMatchObject({ tradingEnabled: true, tradingStop: null });
      await off();
      expect(await stored(carol)).toMatchObject({ tradingEnabled: false, tradingStop: stop });
    };
    await stopAs('off', () => t.request('POST', '/api/exchanges/trading/remove-user', { token: carol.token }));
    await stopAs('off', () => save(carol, { tradingEnabled: false }));
    await stopAs('flattened', () =>
      t.request('POST', '/api/exchanges/trading/stop-and-flatten', { token: carol.token }),
    );
    await stopAs('admin', () =>
      t.request('PUT', `/api/admin/users/${carol.user._id}/toggle-active`, { token: t.admin.token }),
    );
    expect(recorder.removed.filter((id) => id === carol.user._id).length).toBeGreaterThanOrEqual(2);
    // Reactivated, the account does not trade until its owner turns trading on again.
    await t.request('PUT', `/api/admin/users/${carol.user._id}/toggle-active`, { token: t.admin.token });
    expect(await stored(carol)).toMatchObject({ tradingEnabled: false, tradingStop: 'admin' });
  });

  it('keeps the switch and the stop in step in the database itself', async () => {
    const dave = await t.createUser();
    await expect(t.db.update(users).set({ tradingEnabled: true }).where(eq(users.id, dave.user._id))).rejects.toThrow();
  });
});

describe('the simulated market', () => {
  it('needs no keys to trade', async () => {
    const t = await createTestApp('pglite', { env: { MARKET: 'sim' } });
    try {
      const erin = await t.createUser();
      const res = await t.request('PUT', `/api/users/${erin.user._id}`, {
        token: erin.token,
        body: { tradingEnabled: true },
      });
      expect((res.json() as UserResponse).user).toMatchObject({ tradingEnabled: true, tradingStop: null });
    } finally {
      await t.close();
    }
  });
});

describe('one way to switch trading on', () => {
  it('is TradingControl.enable, which checks the keys: nothing else in the server turns trading on', () => {
    const root = join(__dirname, '../../../server');
    const callers: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (name.endsWith('.ts') && /\bturnTradingOn\(/.test(readFileSync(path, 'utf8')))
          callers.push(relative(root, path));
      }
    };
    walk(root);
    // Defined in the repository, called once: in enable(), after missingTradingKeys.
    expect(callers.sort()).toEqual(['db/repositories/trading-state.ts', 'trading/control.ts']);
    const control = readFileSync(join(root, 'trading/control.ts'), 'utf8');
    expect(control.match(/\bturnTradingOn\(/g)).toHaveLength(1);
    const enable = control.slice(control.indexOf('async enable('), control.indexOf('async disable('));
    expect(enable.indexOf('missingTradingKeys(')).toBeGreaterThan(-1);
    expect(enable.indexOf('missingTradingKeys(')).toBeLessThan(enable.indexOf('turnTradingOn('));
  });
});
