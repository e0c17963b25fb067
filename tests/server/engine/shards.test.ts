// Engine shards (ENGINE_SHARDS, issue 21): two real server processes on one PostgreSQL database and the local Redis,
// both with the engine on, trading users split into 4 shards against the fake venues. The fakes run in this test
// process, so their orders, accounts and contracts outlive the product's SIGKILL, as real venues would.
// Each user trades exactly once on a dislocation, by one instance; one instance is then killed while every user's
// trade is open; the other takes its shards, adopts the open trades and closes them on convergence, and on the next
// dislocation every user trades again, exactly once: at the venues each account has exactly two opens and two closes.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { EngineInstancesResponse } from '../../../contract/engine-instances';
import type { PublicUser, Trade } from '../../../contract/entities';
import { shardOf } from '../../../server/engine/shards';
import { startFakeVenues, type FakeVenues } from '../../fakes/venues';
import { api, poll, startServer, type ServerProcess } from './server-process';

const POSTGRES = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const ADMIN = { username: 'admin@shards.test', password: 'admin-password-for-shards' };
const SHARDS = 4;
const MAX_USERS = 16;
const SECRET = 's'.repeat(64);
const keyOf = (i: number) => 'K'.repeat(60) + String(i).padStart(4, '0');
const tokenOf = (i: number) => `a1-ShardTrader${String(i).padStart(2, '0')}Token`;
const loginOf = (i: number) => `CR${9100 + i}`;

async function onPostgres(sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: POSTGRES });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

interface Trader {
  index: number;
  id: string;
  token: string;
  shard: number;
}

