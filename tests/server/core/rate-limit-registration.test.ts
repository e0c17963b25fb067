import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { delayAfter } from '../../../server/sign-in/attempts';
import { parseTrustProxy } from '../../../server/config';
import { ADMIN_EMAIL, ADMIN_PASSWORD, backends, createTestApp, type TestApp } from '../helpers/app';

// A first delay of ten minutes, so that "still waiting" never depends on how fast the test runs.
const limits = (namespace: string) => ({
  freePerPair: 3,
  freePerAddress: 6,
  baseDelaySeconds: 600,
  maxDelaySeconds: 3600,
  windowSeconds: 3600,
  namespace,
});

describe('sign-in delays', () => {
  it('start after the free attempts and double with every failure, up to the ceiling', () => {
    const l = { baseDelaySeconds: 1, maxDelaySeconds: 900 };
    expect([0, 1, 2, 3, 4, 5, 6, 7].map((n) => delayAfter(n, 3, l))).toEqual([0, 0, 0, 1, 2, 4, 8, 16]);
    expect(delayAfter(40, 3, l)).toBe(900);
  });

  it('TRUST_PROXY accepts the forms Fastify knows and nothing else', () => {
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('true')).toBe(true);
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy('127.0.0.1, 10.0.0.0/8,::1')).toEqual(['127.0.0.1', '10.0.0.0/8', '::1']);
    expect(parseTrustProxy('proxy.example')).toBeNull();
    expect(parseTrustProxy('')).toBeNull();
  });
});

describe.each(backends)('sign-in rate limit and open registration on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend, {
      env: { ALLOW_REGISTRATION: 'true' },
      build: { loginLimits: limits(randomBytes(6).toString('hex')) },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  const from = (address: string, username: string, password: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress: address, payload: { username, password } });

  it('slows the account and address pair after repeated failures, and only that pair', async () => {
    const u = await t.createUser();
    for (let i = 0; i < 3; i++)
      expect((await from('10.0.0.1', u.user.username, 'wrong-password')).statusCode).toBe(401);
    const waiting = await from('10.0.0.1', u.user.username, u.password);
    expect(waiting.statusCode).toBe(429);
    expect(waiting.json()).toEqual({
      success: false,
      message: 'Too many failed sign-in attempts. Try again in 10 minutes.',
    });
    expect(Number(waiting.headers['retry-after'])).toBeGreaterThan(500);
    // The account is the same whichever way it is named.
    expect((await from('10.0.0.1', u.user.email.toUpperCase(), u.password)).statusCode).toBe(429);
    // The owner, from anywhere else, signs in: failing on purpose locks nobody out.
    expect((await from('10.0.0.2', u.user.username, u.password)).statusCode).toBe(200);
    // Another account from the slowed address is not slowed either.
    expect((await from('10.0.0.1', ADMIN_EMAIL, ADMIN_PASSWORD)).statusCode).toBe(200);
  });

  it('forgets the failures of a pair when it signs in', async () => {
    const u = await t.createUser();
    for (let i = 0; i < 2; i++)
      expect((await from('10.0.1.1', u.user.username, 'wrong-password')).statusCode).toBe(401);
    expect((await from('10.0.1.1', u.user.username, u.password)).statusCode).toBe(200);
    for (let i = 0; i < 2; i++)
      expect((await from('10.0.1.1', u.user.username, 'wrong-password')).statusCode).toBe(401);
    expect((await from('10.0.1.1', u.user.username, u.password)).statusCode).toBe(200);
  });

  it('slows an address spraying many accounts', async () => {
    for (const name of ['spray1', 'spray2', 'spray3', 'spray4', 'spray5', 'spray6']) {
      expect((await from('10.0.2.1', name, 'x-password')).statusCode).toBe(401);
    }
    expect((await from('10.0.2.1', ADMIN_EMAIL, ADMIN_PASSWORD)).statusCode).toBe(429);
    expect((await from('10.0.2.2', ADMIN_EMAIL, ADMIN_PASSWORD)).statusCode).toBe(200);
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
    const again = await t.request('POST', '/api/auth/register', {
      body: { username: 'newcomer', email: 'x@example.test', password: 'long-enough-1' },
    });
    expect(again.statusCode).toBe(409);
    const invalid = await t.request('POST', '/api/auth/register', {
      body: { username: 'ab', email: 'bad', password: 'short' },
    });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().errors.map((e: { msg: string }) => e.msg)).toEqual([
      'Username must be at least 3 characters',
      'Please enter a valid email address',
      'Password must be at least 8 characters',
    ]);
  });
});

describe.skipIf(!process.env.TEST_REDIS_URL && !process.env.TEST_POSTGRES_URL)(
  'sign-in rate limit shared through Redis',
  () => {
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
        // Another address is not slowed for the same name.
        const elsewhere = await b.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          remoteAddress: '10.9.9.9',
          payload: { username: ghost, password: 'wrong-password' },
        });
        expect(elsewhere.statusCode).toBe(401);
      } finally {
        await a.close();
        await b.close();
      }
    });
  },
);

describe('client address behind a reverse proxy', () => {
  it('is the X-Forwarded-For client with TRUST_PROXY, and the connection otherwise', async () => {
    for (const trust of ['true', 'false']) {
      const t = await createTestApp('pglite', {
        env: { TRUST_PROXY: trust },
        build: { loginLimits: limits(randomBytes(6).toString('hex')) },
      });
      try {
        const via = (client: string, password: string) =>
          t.app.inject({
            method: 'POST',
            url: '/api/auth/login',
            remoteAddress: '127.0.0.1',
            headers: { 'x-forwarded-for': client },
            payload: { username: ADMIN_EMAIL, password },
          });
        for (let i = 0; i < 3; i++) expect((await via('203.0.113.7', 'wrong-password')).statusCode).toBe(401);
        // Trusted: another client behind the same proxy is a different address. Not trusted: everyone is the proxy.
        expect((await via('198.51.100.9', ADMIN_PASSWORD)).statusCode, `TRUST_PROXY=${trust}`).toBe(
          trust === 'true' ? 200 : 429,
        );
      } finally {
        await t.close();
      }
    }
  });
});
