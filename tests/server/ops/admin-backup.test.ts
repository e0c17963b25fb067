// The admin's backup download: admins only, recorded in the audit log, streamed, and the file restores to the same
// database; on PostgreSQL it answers that pg_dump is the way.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../server/app';
import { loadConfig } from '../../../server/config';
import { openSnapshot } from '../../../server/db/pglite-snapshot';
import { POSTGRES_BACKUP_MESSAGE } from '../../../server/http/backup';
import { BackupBusyError, backupGate } from '../../../server/ops/backup/gate';
import { bootstrapAdmin } from '../../../server/process/first-admin';
import { createTestApp } from '../helpers/app';
import { poll } from '../engine/server-process';
import { openTestDatabase, type TestDatabase } from '../helpers/database';

const ADMIN = { username: 'admin@download.test', password: 'download-test-password' };

describe('GET /api/admin/backup on the embedded database', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'arb-download-'));
  let database: TestDatabase;
  let app: FastifyInstance;
  let admin: string;
  let user: string;

  beforeAll(async () => {
    database = await openTestDatabase('pglite', dataDir);
    const config = loadConfig({
      DATA_DIR: dataDir,
      ADMIN_EMAIL: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      ENGINE: 'off',
      LOG_LEVEL: 'silent',
    });
    await bootstrapAdmin(database.db, config);
    app = await buildApp({ config, db: database.db, backups: backupGate(database.snapshot!) });
    const login = async (body: object) =>
      (await app.inject({ method: 'POST', url: '/api/auth/login', payload: body })).json<{ token: string }>().token;
    admin = await login(ADMIN);
    const created = await app.inject({
      method: 'POST',
      url: '/api/admin/users',
      headers: { authorization: `Bearer ${admin}` },
      payload: { username: 'plain', email: 'plain@download.test', password: 'plain-password-1', role: 'user' },
    });
    expect(created.statusCode).toBe(201);
    user = await login({ username: 'plain', password: 'plain-password-1' });
  }, 120_000);

  afterAll(async () => {
    await app.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const download = (token?: string) =>
    app.inject({ method: 'GET', url: '/api/admin/backup', headers: token ? { authorization: `Bearer ${token}` } : {} });

  it('takes one backup at a time; one broken off frees the way and leaves no copy behind', async () => {
    const gate = backupGate(database.snapshot!);
    const first = await gate.take();
    await expect(gate.take()).rejects.toBeInstanceOf(BackupBusyError);
    const staging = join(dataDir, 'backups');
    expect(readdirSync(staging).some((name) => name.startsWith('.staging-'))).toBe(true);
    first.destroy();
    await new Promise((r) => first.once('close', r));
    await poll('the copy removed', async () => readdirSync(staging).length === 0);
    const second = await gate.take();
    let bytes = 0;
    for await (const chunk of second) bytes += (chunk as Buffer).length;
    expect(bytes).toBeGreaterThan(1_000_000);
    await poll('the copy removed', async () => readdirSync(staging).length === 0);
  }, 60_000);

  it('refuses anyone but an admin', async () => {
    expect((await download()).statusCode).toBe(401);
    const refused = await download(user);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ message: 'Admin access required' });
  });

  it('streams a backup that restores to the same accounts, and records who took it', async () => {
    const res = await download(admin);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/gzip');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="arbitrage-backup-\d{8}T\d{6}Z\.tar\.gz"$/,
    );
    const file = join(dataDir, 'downloaded.tar.gz');
    writeFileSync(file, res.rawPayload);
    const copy = await openSnapshot(file, join(dataDir, 'restored'));
    try {
      const { rows } = await copy.query<{ username: string }>('SELECT username FROM users ORDER BY username');
      expect(rows.map((r) => r.username)).toEqual(['admin', 'plain']);
    } finally {
      await copy.close();
    }
    const audit = await app.inject({
      method: 'GET',
      url: '/api/admin/audit?action=backup_downloaded',
      headers: { authorization: `Bearer ${admin}` },
    });
    const events = audit.json<{ events: Array<{ actorName: string; details: { file: string } }> }>().events;
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      actorName: 'admin',
      details: { file: expect.stringMatching(/^arbitrage-backup-/) },
    });
  }, 60_000);
});

describe('GET /api/admin/backup without an embedded database', () => {
  it('tells the admin to use pg_dump', async () => {
    const t = await createTestApp(process.env.TEST_POSTGRES_URL ? 'postgres' : 'pglite');
    try {
      const res = await t.request('GET', '/api/admin/backup', { token: t.admin.token });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ message: POSTGRES_BACKUP_MESSAGE });
    } finally {
      await t.close();
    }
  }, 60_000);
});
