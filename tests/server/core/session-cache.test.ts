// Sessions remembered between requests: the pure cache's rules, then the real app on both backends proving that the
// cache serves requests and that only the database's announcements (or this instance's own revocations) keep it
// honest — across a second instance too.
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../server/app';
import type { AuthChangeFeed, AuthChangeListener } from '../../../server/db/auth-changes';
import { openDatabase, type Database } from '../../../server/db/client';
import { sessions, users } from '../../../server/db/schema';
import { createSessionCache, type CachedSession } from '../../../server/http/plugins/session-cache';
import { backends, createTestApp, type TestApp } from '../helpers/app';

const session = (over: Partial<CachedSession> = {}): CachedSession => ({
  userId: 'u1',
  role: 'user',
  sessionId: 's1',
  expiresAt: 10_000,
  ...over,
});

describe('session cache', () => {
  it('serves nothing until enabled, and forgets everything when disabled', () => {
    const cache = createSessionCache({ now: () => 0 });
    cache.put(cache.generation(), session());
    expect(cache.get('s1', 'u1')).toBeUndefined();
    cache.setEnabled(true);
    cache.put(cache.generation(), session());
    expect(cache.get('s1', 'u1')).toEqual(session());
    cache.setEnabled(false);
    expect(cache.get('s1', 'u1')).toBeUndefined();
    cache.setEnabled(true);
    expect(cache.get('s1', 'u1')).toBeUndefined();
  });

  it('never stores a read that began before a change of any user', () => {
    const cache = createSessionCache({ now: () => 0 });
    cache.setEnabled(true);
    const before = cache.generation();
    cache.forgetUser('u1');
    cache.put(before, session());
    expect(cache.get('s1', 'u1')).toBeUndefined();
  });

  it('forgets only the changed user, and refuses another user id, an expired session or an old entry', () => {
    let now = 0;
    const cache = createSessionCache({ now: () => now, maxAgeMs: 1_000 });
    cache.setEnabled(true);
    cache.put(cache.generation(), session());
    cache.put(cache.generation(), session({ userId: 'u2', sessionId: 's2' }));
    cache.forgetUser('u1');
    expect(cache.get('s1', 'u1')).toBeUndefined();
    expect(cache.get('s2', 'u2')?.userId).toBe('u2');
    expect(cache.get('s2', 'u1')).toBeUndefined();
    now = 1_001;
    expect(cache.get('s2', 'u2')).toBeUndefined();
    cache.put(cache.generation(), session({ expiresAt: 1_500 }));
    now = 1_500;
    expect(cache.get('s1', 'u1')).toBeUndefined();
  });

  it('holds at most maxEntries, dropping the oldest', () => {
    const cache = createSessionCache({ now: () => 0, maxEntries: 2 });
    cache.setEnabled(true);
    for (const id of ['a', 'b', 'c']) cache.put(cache.generation(), session({ sessionId: id }));
    expect(cache.size).toBe(2);
    expect(cache.get('a', 'u1')).toBeUndefined();
    expect(cache.get('c', 'u1')).toBeDefined();
  });
});

/** The real feed, with announcements held back until released: shows what the cache would do without them. */
function heldFeed(real: AuthChangeFeed) {
  const held: string[] = [];
  let listener: AuthChangeListener | null = null;
  let hold = true;
  const feed: AuthChangeFeed = {
    get isLive() {
      return real.isLive;
    },
    subscribe(l) {
      listener = l;
      return real.subscribe({ ...l, changed: (userId) => (hold ? held.push(userId) : l.changed(userId)) });
    },
    close: () => real.close(),
  };
  return {
    feed,
    /** Resolves once the database's announcement for this user has arrived (held or not). */
    heard: (userId: string) =>
      new Promise<void>((resolve) => {
        if (held.includes(userId)) return resolve();
        const off = real.subscribe({
          changed: (u) => u === userId && (off(), resolve()),
          lost: () => undefined,
          live: () => undefined,
        });
      }),
    release() {
      hold = false;
      for (const userId of held.splice(0)) listener?.changed(userId);
    },
    lose: () => listener?.lost(),
    holdAgain: () => (hold = true),
  };
}

