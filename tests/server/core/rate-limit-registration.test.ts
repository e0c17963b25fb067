import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD, backends, createTestApp, type TestApp } from '../helpers/app';

const limits = (namespace: string) => ({ perAccount: 3, perAddress: 6, windowSeconds: 600, namespace });

describe.each(backends)('sign-in rate limit and open registration on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend, { env: { ALLOW_REGISTRATION: 'true' }, build: { loginLimits: limits(randomBytes(6).toString('hex')) } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('blocks an account after repeated failures, even with the right password, with Retry-After', async () => {
    const u = await t.createUser();
    for (let i = 0; i < 3; i++) expect((await t.login(u.user.username, 'wrong-password')).statusCode).toBe(401);
    const blocked = await t.login(u.user.username, u.password);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual({ success: false, message: 'Too many failed sign-in attempts. Try again in 10 minutes.' });
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(500);
    // The account is the same whichever way it is named.
    expect((await t.login(u.user.email.toUpperCase(), u.password)).statusCode).toBe(429);
  });

  it('blocks an address spraying many accounts', async () => {
    // 3 failures were counted for this address above; three more on other accounts reach the address limit.
    for (const name of ['spray1', 'spray2', 'spray3']) expect((await t.login(name, 'x-password')).statusCode).toBe(401);
    const res = await t.login(ADMIN_EMAIL, ADMIN_PASSWORD);
    expect(res.statusCode).toBe(429);
    // Another address is not affected.
    const elsewhere = await t.app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress: '10.1.2.3', payload: { username: ADMIN_EMAIL, password: ADMIN_PASSWORD } });
    expect(elsewhere.statusCode).toBe(200);
  });

  it('registers a user when ALLOW_REGISTRATION=true', async () => {
    expect((await t.request('GET', '/api/auth/registration')).json()).toEqual({ success: true, open: true });
    const res = await t.request('POST', '/api/auth/register', {
      body: { username: 'newcomer', email: 'newcomer@example.test', password: 'long-enough-1', firstName: 'New' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ success: true, user: { username: 'newcomer', role: 'user', firstName: 'New' } });
    const profile = await t.request('GET', '/api/auth/profile', { token: res.json().token });
    expect(profile.json().user.email).toBe('newcomer@example.test');
    const again = await t.request('POST', '/api/auth/register', { body: { username: 'newcomer', email: 'x@example.test', password: 'long-enough-1' } });
    expect(again.statusCode).toBe(409);
    const invalid = await t.request('POST', '/api/auth/register', { body: { username: 'ab', email: 'bad', password: 'short' } });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().errors.map((e: { msg: string }) => e.msg)).toEqual([
      'Username must be at least 3 characters',
      'Please enter a valid email address',
      'Password must be at least 8 characters',
    ]);
  });
});

describe.skipIf(!process.env.TEST_REDIS_URL && !process.env.TEST_POSTGRES_URL)('sign-in rate limit shared through Redis', () => {
  it('counts failures across two instances', async () => {
    const namespace = randomBytes(6).toString('hex');
    const env = { REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379' };
    const a = await createTestApp('pglite', { env, build: { loginLimits: limits(namespace) } });
    // Same data directory is not needed: the second instance shares only the Redis counters.
    const b = await createTestApp('pglite', { env, build: { loginLimits: limits(namespace) } });
    try {
      // Each instance has its own database, so use a login name that is the same key on both.
      const ghost = 'ghost@example.test';
      for (let i = 0; i < 2; i++) expect((await a.login(ghost, 'wrong-password')).statusCode).toBe(401);
      expect((await b.login(ghost, 'wrong-password')).statusCode).toBe(401);
      expect((await b.login(ghost, 'wrong-password')).statusCode).toBe(429);
      expect((await a.login(ghost, 'wrong-password')).statusCode).toBe(429);
      expect((await a.login(ADMIN_EMAIL, ADMIN_PASSWORD)).statusCode).toBe(200);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
