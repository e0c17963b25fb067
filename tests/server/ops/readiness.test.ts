// Liveness and readiness as an orchestrator probes them, on the real server process in front of PostgreSQL through a
// proxy the test cuts: /readyz turns 503 with what is missing within seconds of losing the database and 200 again
// when it returns, while /healthz stays 200 and the process keeps running. Then the other readiness checks (pending
// migrations, a missing client build) on the app itself.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { committedMigrations } from '../../../server/db/migrate';
import { createTestApp } from '../helpers/app';
import { createPostgresDatabase } from '../helpers/database';
import { poll, startServer, type ServerProcess } from '../engine/server-process';
import { cuttableProxy, type CuttableProxy } from './tcp-proxy';

type Readiness = { status: string; checks: Record<string, string>; missing: string[] };

const probe = async (url: string) => {
  const res = await fetch(url);
  return { status: res.status, body: (await res.json()) as Readiness & { status: string } };
};

describe.skipIf(!process.env.TEST_POSTGRES_URL)('readiness follows PostgreSQL (a cuttable proxy in front)', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'arb-readiness-'));
  let proxy: CuttableProxy | null = null;
  let server: ServerProcess | null = null;
  let drop: (() => Promise<void>) | null = null;
  afterAll(async () => {
    if (server && server.child.exitCode === null) {
      server.child.kill('SIGKILL');
      await server.exited;
    }
    await proxy?.close();
    await drop?.();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('turns 503 within seconds of losing the database and 200 when it returns; liveness stays 200', async () => {
    const database = await createPostgresDatabase();
    drop = database.drop;
    const direct = new URL(database.url);
    proxy = await cuttableProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    const proxied = new URL(database.url);
    proxied.port = String(proxy.port);
    const client = join(scratch, 'client');
    mkdirSync(client);
    writeFileSync(join(client, 'index.html'), '<!doctype html><title>app</title>');
    server = await startServer({
      DATA_DIR: join(scratch, 'data'),
      DATABASE_URL: proxied.toString(),
      CLIENT_DIR: client,
      ADMIN_PASSWORD: 'readiness-test-password',
    });
    const ready = `${server.url}/readyz`;
    const live = `${server.url}/healthz`;
    await poll('ready', async () => (await probe(ready)).status === 200);
    expect((await probe(ready)).body).toEqual({
      status: 'ready',
      checks: { database: 'ok', migrations: 'ok', client: 'ok' },
      missing: [],
    });

    proxy.cut();
    const cutAt = Date.now();
    const down = await poll('503 after the cut', async () => {
      const answer = await probe(ready);
      return answer.status === 503 && answer;
    });
    const noticedMs = Date.now() - cutAt;
    expect(noticedMs).toBeLessThan(10_000);
    expect(down.body.status).toBe('not ready');
    expect(down.body.checks.database).toBe('unavailable');
    expect(down.body.missing[0]).toMatch(/^database: /);
    // Liveness is the process, not its database; and it stays so while the database is away.
    for (let i = 0; i < 3; i++) {
      expect((await fetch(live)).status).toBe(200);
      expect((await probe(ready)).status).toBe(503);
      await new Promise((r) => setTimeout(r, 1000));
    }

    proxy.restore();
    const backAt = Date.now();
    await poll('200 once the database is back', async () => (await probe(ready)).status === 200, 15_000);
    expect(Date.now() - backAt).toBeLessThan(10_000);
    console.log(`[readiness] 503 ${noticedMs} ms after the cut, 200 ${Date.now() - backAt} ms after the return`);

    // A database that stops answering without closing anything is noticed by the probe's timeout.
    proxy.stall();
    const stalledAt = Date.now();
    const silent = await poll('503 after the stall', async () => {
      const answer = await probe(ready);
      return answer.status === 503 && answer;
    });
    expect(Date.now() - stalledAt).toBeLessThan(10_000);
    expect(silent.body.missing[0]).toMatch(/^database: /);
    expect((await fetch(live)).status).toBe(200);
    proxy.restore();
    await poll('200 after the stall ends', async () => (await probe(ready)).status === 200, 15_000);
    expect(server.child.exitCode).toBeNull();
  }, 120_000);
});

describe('probes and metrics of the app', () => {
  it('serves no metrics without METRICS_TOKEN, not even the app shell, and answers the probes as JSON', async () => {
    const client = mkdtempSync(join(tmpdir(), 'arb-probes-client-'));
    writeFileSync(join(client, 'index.html'), '<!doctype html><title>app</title>');
    const t = await createTestApp('pglite', { build: { clientDir: client } });
    try {
      const metrics = await t.request('GET', '/metrics', { headers: { authorization: 'Bearer anything-at-all-1234' } });
      expect(metrics.statusCode).toBe(404);
      expect(metrics.headers['content-type']).toMatch(/^application\/json/);
      expect((await t.request('GET', '/some/client/route')).headers['content-type']).toMatch(/^text\/html/);
      const live = await t.request('GET', '/healthz');
      expect([live.statusCode, live.json()]).toEqual([200, { status: 'ok' }]);
      expect((await t.request('GET', '/readyz')).json()).toMatchObject({ status: 'ready' });
    } finally {
      await t.close();
      rmSync(client, { recursive: true, force: true });
    }
  }, 60_000);

  it('says which migrations and which client build are missing', async () => {
    const client = mkdtempSync(join(tmpdir(), 'arb-readiness-client-'));
    let latest: number | null = committedMigrations().at(-2)!;
    const t = await createTestApp('pglite', {
      build: {
        clientDir: client,
        probe: async () => ({ latestMigration: latest }),
      },
    });
    try {
      const first = await t.request('GET', '/readyz');
      expect(first.statusCode).toBe(503);
      expect(first.json()).toMatchObject({
        checks: { database: 'ok', migrations: 'pending', client: 'missing' },
        missing: [expect.stringMatching(/^migrations: /), `client: no build in ${client}`],
      });
      latest = committedMigrations().at(-1)!;
      writeFileSync(join(client, 'index.html'), '<!doctype html>');
      // One answer serves the probes of a second.
      await new Promise((r) => setTimeout(r, 1100));
      expect((await t.request('GET', '/readyz')).statusCode).toBe(200);
      expect((await t.request('GET', '/healthz')).json()).toEqual({ status: 'ok' });
    } finally {
      await t.close();
      rmSync(client, { recursive: true, force: true });
    }
  }, 60_000);
});
