// The real server process records the market it runs: samples appear in GET /api/exchanges/spreads, a graceful
// restart keeps them, the engine's books are recorded beside them for backtests, and GET /api/meta names the market.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { MetaResponse, SpreadsResponse } from '../../../contract/api';
import type { BacktestResponse } from '../../../contract/backtest';
import { backends } from '../helpers/app';
import { createPostgresDatabase } from '../helpers/database';
import { copyPgliteTemplate } from '../helpers/pglite-template';
import { api, startServer, type ServerProcess } from '../engine/server-process';

const ADMIN = { username: 'admin@history.test', password: 'history-test-password' };

const poll = async <T>(what: string, fn: () => Promise<T | null>, withinMs = 30_000): Promise<T> => {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const value = await fn();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

describe.each(backends)('spread history of the real server on %s', (backend) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'arb-history-'));
  let pgDrop: (() => Promise<void>) | null = null;
  let server: ServerProcess | null = null;

  afterAll(async () => {
    if (server && server.child.exitCode === null) {
      server.child.kill('SIGKILL');
      await server.exited;
    }
    await pgDrop?.();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('records one sample a second and keeps it across a graceful restart', async () => {
    const env: Record<string, string> = {
      DATA_DIR: dataDir,
      MARKET: 'sim',
      SIM_SEED: '99',
      ADMIN_EMAIL: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
    };
    if (backend === 'postgres') {
      const pgdb = await createPostgresDatabase();
      env.DATABASE_URL = pgdb.url;
      pgDrop = pgdb.drop;
    } else {
      // The recording is under test, not the first start: a migrated copy instead of creating the database.
      await copyPgliteTemplate(dataDir);
    }
    const started = new Date(Date.now() - 1000).toISOString();
    server = await startServer(env);
    const signIn = async (base: string) =>
      (await api(base, 'POST', '/api/auth/login', undefined, ADMIN)).json.token as string;
    let token = await signIn(server.url);

    const meta = await api(server.url, 'GET', '/api/meta', token);
    expect((meta.json as unknown as MetaResponse).market).toMatchObject({ kind: 'sim', simProfile: 'calibrated' });

    const spreads = async (base: string) => {
      const res = await api(
        base,
        'GET',
        `/api/exchanges/spreads?symbol=ETH%2FUSDT&from=${started}&to=${new Date(Date.now() + 60_000).toISOString()}`,
        token,
      );
      expect(res.status).toBe(200);
      return (res.json as unknown as SpreadsResponse).series;
    };
    // The recorder writes every few seconds; wait for the first batch.
    const first = await poll('recorded samples', async () => {
      const s = await spreads(server!.url);
      return s.points.length >= 2 ? s : null;
    });
    expect(first.resolutionSeconds).toBe(1);
    for (const [i, p] of first.points.entries()) {
      expect(p.t % 1000).toBe(0);
      if (i > 0) expect(p.t).toBeGreaterThan(first.points[i - 1]!.t);
      expect(Math.abs(p.spread)).toBeLessThan(0.01);
      expect(p.spread).toBeCloseTo((p.deriv - p.binance) / p.binance, 12);
    }

    const stoppedAt = Date.now();
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe('0');
    server = await startServer(env);
    token = await signIn(server.url);
    const after = await spreads(server.url);
    // Everything from before the restart is still there...
    expect(after.points.slice(0, first.points.length)).toEqual(first.points);
    // ...with no second missing between the first sample and the shutdown (a second or two of slack at the edges:
    // the last open second, the batch in flight). That stopping writes what is still held: recorder.test.ts.
    const beforeStop = after.points.filter((p) => p.t < stoppedAt);
    expect(beforeStop.length).toBeGreaterThanOrEqual(Math.floor((stoppedAt - first.points[0]!.t) / 1000) - 2);

    // The engine's books were recorded beside the mids (at least one tick a second per symbol) and a backtest replays
    // them.
    const backtest = await api(server.url, 'POST', '/api/backtest', token, {
      symbol: 'ETH/USDT',
      from: started,
      to: new Date(stoppedAt).toISOString(),
      minSpread: 0.002,
      maxExposure: 1000,
      maxLoss: 100,
    });
    expect(backtest.status).toBe(200);
    const { replayed } = (backtest.json as unknown as BacktestResponse).backtest;
    expect(replayed.source).not.toBe('mids');
    expect(replayed.bookTicks).toBeGreaterThanOrEqual(beforeStop.length - 2);
  }, 120_000);
});
