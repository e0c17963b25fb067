import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, createTestApp, type TestApp } from '../helpers/app';

describe.each(backends)('users and admin on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lets only admins reach the admin routes', async () => {
    const u = await t.createUser();
    const asUser = await t.request('GET', '/api/admin/users', { token: u.token });
    expect(asUser.statusCode).toBe(403);
    expect(asUser.json()).toEqual({ success: false, message: 'Admin access required' });
    for (const [method, url] of [
      ['POST', '/api/admin/users'],
      ['DELETE', `/api/admin/users/${t.admin.user._id}`],
      ['PUT', `/api/admin/users/${t.admin.user._id}/toggle-active`],
    ] as const) {
      const body =
        method === 'POST' ? { username: 'sneaky', email: 'sneaky@example.test', password: 'secret1' } : undefined;
      expect((await t.request(method, url, { token: u.token, body })).statusCode).toBe(403);
      expect((await t.request(method, url, { body })).statusCode).toBe(401);
    }
    const asAdmin = await t.request('GET', '/api/admin/users', { token: t.admin.token });
    expect(asAdmin.statusCode).toBe(200);
    expect(asAdmin.json().users.map((x: { _id: string }) => x._id)).toContain(u.user._id);
  });

  it('searches by username case-insensitively and filters by role', async () => {
    const u = await t.createUser({ username: 'SearchMe_x' });
    const found = (await t.request('GET', '/api/admin/users?search=archme', { token: t.admin.token })).json().users;
    expect(found.map((x: { _id: string }) => x._id)).toEqual([u.user._id]);
    const wildcard = (await t.request('GET', '/api/admin/users?search=%25', { token: t.admin.token })).json().users;
    expect(wildcard).toEqual([]);
    const admins = (await t.request('GET', '/api/admin/users?role=admin', { token: t.admin.token })).json().users;
    expect(admins.every((x: { role: string }) => x.role === 'admin')).toBe(true);
    const all = (await t.request('GET', '/api/admin/users?role=', { token: t.admin.token })).json().users;
    expect(all.length).toBeGreaterThan(admins.length);
    const bad = await t.request('GET', '/api/admin/users?role=root', { token: t.admin.token });
    expect(bad.statusCode).toBe(400);
  });

  it('creates users with validation and refuses duplicates with 409', async () => {
    const short = await t.request('POST', '/api/admin/users', {
      token: t.admin.token,
      body: { username: 'shorty', email: 'shorty@example.test', password: '12345' },
    });
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toBe('Password must be at least 6 characters long');
    const ok = await t.request('POST', '/api/admin/users', {
      token: t.admin.token,
      body: { username: 'dupe', email: 'dupe@example.test', password: '123456' },
    });
    expect(ok.statusCode).toBe(201);
    expect(ok.json()).toMatchObject({
      success: true,
      message: 'User created successfully',
      user: { username: 'dupe', role: 'user', isActive: true },
    });
    const sameName = await t.request('POST', '/api/admin/users', {
      token: t.admin.token,
      body: { username: 'DUPE', email: 'other@example.test', password: '123456' },
    });
    expect(sameName.statusCode).toBe(409);
    expect(sameName.json().message).toBe('Username is already taken');
    const sameEmail = await t.request('POST', '/api/admin/users', {
      token: t.admin.token,
      body: { username: 'other', email: 'Dupe@Example.test', password: '123456' },
    });
    expect(sameEmail.statusCode).toBe(409);
    expect(sameEmail.json().message).toBe('Email is already in use');
  });

  it('deactivation revokes sessions and blocks sign-in; activation lets the user back', async () => {
    const u = await t.createUser();
    const off = await t.request('PUT', `/api/admin/users/${u.user._id}/toggle-active`, { token: t.admin.token });
    expect(off.statusCode).toBe(200);
    expect(off.json().user.isActive).toBe(false);
    const stale = await t.request('GET', '/api/auth/profile', { token: u.token });
    expect(stale.statusCode).toBe(401);
    // The open session is told why it ended, not just that it did.
    expect(stale.json().message).toBe('Your account has been deactivated. Contact an admin.');
    const signIn = await t.login(u.user.username, u.password);
    expect(signIn.statusCode).toBe(403);
    expect(signIn.json().message).toBe('Your account has been deactivated. Contact an admin.');
    const on = await t.request('PUT', `/api/admin/users/${u.user._id}/toggle-active`, { token: t.admin.token });
    expect(on.json().user.isActive).toBe(true);
    // The old token stays dead (now an ordinary ended session); a new sign-in works.
    const old = await t.request('GET', '/api/auth/profile', { token: u.token });
    expect(old.statusCode).toBe(401);
    expect(old.json().message).toBe('Your session has expired or was ended. Please sign in again.');
    expect((await t.login(u.user.username, u.password)).statusCode).toBe(200);
  });

  it('deletion revokes sessions at once', async () => {
    const u = await t.createUser();
    const del = await t.request('DELETE', `/api/admin/users/${u.user._id}`, { token: t.admin.token });
    expect(del.json()).toEqual({ success: true, message: 'User deleted successfully' });
    expect((await t.request('GET', '/api/auth/profile', { token: u.token })).statusCode).toBe(401);
    expect((await t.request('DELETE', `/api/admin/users/${u.user._id}`, { token: t.admin.token })).statusCode).toBe(
      404,
    );
    expect(
      (await t.request('PUT', `/api/admin/users/${u.user._id}/toggle-active`, { token: t.admin.token })).statusCode,
    ).toBe(404);
    expect((await t.request('DELETE', '/api/admin/users/not-a-uuid', { token: t.admin.token })).statusCode).toBe(400);
  });

  it('an admin cannot delete or deactivate itself', async () => {
    const del = await t.request('DELETE', `/api/admin/users/${t.admin.user._id}`, { token: t.admin.token });
    expect(del.statusCode).toBe(400);
    expect(del.json().message).toBe('You cannot delete your own account');
    const off = await t.request('PUT', `/api/admin/users/${t.admin.user._id}/toggle-active`, { token: t.admin.token });
    expect(off.statusCode).toBe(400);
    expect(off.json().message).toBe('You cannot deactivate your own account');
  });

  it('two admins deactivating each other at once leave one active admin', async () => {
    const a = await t.createUser({ role: 'admin' });
    const b = await t.createUser({ role: 'admin' });
    // Leave a and b as the only active admins.
    const bootstrap = t.admin;
    const helper = await t.createUser({ role: 'admin' });
    await t.request('PUT', `/api/admin/users/${bootstrap.user._id}/toggle-active`, { token: helper.token });
    await t.request('PUT', `/api/admin/users/${helper.user._id}/toggle-active`, { token: a.token });
    const [ab, ba] = await Promise.all([
      t.request('PUT', `/api/admin/users/${b.user._id}/toggle-active`, { token: a.token }),
      t.request('PUT', `/api/admin/users/${a.user._id}/toggle-active`, { token: b.token }),
    ]);
    const statuses = [ab.statusCode, ba.statusCode].sort();
    expect(statuses[0]).toBe(200);
    expect([400, 401]).toContain(statuses[1]);
    const loser = ab.statusCode === 200 ? ba : ab;
    if (loser.statusCode === 400)
      expect(loser.json().message).toBe('The last active admin cannot be removed or deactivated');
    const winner = ab.statusCode === 200 ? a : b;
    const admins = (await t.request('GET', '/api/admin/users?role=admin', { token: winner.token })).json().users;
    expect(admins.filter((x: { isActive: boolean }) => x.isActive).map((x: { _id: string }) => x._id)).toEqual([
      winner.user._id,
    ]);
    // Restore the bootstrap admin for the other tests.
    await t.request('PUT', `/api/admin/users/${bootstrap.user._id}/toggle-active`, { token: winner.token });
    t.admin = { ...bootstrap, token: (await t.login(bootstrap.user.email, bootstrap.password)).json().token };
  });

  it('a role change takes effect on the next call', async () => {
    // Roles are read from the database on each request, not trusted from the token.
    const u = await t.createUser({ role: 'admin' });
    expect((await t.request('GET', '/api/admin/users', { token: u.token })).statusCode).toBe(200);
    const { users } = await import('../../../server/db/schema');
    const { eq } = await import('drizzle-orm');
    await t.db.update(users).set({ role: 'user' }).where(eq(users.id, u.user._id));
    expect((await t.request('GET', '/api/admin/users', { token: u.token })).statusCode).toBe(403);
  });
});

