// Scale-out with the real server: two server processes on one PostgreSQL database and the local Redis. The
// engine runs on instance A only (B has ENGINE=off); a client signed in and connected to B receives A's price
// updates and A's trade events for its own user, which reach B only through the Redis adapter.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { userRoom } from '../../../contract';
import { api, startServer } from '../engine/server-process';
import type { ServerProcess } from '../engine/server-process';
import { client, closeClients, connected, join as joinRoom, next } from './harness';

const POSTGRES = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const ADMIN = { username: 'admin@example.test', password: 'admin-password-for-scale-out' };

async function onPostgres(sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: POSTGRES });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

describe('two real server processes sharing PostgreSQL and Redis', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'arb-scale-'));
  const dbName = `realtime_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const servers: ServerProcess[] = [];

  afterAll(async () => {
    closeClients();
    await Promise.all(
      servers.map(async (server) => {
        if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGTERM');
        await server.exited;
      }),
    );
    await onPostgres(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("delivers the engine instance's prices and trades to a client of the API-only instance", async () => {
    await onPostgres(`CREATE DATABASE "${dbName}"`);
    const url = new URL(POSTGRES);
    url.pathname = `/${dbName}`;
    // One DATA_DIR for both: instances that share a database must share the token signing key kept there.
    const shared = {
      DATA_DIR: dataDir,
      DATABASE_URL: url.toString(),
      REDIS_URL: REDIS,
      MARKET: 'sim',
      SIM_SEED: '777',
      TRADE_MAX_HOLD_MS: '4000',
      ADMIN_EMAIL: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
    };
    // A first: it creates the schema, the admin and the keys; then B joins.
    servers.push(await startServer({ ...shared, ENGINE: 'on' }, { dislocating: true }));
    const apiOnly = await startServer({ ...shared, ENGINE: 'off' });
    servers.push(apiOnly);

    const login = await api(apiOnly.url, 'POST', '/api/auth/login', undefined, ADMIN);
    expect(login.status).toBe(200);
    const token = login.json.token as string;
    const userId = (login.json.user as { _id: string })._id;

    const socket = client(apiOnly.url, { token });
    await connected(socket);
    expect(await joinRoom(socket, userRoom(userId))).toEqual({ ok: true });

    const price = await next(socket, 'priceUpdate');
    expect(['BTC/USDT', 'ETH/USDT']).toContain(price.symbol);
    expect(price.binance).toBeGreaterThan(0);

    // Trading enabled through B; A's engine picks the user up from the database and opens a trade.
    const trade = next(socket, 'new_trade');
    expect((await api(apiOnly.url, 'POST', '/api/exchanges/trading/add-user', token)).json.tradingEnabled).toBe(true);
    const opened = await trade;
    expect(opened.userId).toBe(userId);
    expect(opened.status).toBe('pending');
    await api(apiOnly.url, 'POST', '/api/exchanges/trading/remove-user', token);
  }, 120_000);
});
