// Two-factor sign-in over the real database: enrolment, the sign-in step (TOTP and recovery codes, replay and rate
// limit), turning it off, an admin's reset, ADMIN_REQUIRE_2FA, and that the secret is stored encrypted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Secret, TOTP } from 'otpauth';
import { and, eq } from 'drizzle-orm';
import type { UsersResponse } from '../../../contract/api';
import {
  TWO_FACTOR_MESSAGES,
  type TwoFactorEnabledResponse,
  type TwoFactorSetupResponse,
} from '../../../contract/guard';
import { auditEvents, twoFactor } from '../../../server/db/schema';
import { backends, createTestApp, type SignedIn, type TestApp } from '../helpers/app';

/** The code an authenticator app shows for this secret, `steps` periods from now. */
const codeFor = (secret: string, steps = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({
    timestamp: Date.now() + steps * 30_000,
  });

describe.each(backends)('two-factor sign-in on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend, {
      build: {
        loginLimits: {
          freePerPair: 3,
          freePerAddress: 100,
          baseDelaySeconds: 60,
          maxDelaySeconds: 900,
          windowSeconds: 60,
          namespace: `2fa-${Date.now()}`,
        },
      },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  async function enrol(u: SignedIn): Promise<{ secret: string; recoveryCodes: string[] }> {
    const setup = await t.request('POST', '/api/auth/2fa/setup', { token: u.token });
    expect(setup.statusCode, setup.body).toBe(200);
    const { secret, otpauthUrl, qrDataUrl } = setup.json() as TwoFactorSetupResponse;
    expect(otpauthUrl).toMatch(/^otpauth:\/\/totp\/ArbiTrade:/);
    expect(qrDataUrl).toMatch(/^data:image\/png;base64,/);
    const enabled = await t.request('POST', '/api/auth/2fa/enable', {
      token: u.token,
      body: { code: codeFor(secret) },
    });
    expect(enabled.statusCode, enabled.body).toBe(200);
    const { recoveryCodes } = enabled.json() as TwoFactorEnabledResponse;
    return { secret, recoveryCodes };
  }

  const passwordStep = async (u: SignedIn) => {
    const res = await t.login(u.user.email, u.password);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { twoFactorRequired?: boolean; challenge?: string; token?: string };
  };

  it('enrols with a QR code, a confirming code and ten recovery codes; the secret is stored encrypted', async () => {
    const u = await t.createUser();
    const setup = (await t.request('POST', '/api/auth/2fa/setup', { token: u.token })).json() as TwoFactorSetupResponse;
    const wrong = await t.request('POST', '/api/auth/2fa/enable', {
      token: u.token,
      body: { code: '000000' === codeFor(setup.secret) ? '111111' : '000000' },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe(TWO_FACTOR_MESSAGES.wrongCode);
    const malformed = await t.request('POST', '/api/auth/2fa/enable', { token: u.token, body: { code: '12ab' } });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.body).toContain('Enter the 6-digit code from your authenticator app');
    const ok = await t.request('POST', '/api/auth/2fa/enable', {
      token: u.token,
      body: { code: codeFor(setup.secret) },
    });
    expect(ok.statusCode).toBe(200);
    const codes = (ok.json() as TwoFactorEnabledResponse).recoveryCodes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    const [row] = await t.db.select().from(twoFactor).where(eq(twoFactor.userId, u.user._id));
    expect(row?.secretEnc).not.toContain(setup.secret);
    expect(JSON.stringify(row)).not.toContain(codes[0]?.replace('-', '') ?? 'x');
    const status = (await t.request('GET', '/api/auth/2fa', { token: u.token })).json();
    expect(status.twoFactor).toEqual({ enabled: true, recoveryCodesLeft: 10, required: false });
    expect((await t.request('POST', '/api/auth/2fa/setup', { token: u.token })).statusCode).toBe(409);
  });

  it('asks for the code after the password; a wrong code is refused, a right one signs in once', async () => {
    const u = await t.createUser();
    const { secret } = await enrol(u);
    const first = await passwordStep(u);
    expect(first.twoFactorRequired).toBe(true);
    expect(first.token).toBeUndefined();
    const challenge = first.challenge as string;
    // The challenge is no session token.
    expect((await t.request('GET', '/api/auth/profile', { token: challenge })).statusCode).toBe(401);
    const wrong = await t.request('POST', '/api/auth/login/2fa', { body: { challenge, code: codeFor(secret, 5) } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().message).toBe(TWO_FACTOR_MESSAGES.wrongCode);
    const code = codeFor(secret, 1);
    const ok = await t.request('POST', '/api/auth/login/2fa', { body: { challenge, code } });
    expect(ok.statusCode, ok.body).toBe(200);
    const { token } = ok.json() as { token: string };
    expect((await t.request('GET', '/api/auth/profile', { token })).statusCode).toBe(200);
    // The same code again (a replay) is refused.
    const replay = await t.request('POST', '/api/auth/login/2fa', {
      body: { challenge: (await passwordStep(u)).challenge, code },
    });
    expect(replay.statusCode).toBe(401);
    const bad = await t.request('POST', '/api/auth/login/2fa', {
      body: { challenge: 'not-a-challenge', code: '123456' },
    });
    expect(bad.statusCode).toBe(401);
    expect(bad.json().message).toBe(TWO_FACTOR_MESSAGES.challengeExpired);
    const actions = (await t.db.select().from(auditEvents).where(eq(auditEvents.subjectId, u.user._id))).map(
      (e) => e.action,
    );
    expect(actions).toEqual(expect.arrayContaining(['two_factor_enabled', 'sign_in_2fa_failed', 'sign_in']));
  });

  it('rate-limits wrong codes on their own count, which a correct password does not reset', async () => {
    const u = await t.createUser();
    const { secret } = await enrol(u);
    // Each wrong code comes after a fresh, correct password step: the count goes on regardless.
    for (let i = 0; i < 2; i++) {
      const { challenge } = await passwordStep(u);
      expect(
        (await t.request('POST', '/api/auth/login/2fa', { body: { challenge, code: codeFor(secret, 6 + i) } }))
          .statusCode,
      ).toBe(401);
    }
    const { challenge } = await passwordStep(u);
    expect(
      (await t.request('POST', '/api/auth/login/2fa', { body: { challenge, code: codeFor(secret, 9) } })).statusCode,
    ).toBe(401);
    // Past the limit even the right code is refused; the password step still answers a challenge, whose code waits.
    const blocked = await t.request('POST', '/api/auth/login/2fa', { body: { challenge, code: codeFor(secret, 1) } });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toMatch(/Too many failed sign-in attempts/);
    const again = await passwordStep(u);
    expect(
      (
        await t.request('POST', '/api/auth/login/2fa', {
          body: { challenge: again.challenge, code: codeFor(secret, 1) },
        })
      ).statusCode,
    ).toBe(429);
  });

  it('throttles the password step of a throttled pair whatever the second factor; another address gets in', async () => {
    const u = await t.createUser();
    const { secret } = await enrol(u);
    for (let i = 0; i < 3; i++) expect((await t.login(u.user.email, 'not-the-password')).statusCode).toBe(401);
    // The pair is throttled now: the right password is refused like a wrong one, so the throttle slows a guesser
    // (OWASP: the password must stay hard to guess online) even though a code would still be asked for.
    const guess = await t.login(u.user.email, 'still-not-it');
    expect(guess.statusCode).toBe(429);
    const right = await t.login(u.user.email, u.password);
    expect(right.statusCode, right.body).toBe(429);
    expect(right.json()).toEqual({
      success: false,
      message: expect.stringMatching(/^Too many failed sign-in attempts/),
    });
    expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
    // The owner elsewhere is not slowed: the password leads on to the code, which signs in.
    const elsewhere = (url: string, payload: object) =>
      t.app.inject({ method: 'POST', url, payload, remoteAddress: '198.51.100.7' });
    const step = await elsewhere('/api/auth/login', { username: u.user.email, password: u.password });
    expect(step.statusCode, step.body).toBe(200);
    const res = await elsewhere('/api/auth/login/2fa', { challenge: step.json().challenge, code: codeFor(secret, 1) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().token).toEqual(expect.any(String));
    // Without a second factor, the same.
    const plain = await t.createUser();
    for (let i = 0; i < 3; i++) await t.login(plain.user.email, 'not-the-password');
    expect((await t.login(plain.user.email, plain.password)).statusCode).toBe(429);
  });

  it('throttles wrong codes when turning two-factor off and when confirming an enrolment', async () => {
    const u = await t.createUser();
    const { secret } = await enrol(u);
    const off = (code: string) => t.request('POST', '/api/auth/2fa/disable', { token: u.token, body: { code } });
    for (let i = 0; i < 3; i++) expect((await off(codeFor(secret, 6 + i))).statusCode).toBe(400);
    // Past the free attempts even the right code waits, and says for how long.
    const blocked = await off(codeFor(secret, 1));
    expect(blocked.statusCode, blocked.body).toBe(429);
    expect(blocked.json().message).toMatch(/^Too many wrong codes\. Try again in \d+ (second|minute)s?\.$/);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect((await t.request('GET', '/api/auth/2fa', { token: u.token })).json().twoFactor.enabled).toBe(true);
    const refusals = await t.db.select().from(auditEvents).where(eq(auditEvents.subjectId, u.user._id));
    expect(refusals.filter((e) => e.action === 'sign_in_2fa_failed').map((e) => e.details)).toEqual(
      expect.arrayContaining([
        { reason: 'wrong code', during: 'turning two-factor off' },
        { reason: 'too many attempts', during: 'turning two-factor off' },
      ]),
    );

    const v = await t.createUser();
    const setup = (await t.request('POST', '/api/auth/2fa/setup', { token: v.token })).json() as TwoFactorSetupResponse;
    const confirm = (code: string) => t.request('POST', '/api/auth/2fa/enable', { token: v.token, body: { code } });
    for (let i = 0; i < 3; i++) expect((await confirm(codeFor(setup.secret, 6 + i))).statusCode).toBe(400);
    expect((await confirm(codeFor(setup.secret))).statusCode).toBe(429);
  });

  it('enrolling, turning it off and an admin reset end the account’s other sessions', async () => {
    const u = await t.createUser();
    const other = (await t.login(u.user.email, u.password)).json().token as string;
    const alive = async (token: string) => (await t.request('GET', '/api/auth/profile', { token })).statusCode;
    expect(await alive(other)).toBe(200);
    const { secret, recoveryCodes } = await enrol(u);
    // A session opened with the password alone does not outlive the second factor; the enrolling one goes on.
    expect(await alive(other)).toBe(401);
    expect(await alive(u.token)).toBe(200);

    const second = await t.request('POST', '/api/auth/login/2fa', {
      body: { challenge: (await passwordStep(u)).challenge, code: codeFor(secret, 1) },
    });
    const phone = second.json().token as string;
    expect(await alive(phone)).toBe(200);
    const off = await t.request('POST', '/api/auth/2fa/disable', {
      token: u.token,
      body: { code: recoveryCodes[0] as string },
    });
    expect(off.statusCode, off.body).toBe(200);
    expect(await alive(phone)).toBe(401);
    expect(await alive(u.token)).toBe(200);

    await enrol(u);
    const reset = await t.request('POST', `/api/admin/users/${u.user._id}/2fa/reset`, { token: t.admin.token });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(await alive(u.token)).toBe(401);
    expect(await alive(t.admin.token)).toBe(200);
  });

  it('a recovery code signs in once; turning 2FA off needs a code; an admin can reset it', async () => {
    const u = await t.createUser();
    const { secret, recoveryCodes } = await enrol(u);
    const code = recoveryCodes[0] as string;
    const ok = await t.request('POST', '/api/auth/login/2fa', {
      body: { challenge: (await passwordStep(u)).challenge, code: code.toUpperCase() },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const again = await t.request('POST', '/api/auth/login/2fa', {
      body: { challenge: (await passwordStep(u)).challenge, code },
    });
    expect(again.statusCode).toBe(401);
    expect((await t.request('GET', '/api/auth/2fa', { token: u.token })).json().twoFactor.recoveryCodesLeft).toBe(9);

    const wrongOff = await t.request('POST', '/api/auth/2fa/disable', {
      token: u.token,
      body: { code: codeFor(secret, 7) },
    });
    expect(wrongOff.statusCode).toBe(400);
    const off = await t.request('POST', '/api/auth/2fa/disable', {
      token: u.token,
      body: { code: codeFor(secret, 1) },
    });
    expect(off.statusCode, off.body).toBe(200);
    expect((await passwordStep(u)).token).toEqual(expect.any(String));

    await enrol(u);
    const notAdmin = await t.request('POST', `/api/admin/users/${u.user._id}/2fa/reset`, { token: u.token });
    expect(notAdmin.statusCode).toBe(403);
    const reset = await t.request('POST', `/api/admin/users/${u.user._id}/2fa/reset`, { token: t.admin.token });
    expect(reset.statusCode).toBe(200);
    expect((await passwordStep(u)).token).toEqual(expect.any(String));
    const none = await t.request('POST', `/api/admin/users/${u.user._id}/2fa/reset`, { token: t.admin.token });
    expect(none.statusCode).toBe(400);
    const audited = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'two_factor_reset'), eq(auditEvents.subjectId, u.user._id)));
    expect(audited).toHaveLength(1);
    expect(audited[0]).toMatchObject({ actorId: t.admin.user._id, subjectId: u.user._id });
  });

  it('the admin list says who has two-factor sign-in on (a started, unconfirmed enrolment does not count)', async () => {
    const on = await t.createUser();
    const pending = await t.createUser();
    const without = await t.createUser();
    await enrol(on);
    expect((await t.request('POST', '/api/auth/2fa/setup', { token: pending.token })).statusCode).toBe(200);
    const flagOf = async (u: SignedIn) => {
      const res = await t.request('GET', `/api/admin/users?search=${u.user.username}`, { token: t.admin.token });
      expect(res.statusCode, res.body).toBe(200);
      const listed = (res.json() as UsersResponse).users.find((x) => x._id === u.user._id);
      return listed?.twoFactorEnabled;
    };
    expect(await flagOf(on)).toBe(true);
    expect(await flagOf(pending)).toBe(false);
    expect(await flagOf(without)).toBe(false);
    await t.request('POST', `/api/admin/users/${on.user._id}/2fa/reset`, { token: t.admin.token });
    expect(await flagOf(on)).toBe(false);
  });
});

describe('ADMIN_REQUIRE_2FA', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite', { env: { ADMIN_REQUIRE_2FA: 'true' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('keeps admin routes closed until the admin enrols, and the admin cannot turn it off', async () => {
    const before = await t.request('GET', '/api/admin/users', { token: t.admin.token });
    expect(before.statusCode).toBe(403);
    expect(before.json().message).toBe(TWO_FACTOR_MESSAGES.adminMustEnrol);
    expect((await t.request('GET', '/api/auth/2fa', { token: t.admin.token })).json().twoFactor).toMatchObject({
      enabled: false,
      required: true,
    });
    const { secret } = (
      await t.request('POST', '/api/auth/2fa/setup', { token: t.admin.token })
    ).json() as TwoFactorSetupResponse;
    expect(
      (await t.request('POST', '/api/auth/2fa/enable', { token: t.admin.token, body: { code: codeFor(secret) } }))
        .statusCode,
    ).toBe(200);
    expect((await t.request('GET', '/api/admin/users', { token: t.admin.token })).statusCode).toBe(200);
    const off = await t.request('POST', '/api/auth/2fa/disable', {
      token: t.admin.token,
      body: { code: codeFor(secret, 1) },
    });
    expect(off.statusCode).toBe(400);
    expect(off.json().message).toMatch(/requires admins/);
  });
});
