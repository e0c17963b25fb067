import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, createTestApp, type TestApp } from '../helpers/app';

describe.each(backends)('profile on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('updates the personal details and returns the record', async () => {
    const u = await t.createUser();
    const res = await t.request('PUT', '/api/auth/profile', {
      token: u.token,
      body: {
        username: `${u.user.username}x`,
        email: `x${u.user.email}`,
        firstName: ' Ada ',
        lastName: 'Lovelace',
        phone: '+44 20 7946 0958',
        bio: 'Counts things.',
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      success: true,
      message: 'Profile updated successfully',
      user: {
        username: `${u.user.username}x`,
        email: `x${u.user.email}`,
        firstName: 'Ada',
        lastName: 'Lovelace',
        phone: '+44 20 7946 0958',
        bio: 'Counts things.',
      },
    });
    expect((await t.request('GET', '/api/auth/profile', { token: u.token })).json().user.firstName).toBe('Ada');
  });

  it('answers every invalid field with the spec text', async () => {
    const u = await t.createUser();
    const res = await t.request('PUT', '/api/auth/profile', {
      token: u.token,
      body: {
        username: 'ab',
        email: 'not-an-email',
        firstName: 'A',
        lastName: ' B ',
        phone: '0123',
        bio: 'x'.repeat(501),
      },
    });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.success).toBe(false);
    expect(body.errors.map((e: { msg: string }) => e.msg).sort()).toEqual(
      [
        'Username must be at least 3 characters',
        'Please enter a valid email address',
        'First name must be at least 2 characters',
        'Last name must be at least 2 characters',
        'Please enter a valid phone number',
        'Bio must be less than 500 characters',
      ].sort(),
    );
    const empty = await t.request('PUT', '/api/auth/profile', { token: u.token, body: { username: '', email: '' } });
    expect(empty.json().errors.map((e: { msg: string }) => e.msg)).toEqual([
      'Username is required',
      'Email is required',
    ]);
  });

  it('refuses a username or e-mail that belongs to someone else with 409, but keeps own values', async () => {
    const a = await t.createUser();
    const b = await t.createUser();
    const name = await t.request('PUT', '/api/auth/profile', {
      token: b.token,
      body: { username: a.user.username.toUpperCase(), email: b.user.email },
    });
    expect(name.statusCode).toBe(409);
    // Neither answer says which field is taken (that would reveal who has an account here).
    expect(name.json()).toEqual({
      success: false,
      message: 'Your profile could not be saved with that username or email. Choose another.',
    });
    const mail = await t.request('PUT', '/api/auth/profile', {
      token: b.token,
      body: { username: b.user.username, email: a.user.email },
    });
    expect(mail.statusCode).toBe(409);
    expect(mail.json()).toEqual(name.json());
    const same = await t.request('PUT', '/api/auth/profile', {
      token: b.token,
      body: { username: b.user.username, email: b.user.email },
    });
    expect(same.statusCode).toBe(200);
  });
});
