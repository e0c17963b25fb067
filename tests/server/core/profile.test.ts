import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents } from '../../../server/db/schema';
import { IDENTITY_CHANGES_PER_HOUR } from '../../../server/sign-in';
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

  it('limits changes of username and e-mail per user, and records the refused ones', async () => {
    const victim = await t.createUser();
    const prober = await t.createUser();
    const probe = (email: string) =>
      t.request('PUT', '/api/auth/profile', {
        token: prober.token,
        body: { username: prober.user.username, email, bio: 'probing' },
      });
    // Each answer tells whether an e-mail has an account here: only a few are answered an hour, saved or refused.
    const answers: number[] = [];
    for (let i = 0; i < IDENTITY_CHANGES_PER_HOUR; i++)
      answers.push((await probe(i % 2 ? victim.user.email : `free${i}@example.test`)).statusCode);
    expect(answers).toEqual([200, 409, 200, 409, 200]);
    const limited = await probe(victim.user.email);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toMatch(/^Too many changes of username or email\. Try again in \d+ minutes?\.$/);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Details that are not how the user signs in are still saved; another user is not held up.
    const bio = await t.request('PUT', '/api/auth/profile', {
      token: prober.token,
      body: { username: prober.user.username, email: 'free4@example.test', bio: 'just the bio' },
    });
    expect(bio.statusCode, bio.body).toBe(200);
    const own = await t.request('PUT', '/api/auth/profile', {
      token: victim.token,
      body: { username: `${victim.user.username}2`, email: victim.user.email },
    });
    expect(own.statusCode).toBe(200);
    const refused = await t.db.select().from(auditEvents).where(eq(auditEvents.actorId, prober.user._id));
    expect(refused.filter((e) => e.action === 'profile_change_refused').map((e) => e.details)).toEqual([
      { fields: ['email'], reason: 'taken' },
      { fields: ['email'], reason: 'taken' },
      { fields: ['email'], reason: 'too many changes' },
    ]);
  });
});