describe.each(backends)('own settings on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('saves trading settings for the owner, minSpread as a fraction', async () => {
    const u = await t.createUser();
    const res = await t.request('PUT', `/api/users/${u.user._id}`, {
      token: u.token,
      body: { maxExposure: 2500, minSpread: 0.0035, maxLoss: 50, tradingEnabled: true },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      success: true,
      message: 'Trading settings updated successfully',
      user: { maxExposure: 2500, minSpread: 0.0035, maxLoss: 50, tradingEnabled: true },
    });
    const partial = await t.request('PUT', `/api/users/${u.user._id}`, {
      token: u.token,
      body: { tradingEnabled: false },
    });
    expect(partial.json().user).toMatchObject({ maxExposure: 2500, tradingEnabled: false });
  });

  it('rejects out-of-range settings with clear messages', async () => {
    const u = await t.createUser();
    const tooWide = await t.request('PUT', `/api/users/${u.user._id}`, { token: u.token, body: { minSpread: 0.5 } });
    expect(tooWide.statusCode).toBe(400);
    expect(tooWide.json().message).toBe('Min spread must be at most 10%');
    const negative = await t.request('PUT', `/api/users/${u.user._id}`, { token: u.token, body: { maxLoss: -1 } });
    expect(negative.json().errors).toEqual([{ msg: 'Max loss must be 0 or more', path: 'maxLoss' }]);
    const empty = await t.request('PUT', `/api/users/${u.user._id}`, { token: u.token, body: {} });
    expect(empty.statusCode).toBe(400);
    const wrongType = await t.request('PUT', `/api/users/${u.user._id}`, {
      token: u.token,
      body: { maxExposure: '100' },
    });
    expect(wrongType.statusCode).toBe(400);
    expect(wrongType.json().errors[0].path).toBe('maxExposure');
  });

  it("refuses writes to another user's settings and keys, even by an admin", async () => {
    const owner = await t.createUser();
    const other = await t.createUser();
    for (const token of [other.token, t.admin.token]) {
      const settings = await t.request('PUT', `/api/users/${owner.user._id}`, { token, body: { maxLoss: 1 } });
      expect(settings.statusCode).toBe(403);
      expect(settings.json()).toEqual({ success: false, message: 'You can only change your own settings' });
      const keys = await t.request('PUT', `/api/users/${owner.user._id}/api-keys`, {
        token,
        body: { derivAppId: '123' },
      });
      expect(keys.statusCode).toBe(403);
    }
    // An id that is nobody's is answered as another user's is: the answer does not tell which ids are accounts.
    for (const path of ['', '/api-keys']) {
      const missing = await t.request('PUT', `/api/users/00000000-0000-4000-8000-000000000000${path}`, {
        token: other.token,
        body: path ? { derivAppId: '123' } : { maxLoss: 1 },
      });
      expect(missing.statusCode).toBe(403);
      expect(missing.json()).toEqual({ success: false, message: 'You can only change your own settings' });
    }
    const profile = await t.request('GET', '/api/auth/profile', { token: owner.token });
    expect(profile.json().user.maxLoss).toBe(100);
  });
});
