// A socket lives as long as its token: with a short TOKEN_TTL it is dropped when the token expires (when REST starts
// answering 401), not at the next minute's revalidation round.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join as joinPath } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../server/app';
import { loadConfig } from '../../../server/config';
import { bootstrapAdmin } from '../../../server/process/first-admin';
import { attachRealtimeToApp } from '../../../server/realtime';
import { openTestDatabase, type TestDatabase } from '../helpers/database';
import { client, closeClients, connected } from './harness';

const ADMIN = { email: 'admin@example.test', password: 'admin-password-for-expiry' };
const TTL_SECONDS = 2;

describe('socket of an expiring token', () => {
  let app: FastifyInstance;
  let database: TestDatabase;
  let dataDir: string;
  let url: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(joinPath(tmpdir(), 'arb-expiry-'));
    database = await openTestDatabase('pglite', dataDir);
    const config = loadConfig({
      DATA_DIR: dataDir,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'silent',
      ENGINE: 'off',
      TOKEN_TTL: `${TTL_SECONDS}s`,
    });
    await bootstrapAdmin(database.db, config);
    app = await buildApp({ config, db: database.db });
    attachRealtimeToApp(app);
    url = await app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    closeClients();
    await app?.close();
    await database?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('is disconnected by the server when the token expires, as REST refuses the token', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: ADMIN.email, password: ADMIN.password },
    });
    const { token } = res.json() as { token: string };
    const expiresAt =
      (JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as { exp: number }).exp * 1000;
    const socket = client(url, { token });
    await connected(socket);
    const reason = await new Promise<string>((resolve) => socket.once('disconnect', resolve));
    const droppedAt = Date.now();
    expect(reason).toBe('io server disconnect');
    // Not before the token expired, and long before the minute's revalidation round would have caught it.
    expect(droppedAt).toBeGreaterThanOrEqual(expiresAt);
    expect(droppedAt - expiresAt).toBeLessThan(5_000);
    const rest = await app.inject({
      method: 'GET',
      url: '/api/auth/profile',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(rest.statusCode).toBe(401);
  }, 30_000);
});
