// Backups of the embedded database, as an operator takes them: `npm run backup` while the real server trades (it asks
// the server, which holds the database), `npm run restore` into a fresh DATA_DIR, and the restored database holds
// the same users, settings, credentials, audit log and trades as the original at the time of the backup. A restore
// refuses a DATA_DIR that holds a database, a damaged file, and a DATA_DIR a server holds; a second server on one
// DATA_DIR is refused too.
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asc } from 'drizzle-orm';
import { create as packTar } from 'tar';
import { afterAll, describe, expect, it, onTestFailed } from 'vitest';
import { openDatabase, type Database } from '../../../server/db/client';
import { auditEvents, trades, users, venueCredentials } from '../../../server/db/schema';
import { ENCRYPTION_KEY_FILE } from '../../../server/security/secrets';
import { api, poll, processRun, startServer, type ServerProcess } from '../engine/server-process';
import { runCli } from './cli';

const ADMIN = { username: 'admin@backup.test', password: 'backup-test-password' };
const TRADER = { username: 'trader', email: 'trader@backup.test', password: 'trader-password-1' };
const SETTINGS = { maxExposure: 2500, minSpread: 0.0015, maxLoss: 75 };

type Listed = { _id: string; tradeId: string; status: string; createdAt: string };

async function readAll(database: Database) {
  const { db } = database;
  return {
    users: await db.select().from(users).orderBy(asc(users.createdAt)),
    credentials: await db.select().from(venueCredentials),
    audit: await db.select().from(auditEvents).orderBy(asc(auditEvents.id)),
    trades: await db.select().from(trades).orderBy(asc(trades.createdAt)),
  };
}