describe('engine shards across two instances', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'arb-shards-'));
  const dbName = `shards_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const servers: ServerProcess[] = [];
  let fakes: FakeVenues | null = null;
  let feed: NodeJS.Timeout | null = null;

  afterAll(async () => {
    if (feed) clearInterval(feed);
    await Promise.all(
      servers.map(async (server) => {
        if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
        await server.exited;
      }),
    );
    await fakes?.close();
    await onPostgres(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('trades each user once, and after a SIGKILL the survivor takes the shards and every user trades again, never twice', async () => {
    const indexes = Array.from({ length: MAX_USERS }, (_, i) => i);
    fakes = await startFakeVenues({
      binanceAccounts: indexes.map((i) => ({
        apiKey: keyOf(i),
        secret: SECRET,
        balances: { USDT: '10000', BTC: '0', ETH: '0' },
      })),
      derivAccounts: indexes.map((i) => ({ token: tokenOf(i), loginid: loginOf(i), balance: '10000' })),
    });
    const venues = fakes;
    let premium = 0.0001;
    const quote = () => {
      venues.binance.pushQuote('BTCUSDT', '80000.00', '80000.01');
      const deriv = 80_000 * (1 + premium);
      venues.deriv.pushTick('cryBTCUSD', deriv.toFixed(3), (deriv + 10).toFixed(3));
    };
    feed = setInterval(quote, 100);

    await onPostgres(`CREATE DATABASE "${dbName}"`);
    const url = new URL(POSTGRES);
    url.pathname = `/${dbName}`;
    // One DATA_DIR: instances sharing a database share the keys kept there.
    const env = {
      ...fakes.env,
      DATA_DIR: dataDir,
      DATABASE_URL: url.toString(),
      REDIS_URL: REDIS,
      ENGINE_SHARDS: String(SHARDS),
      ADMIN_EMAIL: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
    };
    // A first (schema, admin, keys), then B.
    const a = await startServer(env);
    servers.push(a);
    const b = await startServer(env);
    servers.push(b);

    const adminToken = (await api(b.url, 'POST', '/api/auth/login', undefined, ADMIN)).json.token as string;
    const engineView = async (server: ServerProcess) =>
      (await api(server.url, 'GET', '/api/admin/engine', adminToken)).json as unknown as EngineInstancesResponse;
    // Both take their fair share: A held all four alone, drained two and let them go, and B took them.
    const split = await poll('two instances holding two shards each', async () => {
      const view = await engineView(b);
      const held = view.instances.map((i) => i.shards.length);
      return view.instances.length === 2 && held.every((n) => n === SHARDS / 2) && view.unheld.length === 0
        ? view
        : null;
    });
    expect(split.shardCount).toBe(SHARDS);
    const bId = split.instances.find((i) => i.self)!.id;
    const aShards = new Set(split.instances.find((i) => i.id !== bId)!.shards);

    // Traders until each instance trades at least two of them.
    const traders: Trader[] = [];
    const onA = () => traders.filter((t) => aShards.has(t.shard)).length;
    for (let i = 0; i < MAX_USERS && (traders.length < 6 || onA() < 2 || traders.length - onA() < 2); i += 1) {
      const who = { username: `trader${i}@shards.test`, password: `trader-${i}-password` };
      const created = await api(b.url, 'POST', '/api/admin/users', adminToken, {
        username: `trader${i}`,
        email: who.username,
        password: who.password,
      });
      expect(created.status).toBe(201);
      // Half of them set up through each instance.
      const server = i % 2 === 0 ? a : b;
      const token = (await api(server.url, 'POST', '/api/auth/login', undefined, who)).json.token as string;
      const me = (await api(server.url, 'GET', '/api/auth/profile', token)).json.user as PublicUser;
      const keys = { binanceApiKey: keyOf(i), binanceSecretKey: SECRET, derivToken: tokenOf(i) };
      expect((await api(server.url, 'PUT', `/api/users/${me._id}/api-keys`, token, keys)).status).toBe(200);
      expect((await api(server.url, 'PUT', `/api/users/${me._id}`, token, { maxExposure: 1000 })).status).toBe(200);
      const added = await api(server.url, 'POST', '/api/exchanges/trading/add-user', token);
      expect(added.json.tradingEnabled).toBe(true);
      traders.push({ index: i, id: me._id, token, shard: shardOf(me._id, SHARDS) });
    }
    expect(onA()).toBeGreaterThanOrEqual(2);
    expect(traders.length - onA()).toBeGreaterThanOrEqual(2);

    const tradesOf = async (t: Trader) =>
      (await api(b.url, 'GET', '/api/trades?limit=20', t.token)).json.trades as Trade[];
    const allOpen = (count: number) =>
      poll(`every trader with ${count} trade(s), the newest with both legs open`, async () => {
        const lists = await Promise.all(traders.map(tradesOf));
        return lists.every((l) => l.length === count && l[0]!.legs.every((leg) => leg.status === 'open'))
          ? lists
          : null;
      });
    const allClosed = (count: number) =>
      poll(`every trader's ${count} trade(s) closed`, async () => {
        const lists = await Promise.all(traders.map(tradesOf));
        return lists.every((l) => l.length === count && l.every((t) => t.status !== 'pending')) ? lists : null;
      });
    const opensAtVenues = (t: Trader) => ({
      binance: venues.binance.orders(keyOf(t.index)).length,
      deriv: venues.deriv.contracts().filter((c) => c.loginid === loginOf(t.index)).length,
    });

    // The first dislocation: every trader trades once, each by one instance.
    premium = 0.01;
    await allOpen(1);
    for (const t of traders) expect(opensAtVenues(t)).toEqual({ binance: 1, deriv: 1 });

    // A dies with every trade open. B takes its shards within seconds and adopts A's users' open trades.
    const killedAt = Date.now();
    a.child.kill('SIGKILL');
    expect(await a.exited).toBe('SIGKILL');
    const taken = await poll(
      'B holding every shard',
      async () => {
        const view = await engineView(b);
        const mine = view.instances.find((i) => i.self);
        return mine?.shards.length === SHARDS ? view : null;
      },
      20_000,
    );
    console.log(`shards taken over ${Date.now() - killedAt} ms after the SIGKILL`);
    expect(taken.unheld).toEqual([]);

    // Convergence: every trade closes, A's users' ones by B.
    premium = 0.0001;
    const closed = await allClosed(1);
    for (const list of closed) expect(list[0]).toMatchObject({ status: 'completed', reason: 'converged' });

    // The next dislocation: every trader trades again, exactly once, all through B.
    premium = 0.01;
    await allOpen(2);
    premium = 0.0001;
    await allClosed(2);
    for (const t of traders) {
      expect(opensAtVenues(t)).toEqual({ binance: 4, deriv: 2 });
      expect(venues.binance.orders(keyOf(t.index)).map((o) => o.side)).toEqual(['BUY', 'SELL', 'BUY', 'SELL']);
      expect(venues.deriv.contracts().filter((c) => c.loginid === loginOf(t.index) && c.sold === null)).toEqual([]);
    }
    // Still two trades each: nothing opened twice.
    for (const list of await Promise.all(traders.map(tradesOf))) expect(list).toHaveLength(2);
  }, 240_000);
});
