import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD, backends, createTestApp, type TestApp } from '../helpers/app';

describe.each(backends)('auth on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('signs in with the e-mail and with the username, and updates lastLogin', async () => {
    const byEmail = await t.login(ADMIN_EMAIL, ADMIN_PASSWORD);
    expect(byEmail.statusCode).toBe(200);
    const body = byEmail.json();
    expect(body).toMatchObject({ success: true, user: { email: ADMIN_EMAIL, role: 'admin', username: 'admin' } });
    expect(typeof body.token).toBe('string');
    expect(body.user.lastLogin).not.toBeNull();
    expect(body.user).not.toHaveProperty('passwordHash');

    const byUsername = await t.login('ADMIN', ADMIN_PASSWORD);
    expect(byUsername.statusCode).toBe(200);
    const profile = await t.request('GET', '/api/auth/profile', { token: byUsername.json().token });
    expect(profile.statusCode).toBe(200);
    expect(profile.json().user.email).toBe(ADMIN_EMAIL);
  });

  it('refuses wrong credentials with one message for unknown account and wrong password', async () => {
    const wrongPassword = await t.login(ADMIN_EMAIL, 'not-the-password');
    const unknown = await t.login('nobody@example.test', 'whatever-password');
    for (const res of [wrongPassword, unknown]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ success: false, message: 'Invalid email or password' });
    }
  });

  it('answers 401 without a token, with a garbage token and with a token signed by another key', async () => {
    expect((await t.request('GET', '/api/auth/profile')).statusCode).toBe(401);
    expect((await t.request('GET', '/api/auth/profile', { token: 'garbage' })).statusCode).toBe(401);
    const forged = t.admin.token.split('.').slice(0, 2).join('.') + '.' + 'A'.repeat(43);
    const res = await t.request('GET', '/api/auth/profile', { token: forged });
    expect(res.statusCode).toBe(401);
    expect(res.json().success).toBe(false);
  });

  it('logout revokes that session only', async () => {
    const a = (await t.login(ADMIN_EMAIL, ADMIN_PASSWORD)).json().token as string;
    const b = (await t.login(ADMIN_EMAIL, ADMIN_PASSWORD)).json().token as string;
    const out = await t.request('POST', '/api/auth/logout', { token: a });
    expect(out.json()).toEqual({ success: true, message: 'Logged out successfully' });
    expect((await t.request('GET', '/api/auth/profile', { token: a })).statusCode).toBe(401);
    expect((await t.request('GET', '/api/auth/profile', { token: b })).statusCode).toBe(200);
    expect(await t.app.verifyToken(a)).toBeNull();
    expect(await t.app.verifyToken(b)).toMatchObject({ role: 'admin' });
  });

  it('password change revokes every session and returns a fresh working token', async () => {
    const u = await t.createUser();
    const other = (await t.login(u.user.username, u.password)).json().token as string;
    const bad = await t.request('PUT', '/api/auth/change-password', {
      token: u.token,
      body: { currentPassword: 'wrong-one', newPassword: 'new-password-1' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Current password is incorrect');

    const res = await t.request('PUT', '/api/auth/change-password', {
      token: u.token,
      body: { currentPassword: u.password, newPassword: 'new-password-1' },
    });
    expect(res.statusCode).toBe(200);
    const { token } = res.json();
    expect(res.json()).toMatchObject({ success: true, message: 'Password changed successfully' });
    expect((await t.request('GET', '/api/auth/profile', { token: u.token })).statusCode).toBe(401);
    expect((await t.request('GET', '/api/auth/profile', { token: other })).statusCode).toBe(401);
    expect((await t.request('GET', '/api/auth/profile', { token })).statusCode).toBe(200);
    expect((await t.login(u.user.username, u.password)).statusCode).toBe(401);
    expect((await t.login(u.user.username, 'new-password-1')).statusCode).toBe(200);
  });

  it('validates the password change with the spec texts', async () => {
    const res = await t.request('PUT', '/api/auth/change-password', {
      token: t.admin.token,
      body: { currentPassword: 'same-password', newPassword: 'same-password' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('New password must be different from current password');
    const short = await t.request('PUT', '/api/auth/change-password', {
      token: t.admin.token,
      body: { currentPassword: 'x', newPassword: 'short' },
    });
    expect(short.json().errors).toEqual([{ msg: 'Password must be at least 8 characters', path: 'newPassword' }]);
  });

  it('slows guessing of the current password through a signed-in session as sign-in does', async () => {
    const u = await t.createUser();
    const change = (currentPassword: string) =>
      t.request('PUT', '/api/auth/change-password', {
        token: u.token,
        body: { currentPassword, newPassword: 'a-brand-new-password' },
      });
    for (let i = 0; i < 5; i++) expect((await change(`guess-${i}`)).statusCode).toBe(400);
    const throttled = await change(u.password);
    expect(throttled.statusCode).toBe(429);
    expect(throttled.json().message).toMatch(/^Too many wrong passwords\. Try again in \d+ seconds?\.$/);
    // The same count as the sign-in form's: that pair waits there too.
    expect((await t.login(u.user.email, u.password)).statusCode).toBe(429);
  });

  it('refuses registration while it is disabled, whatever the body', async () => {
    for (const body of [{}, { username: 'newbie', email: 'newbie@example.test', password: 'long-enough-1' }]) {
      const res = await t.request('POST', '/api/auth/register', { body });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({
        success: false,
        message: 'Registration is disabled. Ask an admin to create your account.',
      });
    }
    // The sign-up page asks first, without signing in.
    expect((await t.request('GET', '/api/auth/registration')).json()).toEqual({ success: true, open: false });
  });
});

describe.each(backends)('session housekeeping on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('drops sessions that ended over a day ago when the user signs in again, and honours expiry', async () => {
    const { sessions } = await import('../../../server/db/schema');
    const { eq } = await import('drizzle-orm');
    const u = await t.createUser();
    const old = new Date(Date.now() - 3 * 24 * 3600 * 1000);
    await t.db.update(sessions).set({ expiresAt: old }).where(eq(sessions.userId, u.user._id));
    // The database says the session is over even though the token's own exp has not passed.
    expect((await t.request('GET', '/api/auth/profile', { token: u.token })).statusCode).toBe(401);
    await t.login(u.user.username, u.password);
    const rows = await t.db.select().from(sessions).where(eq(sessions.userId, u.user._id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.expiresAt.getTime()).toBeGreaterThan(Date.now());
  });
});