describe('backup and restore of the embedded database', () => {
  const run = processRun('arb-backup-');
  const scratch = mkdtempSync(join(tmpdir(), 'arb-backup-files-'));
  let server: ServerProcess | null = null;
  afterAll(async () => {
    await run.cleanup();
    rmSync(scratch, { recursive: true, force: true });
  });
  const env = {
    DATA_DIR: run.dataDir,
    DATABASE_URL: '',
    MARKET: 'sim',
    SIM_SEED: '2025',
    TRADE_MAX_HOLD_MS: '3000',
    ADMIN_EMAIL: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
  };
  const file = join(scratch, 'while-trading.tar.gz');
  let tradesBefore: Listed[] = [];
  let backupStartedAt = 0;

  it('backs up the running server while it trades, through the server', async () => {
    server = run.server = await startServer(env, { dislocating: true });
    // A server that stops answering mid-test says why in its own output.
    const started = server;
    onTestFailed(() => console.error(`the server's output:\n${started.output()}`));
    const admin = (await api(server.url, 'POST', '/api/auth/login', undefined, ADMIN)).json.token as string;
    // A second account with its own settings and (encrypted) venue keys, created and changed through the API, so the
    // audit log holds its story too.
    const created = await api(server.url, 'POST', '/api/admin/users', admin, {
      username: TRADER.username,
      email: TRADER.email,
      password: TRADER.password,
      role: 'user',
    });
    expect(created.status).toBe(201);
    const traderId = (created.json.user as { _id: string })._id;
    const trader = (await api(server.url, 'POST', '/api/auth/login', undefined, TRADER)).json.token as string;
    expect((await api(server.url, 'PUT', `/api/users/${traderId}`, trader, SETTINGS)).status).toBe(200);
    const keys = { binanceApiKey: 'binanceKeyForBackupTest', derivToken: 'deriv-token-for-backup' };
    expect((await api(server.url, 'PUT', `/api/users/${traderId}/api-keys`, trader, keys)).status).toBe(200);

    // The admin trades; the backup is taken once trades have finished and while another is open.
    expect((await api(server.url, 'POST', '/api/exchanges/trading/add-user', admin)).json.tradingEnabled).toBe(true);
    const list = async () => (await api(server!.url, 'GET', '/api/trades?limit=100', admin)).json.trades as Listed[];
    await poll(
      'finished trades and an open one',
      async () => {
        const all = await list();
        return all.filter((t) => t.status !== 'pending').length >= 2 && all.some((t) => t.status === 'pending');
      },
      90_000,
    );
    tradesBefore = await list();
    backupStartedAt = Date.now();
    const backup = await runCli('backup', [file], env);
    expect(backup.stderr).toBe('');
    expect(backup.code).toBe(0);
    expect(backup.stdout).toMatch(
      /Backup written to .*while-trading\.tar\.gz: [\d.]+ MB in [\d.]+ s, from the running server/,
    );
    expect(backup.stdout).toContain(ENCRYPTION_KEY_FILE);

    // The server went on trading and answering.
    const after = await poll('a trade opened after the backup', async () =>
      (await list()).find((t) => !tradesBefore.some((b) => b._id === t._id)),
    );
    expect(after).toBeDefined();
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe('0');
  }, 180_000);

  it('restores it into a fresh DATA_DIR with the same users, settings, credentials, audit log and trades', async () => {
    const fresh = join(scratch, 'fresh');
    const restore = await runCli('restore', [file], { ...env, DATA_DIR: fresh });
    expect(restore.code, restore.stderr).toBe(0);
    expect(restore.stdout).toMatch(/Restored .* \d+ users, \d+ trades, \d+ audit events/);
    // No key came with it: the operator is told to bring the old one.
    expect(restore.stdout).toContain(`WARNING: no encryption key yet`);

    const original = await openDatabase({ dataDir: run.dataDir, databaseUrl: undefined });
    const restored = await openDatabase({ dataDir: fresh, databaseUrl: undefined });
    try {
      const [was, is] = [await readAll(original), await readAll(restored)];
      // Nothing changed users, their settings or their keys after the backup.
      expect(is.users).toEqual(was.users);
      const trader = is.users.find((u) => u.username === TRADER.username)!;
      expect([Number(trader.maxExposure), Number(trader.minSpread), Number(trader.maxLoss)]).toEqual([
        SETTINGS.maxExposure,
        SETTINGS.minSpread,
        SETTINGS.maxLoss,
      ]);
      expect(is.credentials).toEqual(was.credentials);
      expect(is.credentials[0]?.binanceApiKeyEnc).toBeTruthy();
      // The audit log is append-only: the backup holds exactly its events up to the backup.
      expect(is.audit.length).toBeGreaterThan(0);
      expect(is.audit).toEqual(was.audit.slice(0, is.audit.length));
      expect(was.audit.slice(is.audit.length).every((e) => e.at.getTime() >= backupStartedAt)).toBe(true);
      // Every trade recorded before the backup is in it; a finished one exactly as it finished.
      const restoredById = new Map(is.trades.map((t) => [t.id, t]));
      for (const before of tradesBefore) expect(restoredById.has(before._id), before.tradeId).toBe(true);
      const originalById = new Map(was.trades.map((t) => [t.id, t]));
      for (const t of is.trades) {
        const now = originalById.get(t.id);
        expect(now, t.tradeId).toBeDefined();
        if (t.status !== 'pending') expect(t).toEqual(now);
      }
    } finally {
      await original.close();
      await restored.close();
    }

    // With the old key put beside it first, the restore says the key decrypts the saved secrets; and a server on the
    // restored DATA_DIR signs the trader in and serves the same trades.
    const withKey = join(scratch, 'with-key');
    mkdirSync(withKey, { mode: 0o700 });
    copyFileSync(join(run.dataDir, ENCRYPTION_KEY_FILE), join(withKey, ENCRYPTION_KEY_FILE));
    const keyed = await runCli('restore', [file], { ...env, DATA_DIR: withKey });
    expect(keyed.code, keyed.stderr).toBe(0);
    expect(keyed.stdout).toContain(`The encryption key in ${join(withKey, ENCRYPTION_KEY_FILE)} decrypts`);

    const revived = await startServer({ ...env, DATA_DIR: withKey, ENGINE: 'off' });
    try {
      const admin = await api(revived.url, 'POST', '/api/auth/login', undefined, ADMIN);
      expect(admin.status).toBe(200);
      const listed = await api(revived.url, 'GET', '/api/trades?limit=100', admin.json.token as string);
      const ids = (listed.json.trades as Listed[]).map((t) => t._id);
      for (const before of tradesBefore) expect(ids).toContain(before._id);
      expect((await api(revived.url, 'POST', '/api/auth/login', undefined, TRADER)).status).toBe(200);
    } finally {
      revived.child.kill('SIGTERM');
      await revived.exited;
    }
  }, 180_000);

  it('refuses a DATA_DIR that holds a database, and leaves it as it was', async () => {
    const before = readdirSync(join(run.dataDir, 'db')).sort();
    const refused = await runCli('restore', [file], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`${run.dataDir} already holds a database`);
    expect(readdirSync(join(run.dataDir, 'db')).sort()).toEqual(before);
    expect(readdirSync(run.dataDir).some((name) => name.startsWith('db.restoring'))).toBe(false);
  });

  it('refuses a file that is not a whole backup, leaving no database behind', async () => {
    const target = join(scratch, 'from-junk');
    mkdirSync(join(scratch, 'other'));
    writeFileSync(join(scratch, 'other', 'notes.txt'), 'some other archive');
    await packTar({ gzip: true, cwd: join(scratch, 'other'), file: join(scratch, 'other.tar.gz') }, ['notes.txt']);
    const cases: Array<[string, Buffer | null, string]> = [
      ['junk.tar.gz', Buffer.from('not a backup'), 'it is not gzip-compressed'],
      ['cut.tar.gz', readFileSync(file).subarray(0, 200_000), 'it is truncated or damaged'],
      ['other.tar.gz', null, 'it holds no PostgreSQL data directory'],
    ];
    for (const [name, bytes, why] of cases) {
      if (bytes) writeFileSync(join(scratch, name), bytes);
      const refused = await runCli('restore', [join(scratch, name)], { ...env, DATA_DIR: target });
      expect(refused.code, name).toBe(1);
      expect(refused.stderr).toContain(`is not a backup of this app's embedded database: ${why}`);
      expect(readdirSync(target)).toEqual([]);
    }
  });

  it('lets one server at a time open the database', async () => {
    server = run.server = await startServer(env);
    const second = await startServer(env).then(
      (s) => s,
      (error: Error) => error,
    );
    expect(second).toBeInstanceOf(Error);
    expect((second as Error).message).toContain(`DATA_DIR ${run.dataDir} is in use by a running server`);
    // The first one serves on, and answers a backup.
    const again = await runCli('backup', [join(scratch, 'again.tar.gz')], env);
    expect(again.stdout).toContain('from the running server');
    server.child.kill('SIGTERM');
    await server.exited;
  }, 120_000);
});
