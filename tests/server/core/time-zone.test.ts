// The time zone a user reads dates in (issue 24): saved per user on the server so it follows them across devices,
// checked against the IANA list, and back to the browser's own with null.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TIME_ZONE_INVALID } from '../../../contract/time-zone';
import { backends, createTestApp, type TestApp } from '../helpers/app';

describe.each(backends)('time zone on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('starts unset, is saved for the user and read back on another sign-in, and null clears it', async () => {
    const u = await t.createUser();
    expect(u.user.timeZone).toBeNull();
    const saved = await t.request('PUT', '/api/auth/time-zone', { token: u.token, body: { timeZone: 'Asia/Tokyo' } });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().user.timeZone).toBe('Asia/Tokyo');
    // Another device: a fresh sign-in carries the zone.
    const again = await t.login(u.user.email, u.password);
    expect(again.json().user.timeZone).toBe('Asia/Tokyo');
    const snapshotUser = (await t.request('GET', '/api/auth/profile', { token: u.token })).json().user;
    expect(snapshotUser.timeZone).toBe('Asia/Tokyo');
    const cleared = await t.request('PUT', '/api/auth/time-zone', { token: u.token, body: { timeZone: null } });
    expect(cleared.json().user.timeZone).toBeNull();
  });

  it("accepts the IANA names a newer browser lists beside the runtime's own (aliases, UTC)", async () => {
    const u = await t.createUser();
    for (const zone of ['UTC', 'Asia/Kolkata', 'Europe/Kyiv', 'America/Argentina/Buenos_Aires', 'Etc/UTC']) {
      const res = await t.request('PUT', '/api/auth/time-zone', { token: u.token, body: { timeZone: zone } });
      expect(res.statusCode, zone).toBe(200);
      expect(res.json().user.timeZone).toBe(zone);
    }
  });

  it('refuses what is not an IANA zone with a 400 that says so, and keeps the saved one', async () => {
    const u = await t.createUser();
    await t.request('PUT', '/api/auth/time-zone', { token: u.token, body: { timeZone: 'Europe/Paris' } });
    for (const timeZone of [
      'Mars/Olympus',
      '+05:00',
      'europe/paris',
      'EST5EDT ',
      'Europe/Paris\n',
      '',
      'x'.repeat(200),
      42,
    ]) {
      const res = await t.request('PUT', '/api/auth/time-zone', { token: u.token, body: { timeZone } });
      expect(res.statusCode, String(timeZone)).toBe(400);
      expect(res.json().success).toBe(false);
      if (typeof timeZone === 'string' && !timeZone.includes('\n'))
        expect(res.json().errors.map((e: { msg: string }) => e.msg)).toContain(TIME_ZONE_INVALID);
    }
    expect((await t.request('PUT', '/api/auth/time-zone', { token: u.token, body: {} })).statusCode).toBe(400);
    const now = (await t.request('GET', '/api/auth/profile', { token: u.token })).json().user;
    expect(now.timeZone).toBe('Europe/Paris');
  });

  it('needs a signed-in caller', async () => {
    const res = await t.request('PUT', '/api/auth/time-zone', { body: { timeZone: 'UTC' } });
    expect(res.statusCode).toBe(401);
  });
});
