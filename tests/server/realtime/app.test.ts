// The gateway on the real app: real sign-ins, the core's token check, revocation through the API, logs in the app's
// own logger. Built here rather than with createTestApp, because the gateway must attach before the app is ready.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join as joinPath } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Subject } from 'rxjs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { userRoom } from '../../../contract';
import type { PublicUser } from '../../../contract';
import { buildApp } from '../../../server/app';
import { loadConfig } from '../../../server/config';
import type { EngineEvent } from '../../../server/engine/events';
import { bootstrapAdmin } from '../../../server/process/first-admin';
import { attachRealtimeToApp, ROOM_REFUSED, UNAUTHORIZED } from '../../../server/realtime';
import { backends, openTestDatabase } from '../helpers/database';
import type { Backend, TestDatabase } from '../helpers/database';
import { client, closeClients, collect, connected, join, next, refusal, trade } from './harness';
import type { TestClient } from './harness';

const ADMIN = { email: 'admin@example.test', password: 'admin-password-for-realtime' };

interface Session {
  user: PublicUser;
  token: string;
}

describe.each(backends)('realtime gateway on the real app (%s)', (backend: Backend) => {
  let app: FastifyInstance;
  let database: TestDatabase;
  let dataDir: string;
  let url: string;
  const logs: string[] = [];
  const events = new Subject<EngineEvent>();

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, token?: string, body?: object) =>
    app.inject({
      method,
      url: path,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      ...(body ? { payload: body } : {}),
    });

  async function signIn(username: string, password: string): Promise<Session> {
    const res = await call('POST', '/api/auth/login', undefined, { username, password });
    expect(res.statusCode).toBe(200);
    return res.json() as Session;
  }

  let admin: Session;
  let counter = 0;
  async function newUser(): Promise<Session> {
    const username = `rt${++counter}_${process.pid}`;
    const res = await call('POST', '/api/admin/users', admin.token, {
      username,
      email: `${username}@example.test`,
      password: 'user-password-123',
      role: 'user',
    });
    expect(res.statusCode).toBe(201);
    return signIn(username, 'user-password-123');
  }

  async function socketOf(session: Session, joinOwn = true): Promise<TestClient> {
    const socket = client(url, { token: session.token });
    await connected(socket);
    if (joinOwn) expect(await join(socket, userRoom(session.user._id))).toEqual({ ok: true });
    return socket;
  }

  const disconnectReason = (socket: TestClient) => new Promise((resolve) => socket.once('disconnect', resolve));

  beforeAll(async () => {
    dataDir = mkdtempSync(joinPath(tmpdir(), 'arb-realtime-'));
    database = await openTestDatabase(backend, dataDir);
    const config = loadConfig({
      DATA_DIR: dataDir,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'info',
      ENGINE: 'off',
      HOST: '127.0.0.1',
      ...(database.url ? { DATABASE_URL: database.url } : {}),
    });
    await bootstrapAdmin(database.db, config);
    app = await buildApp({ config, db: database.db, logSink: { write: (line) => void logs.push(line) } });
    attachRealtimeToApp(app, events);
    url = await app.listen({ host: '127.0.0.1', port: 0 });
    admin = await signIn(ADMIN.email, ADMIN.password);
  });
  afterEach(() => closeClients());
  afterAll(async () => {
    await app?.close();
    await database?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('connects with a token from sign-in and refuses a made-up one', async () => {
    const alice = await newUser();
    await socketOf(alice);
    expect(await refusal(client(url, { token: `${alice.token}x` }))).toBe(UNAUTHORIZED);
    expect(await refusal(client(url, { token: 'not-a-jwt' }))).toBe(UNAUTHORIZED);
    expect(await refusal(client(url))).toBe(UNAUTHORIZED);
  });

  it("refuses another user's room and logs who asked for which room", async () => {
    const alice = await newUser();
    const bob = await newUser();
    const socket = await socketOf(alice, false);
    expect(await join(socket, userRoom(bob.user._id))).toEqual({ ok: false, message: ROOM_REFUSED });
    const refusalLog = logs
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((entry) => entry.room === userRoom(bob.user._id));
    expect(refusalLog).toMatchObject({ userId: alice.user._id, action: 'join', msg: 'realtime: room request refused' });
  });

  it("delivers a user's trade to that user only", async () => {
    const alice = await newUser();
    const bob = await newUser();
    const aliceSocket = await socketOf(alice);
    const bobSocket = await socketOf(bob);
    const bobTrades = collect(bobSocket, 'new_trade');
    const arrived = next(aliceSocket, 'new_trade');
    const bobLater = next(bobSocket, 'trade_updated');
    events.next({ type: 'new_trade', userId: alice.user._id, trade: trade(alice.user._id, 'app-1') });
    events.next({ type: 'trade_updated', userId: bob.user._id, trade: trade(bob.user._id, 'app-2') });
    expect((await arrived).tradeId).toBe('app-1');
    expect((await bobLater).tradeId).toBe('app-2');
    expect(bobTrades).toEqual([]);
  });

  it('disconnects the socket of a session that signs out, and keeps the other sessions', async () => {
    const alice = await newUser();
    const second = await signIn(alice.user.username, 'user-password-123');
    const leaving = await socketOf(alice);
    const staying = await socketOf(second);
    const reason = disconnectReason(leaving);
    expect((await call('POST', '/api/auth/logout', alice.token)).statusCode).toBe(200);
    expect(await reason).toBe('io server disconnect');
    // The other session's token still verifies, so its socket stays and is still served.
    await new Promise<void>((resolve) => staying.emit('join_room', userRoom(alice.user._id), () => resolve()));
    expect(staying.connected).toBe(true);
    expect(await refusal(client(url, { token: alice.token }))).toBe(UNAUTHORIZED);
  });

  it('disconnects every socket of a user an admin deactivates', async () => {
    const carol = await newUser();
    const socket = await socketOf(carol);
    const reason = disconnectReason(socket);
    expect((await call('PUT', `/api/admin/users/${carol.user._id}/toggle-active`, admin.token)).statusCode).toBe(200);
    expect(await reason).toBe('io server disconnect');
    expect(await refusal(client(url, { token: carol.token }))).toBe(UNAUTHORIZED);
  });
});
