// Every text input refuses control characters with a 400 that says so, before anything reaches the database (where a
// NUL byte used to fail the query with a 500 and a logged statement) or the sign-in rate limiter.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, createTestApp, type TestApp } from '../helpers/app';

const NASTY = ['a\u0000b', 'a\u0007b', 'a\u001bb', 'a\u007fb', 'a\u0085b'];

describe.each(backends)('control characters on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend);
  });
  afterAll(async () => {
    await t?.close();
  });

  function expectRefused(res: { statusCode: number; json(): unknown; body: string }, field: string) {
    expect(res.statusCode, res.body).toBe(400);
    const body = res.json() as { success: boolean; message: string; errors?: { msg: string }[] };
    expect(body.success).toBe(false);
    expect(
      body.errors?.some((e) => e.msg === `${field} must not contain control characters`) ?? body.message,
      res.body,
    ).toBe(true);
  }

  it('refuses them at sign-in, in the username and the password, without logging an error', async () => {
    for (const bad of NASTY) {
      expectRefused(await t.login(bad, 'x'), 'Email');
      expectRefused(await t.login('admin@example.test', bad), 'Password');
    }
    expect(t.logs.filter((l) => /"level":50/.test(l))).toEqual([]);
  });

  it('refuses them in every profile field; bio keeps its line breaks', async () => {
    const u = await t.createUser();
    const valid = {
      username: u.user.username,
      email: u.user.email,
      firstName: 'Ada',
      lastName: 'Lovelace',
      phone: '+44 20 7946 0958',
      bio: 'x',
    };
    const labels: Record<string, string> = {
      username: 'Username',
      email: 'Email',
      firstName: 'First name',
      lastName: 'Last name',
      phone: 'Phone',
      bio: 'Bio',
    };
    for (const [field, label] of Object.entries(labels)) {
      for (const bad of NASTY) {
        expectRefused(
          await t.request('PUT', '/api/auth/profile', { token: u.token, body: { ...valid, [field]: bad } }),
          label,
        );
      }
    }
    const lines = await t.request('PUT', '/api/auth/profile', {
      token: u.token,
      body: { ...valid, bio: 'line one\r\nline two\tend' },
    });
    expect(lines.statusCode, lines.body).toBe(200);
  });

  it('refuses them in the admin user list search and user creation', async () => {
    for (const bad of NASTY) {
      expectRefused(
        await t.request('GET', `/api/admin/users?search=${encodeURIComponent(bad)}`, { token: t.admin.token }),
        'search',
      );
      const create = await t.request('POST', '/api/admin/users', {
        token: t.admin.token,
        body: { username: bad, email: 'c@example.test', password: 'password-1' },
      });
      expectRefused(create, 'Username');
    }
  });

  it('refuses them in registration, password change, API keys and credential tests', async () => {
    const u = await t.createUser();
    expectRefused(
      await t.request('PUT', '/api/auth/change-password', {
        token: u.token,
        body: { currentPassword: u.password, newPassword: 'new\u0000password' },
      }),
      'New password',
    );
    expectRefused(
      await t.request('PUT', `/api/users/${u.user._id}/api-keys`, {
        token: u.token,
        body: { binanceApiKey: 'KEY\u0000' },
      }),
      'Binance API key',
    );
    expectRefused(
      await t.request('POST', '/api/exchanges/test-connection', {
        token: u.token,
        body: { exchange: 'deriv', token: 't\u0001' },
      }),
      'Token',
    );
    expectRefused(
      await t.request('PUT', `/api/users/${encodeURIComponent('a\u0000b')}`, { token: u.token, body: { maxLoss: 1 } }),
      'The id in the URL',
    );
  });

  it('refuses them in push endpoints, two-factor codes and challenges, and dates, without logging an error', async () => {
    const u = await t.createUser();
    expectRefused(
      await t.request('POST', '/api/notifications/subscriptions/remove', {
        token: u.token,
        body: { endpoint: 'https://push.example.com/\u0000' },
      }),
      'The push endpoint',
    );
    expectRefused(
      await t.request('POST', '/api/auth/login/2fa', { body: { challenge: 'a\u0000b', code: '123456' } }),
      'The sign-in step',
    );
    expectRefused(
      await t.request('POST', '/api/auth/2fa/disable', { token: u.token, body: { code: '12\u00003456' } }),
      'Code',
    );
    expectRefused(await t.request('GET', '/api/trades/export.csv?from=%00', { token: u.token }), 'from');
    expect(t.logs.filter((l) => /"level":50/.test(l))).toEqual([]);
  });
});