describe.each(backends)('cached session checks on %s', (backend) => {
  let t: TestApp;
  let control: ReturnType<typeof heldFeed>;
  beforeAll(async () => {
    t = await createTestApp(backend, { wrapAuthChanges: (real) => (control = heldFeed(real)).feed });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers from the cache until the database announces the change, then refuses at once', async () => {
    const u = await t.createUser();
    expect((await t.request('GET', '/api/auth/profile', { token: u.token })).statusCode).toBe(200);
    control.holdAgain();
    const heard = control.heard(u.user._id);
    await t.db.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.userId, u.user._id));
    await heard;
    // Held back, the announcement has not reached the cache: the remembered session still answers (so it is cached)…
    expect((await t.request('GET', '/api/auth/profile', { token: u.token })).statusCode).toBe(200);
    control.release();
    // …and once it arrives, the very next request is refused.
    expect((await t.request('GET', '/api/auth/profile', { token: u.token })).statusCode).toBe(401);
  });

  it("this instance's own logout and deactivation refuse the next request without waiting for the announcement", async () => {
    control.holdAgain();
    const a = await t.createUser();
    expect((await t.request('GET', '/api/auth/profile', { token: a.token })).statusCode).toBe(200);
    expect((await t.request('POST', '/api/auth/logout', { token: a.token })).statusCode).toBe(200);
    expect((await t.request('GET', '/api/auth/profile', { token: a.token })).statusCode).toBe(401);

    const b = await t.createUser();
    expect((await t.request('GET', '/api/auth/profile', { token: b.token })).statusCode).toBe(200);
    expect(
      (await t.request('PUT', `/api/admin/users/${b.user._id}/toggle-active`, { token: t.admin.token })).statusCode,
    ).toBe(200);
    expect((await t.request('GET', '/api/auth/profile', { token: b.token })).statusCode).toBe(401);
    control.release();
  });

  it('a lost feed stops the cache at once: the database decides again', async () => {
    control.holdAgain();
    const u = await t.createUser();
    expect((await t.request('GET', '/api/auth/profile', { token: u.token })).statusCode).toBe(200);
    await t.db.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.userId, u.user._id));
    control.lose();
    expect((await t.request('GET', '/api/auth/profile', { token: u.token })).statusCode).toBe(401);
    control.release();
  });

  it('admin rights are read from the database on every admin call, whatever the cache holds', async () => {
    control.holdAgain();
    const u = await t.createUser({ role: 'admin' });
    expect((await t.request('GET', '/api/admin/users', { token: u.token })).statusCode).toBe(200);
    await t.db.update(users).set({ role: 'user' }).where(eq(users.id, u.user._id));
    expect((await t.request('GET', '/api/admin/users', { token: u.token })).statusCode).toBe(403);
    control.release();
  });
});

describe.each(backends)('a second instance on %s', (backend) => {
  let t: TestApp;
  let other: { app: FastifyInstance; database: Database | null };
  beforeAll(async () => {
    t = await createTestApp(backend);
    // PostgreSQL: a second pool and listening connection, as another process would have. PGlite lives in one process,
    // so the second instance shares it (and its feed).
    const database =
      backend === 'postgres' ? await openDatabase({ dataDir: t.dataDir, databaseUrl: t.database.url }) : null;
    const db = database?.db ?? t.db;
    const feed = await (database ?? t.database).authChanges();
    other = { app: await buildApp({ config: t.config, db, authChanges: feed }), database };
    await other.app.ready();
  });
  afterAll(async () => {
    await other?.app.close();
    await other?.database?.close();
    await t?.close();
  });

  const onOther = (token: string) =>
    other.app.inject({ method: 'GET', url: '/api/auth/profile', headers: { authorization: `Bearer ${token}` } });
  const heardOnOther = async (userId: string) => {
    const feed = await (other.database ?? t.database).authChanges();
    return new Promise<void>((resolve) => {
      const off = feed.subscribe({
        changed: (u) => u === userId && (off(), resolve()),
        lost: () => undefined,
        live: () => undefined,
      });
    });
  };

  it('a logout, a password change or a deactivation on one instance ends the session on the other', async () => {
    const u = await t.createUser();
    expect((await onOther(u.token)).statusCode).toBe(200);
    let heard = heardOnOther(u.user._id);
    expect((await t.request('POST', '/api/auth/logout', { token: u.token })).statusCode).toBe(200);
    await heard;
    expect((await onOther(u.token)).statusCode).toBe(401);

    const v = await t.createUser();
    expect((await onOther(v.token)).statusCode).toBe(200);
    heard = heardOnOther(v.user._id);
    const changed = await t.request('PUT', '/api/auth/change-password', {
      token: v.token,
      body: { currentPassword: v.password, newPassword: 'another-password-456' },
    });
    expect(changed.statusCode).toBe(200);
    await heard;
    expect((await onOther(v.token)).statusCode).toBe(401);

    const w = await t.createUser();
    expect((await onOther(w.token)).statusCode).toBe(200);
    heard = heardOnOther(w.user._id);
    expect(
      (await t.request('PUT', `/api/admin/users/${w.user._id}/toggle-active`, { token: t.admin.token })).statusCode,
    ).toBe(200);
    await heard;
    expect((await onOther(w.token)).statusCode).toBe(401);
  });
});
