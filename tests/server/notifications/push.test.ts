// Web push on the server, against a push service on loopback that decrypts every payload (RFC 8291) and checks its
// VAPID signature (RFC 8292): the subscription API, the test button's call, preferences, 404/410 removal, and the
// bridge that turns engine events into notifications on the leader only.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { Subject } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_EVENTS } from '../../../contract/events';
import { MAX_PUSH_DEVICES, type PushMessage } from '../../../contract/notifications';
import type { Trade } from '../../../contract/entities';
import { loadConfig } from '../../../server/config';
import type { EngineEvent } from '../../../server/engine/events';
import { TEST_NOTIFICATIONS_PER_MINUTE } from '../../../server/http/notifications';
import {
  killSwitchMessage,
  loadVapidKeys,
  startPushBridge,
  testMessage,
  VAPID_KEY_FILE,
} from '../../../server/notifications';
import { backends, createTestApp, type SignedIn, type TestApp } from '../helpers/app';
import { decryptPayload, startPushEndpoint, verifyVapid, type Device, type PushEndpoint } from './push-endpoint';

const trade = (over: Partial<Trade>): Trade => ({
  _id: '5b0c4b8e-0000-4000-8000-000000000001',
  tradeId: 'T-1',
  userId: 'u',
  symbol: 'BTC/USDT',
  status: 'completed',
  totalAmount: 100,
  arbitrageSpread: 0.003,
  actualProfit: 1.25,
  origin: 'auto',
  reason: 'converged',
  legs: [],
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:01:00.000Z',
  closedAt: '2026-01-01T00:01:00.000Z',
  ...over,
});

describe.each(backends)('web push on %s', (backend) => {
  let t: TestApp;
  let endpoint: PushEndpoint;
  let alice: SignedIn;

  beforeAll(async () => {
    endpoint = await startPushEndpoint();
    // This app may reach the push service on loopback (and nothing else): the tests of what may be reached use an
    // app with the real rule (push-egress.test.ts).
    t = await createTestApp(backend, {
      build: { pushEgress: { ca: endpoint.ca, isAllowed: (address) => address === '127.0.0.1' } },
    });
    alice = await t.createUser();
  });
  afterAll(async () => {
    await t?.close();
    await endpoint?.close();
  });

  const subscribe = async (who: SignedIn, device: Device) => {
    const res = await t.request('POST', '/api/notifications/subscriptions', {
      token: who.token,
      body: device.subscription,
      headers: { 'user-agent': 'Test\u0007Browser' },
    });
    expect(res.statusCode, res.body).toBe(201);
  };
  const received = async (device: Device, send: () => Promise<unknown>): Promise<PushMessage> => {
    const delivery = endpoint.next(device.id);
    await send();
    const d = await delivery;
    expect(d.headers['content-encoding']).toBe('aes128gcm');
    return JSON.parse(decryptPayload(device, d.body)) as PushMessage;
  };

  it('generates the VAPID pair once into DATA_DIR, owner-only, and serves its public key', async () => {
    const file = join(t.dataDir, VAPID_KEY_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const res = await t.request('GET', '/api/notifications/vapid-public-key', { token: alice.token });
    expect(res.json()).toEqual({ success: true, publicKey: loadVapidKeys(t.config).publicKey });
    expect(Buffer.from(res.json().publicKey, 'base64url')).toHaveLength(65);
    const configured = loadConfig({
      DATA_DIR: t.dataDir,
      VAPID_PUBLIC_KEY: 'B'.repeat(87),
      VAPID_PRIVATE_KEY: 'A'.repeat(43),
      VAPID_SUBJECT: 'https://example.test/contact',
    });
    expect(loadVapidKeys(configured)).toEqual({
      publicKey: 'B'.repeat(87),
      privateKey: 'A'.repeat(43),
      subject: 'https://example.test/contact',
    });
    expect(() => loadConfig({ VAPID_PUBLIC_KEY: 'B'.repeat(87) })).toThrow(/must be set together/);
  });

  it('sends an encrypted, VAPID-signed test notification to each of the caller’s devices', async () => {
    const phone = endpoint.device();
    await subscribe(alice, phone);
    const message = await received(phone, async () => {
      const res = await t.request('POST', '/api/notifications/test', { token: alice.token });
      expect(res.json()).toEqual({
        success: true,
        devices: 1,
        message:
          'Test notification sent to your device. If one does not show it, turn notifications off and on again there.',
      });
    });
    expect(message).toMatchObject({ kind: 'test', title: 'Test notification', url: '/settings', tag: 'test' });
    const last = endpoint.deliveries.at(-1);
    if (!last) throw new Error('no delivery');
    const vapid = await verifyVapid(last, endpoint.url);
    expect(vapid.publicKey).toBe(loadVapidKeys(t.config).publicKey);
    expect(vapid.subject).toBe(t.config.vapidSubject);
    expect(vapid.expiresIn).toBeGreaterThan(0);
    expect(vapid.expiresIn).toBeLessThanOrEqual(24 * 3600);
    expect(Number(last.headers.ttl)).toBeGreaterThan(0);
  });

  it('tells the user when their Stop & flatten is done, and every subscribed user when an admin halts trading', async () => {
    const dan = await t.createUser();
    const phone = endpoint.device();
    await subscribe(dan, phone);
    const flattened = await received(phone, async () => {
      const res = await t.request('POST', '/api/exchanges/trading/stop-and-flatten', { token: dan.token });
      expect(res.statusCode, res.body).toBeLessThan(300);
    });
    expect(flattened).toMatchObject({ kind: 'killSwitch', title: 'Stop & flatten done', tag: 'kill-switch' });
    expect(flattened.body).toMatch(/Automated trading is off \(by you\)/);
    const halted = await received(phone, async () => {
      const res = await t.request('POST', '/api/admin/trading/halt', {
        token: t.admin.token,
        body: { reason: 'test' },
      });
      expect(res.statusCode, res.body).toBe(200);
    });
    expect(halted).toMatchObject({
      kind: 'killSwitch',
      title: 'Automated trading: Halted by an admin',
      url: '/dashboard',
    });
    expect((await t.request('POST', '/api/admin/trading/resume', { token: t.admin.token })).statusCode).toBe(200);
  });

  it('answers the test alike whatever each push service said; forgets a device whose service answers 410 or 404', async () => {
    const bob = await t.createUser();
    const [fine, gone, lost, flaky] = [endpoint.device(), endpoint.device(), endpoint.device(), endpoint.device()];
    for (const device of [fine, gone, lost, flaky]) await subscribe(bob, device);
    endpoint.answer(gone.id, 410);
    endpoint.answer(lost.id, 404);
    endpoint.answer(flaky.id, 503);
    const delivered = endpoint.next(fine.id);
    const res = await t.request('POST', '/api/notifications/test', { token: bob.token });
    await delivered;
    // Nothing in the answer tells which device's service answered what (it would tell whoever registered an
    // endpoint what the service behind it said).
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      devices: 4,
      message:
        'Test notification sent to your 4 devices. If one does not show it, turn notifications off and on again there.',
    });
    // The expired ones were forgotten; the one whose service merely failed is kept for the next event.
    const prefs = await t.request('GET', '/api/notifications/preferences', { token: bob.token });
    expect(prefs.json().devices).toBe(2);
    for (const device of [fine, flaky]) endpoint.answer(device.id, 410);
    await t.request('POST', '/api/notifications/test', { token: bob.token });
    const again = await t.request('POST', '/api/notifications/test', { token: bob.token });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(
      'No device of yours receives notifications yet. Turn notifications on for this device first.',
    );
  });

  it('keeps at most 10 devices a user, letting the oldest go, also when they register at once', async () => {
    const gina = await t.createUser();
    const devices = Array.from({ length: MAX_PUSH_DEVICES + 2 }, () => endpoint.device());
    const messages: string[] = [];
    for (const device of devices) {
      const res = await t.request('POST', '/api/notifications/subscriptions', {
        token: gina.token,
        body: device.subscription,
      });
      expect(res.statusCode).toBe(201);
      messages.push(res.json().message);
    }
    expect(messages[0]).toBe('Notifications are on for this device');
    expect(messages.at(-1)).toBe(
      'Notifications are on for this device. Your oldest device no longer gets them: notifications reach at most 10 devices.',
    );
    const before = endpoint.deliveries.length;
    const report = await t.app.push.send(gina.user._id, testMessage());
    expect(report).toEqual({ sent: MAX_PUSH_DEVICES, removed: 0, failed: 0 });
    const reached = endpoint.deliveries.slice(before).map((d) => d.deviceId);
    expect(reached.sort()).toEqual(
      devices
        .slice(2)
        .map((d) => d.id)
        .sort(),
    );

    // Many registrations at once still leave ten.
    const hugo = await t.createUser();
    const burst = Array.from({ length: 25 }, () => endpoint.device());
    await Promise.all(
      burst.map((d) =>
        t.request('POST', '/api/notifications/subscriptions', { token: hugo.token, body: d.subscription }),
      ),
    );
    expect((await t.request('GET', '/api/notifications/preferences', { token: hugo.token })).json().devices).toBe(
      MAX_PUSH_DEVICES,
    );
  });

  it('keeps subscriptions per user: another user saving the same endpoint takes nothing over', async () => {
    const owner = await t.createUser();
    const intruder = await t.createUser();
    const phone = endpoint.device();
    await subscribe(owner, phone);
    // The intruder saves the owner's endpoint with keys of their own: that is a row of the intruder's.
    const theirs = endpoint.device();
    const copied = { endpoint: phone.subscription.endpoint, keys: theirs.subscription.keys };
    const res = await t.request('POST', '/api/notifications/subscriptions', { token: intruder.token, body: copied });
    expect(res.statusCode).toBe(201);
    // The owner's device still gets the owner's notifications, encrypted to the owner's keys.
    const message = await received(phone, () => t.app.push.send(owner.user._id, testMessage()));
    expect(message.kind).toBe('test');
    // The intruder removing "their" device leaves the owner's alone.
    await t.request('POST', '/api/notifications/subscriptions/remove', {
      token: intruder.token,
      body: { endpoint: phone.subscription.endpoint },
    });
    expect((await t.request('GET', '/api/notifications/preferences', { token: owner.token })).json().devices).toBe(1);
  });

  it('limits test notifications per user, saying when to try again', async () => {
    const frank = await t.createUser();
    const statuses: number[] = [];
    for (let i = 0; i < TEST_NOTIFICATIONS_PER_MINUTE + 1; i++)
      statuses.push((await t.request('POST', '/api/notifications/test', { token: frank.token })).statusCode);
    expect(statuses).toEqual([...Array(TEST_NOTIFICATIONS_PER_MINUTE).fill(409), 429]);
    const refused = await t.request('POST', '/api/notifications/test', { token: frank.token });
    expect(refused.json().message).toMatch(/^That is a lot of test notifications\. Try again in \d+ seconds?\.$/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Another user is not held up by it.
    expect((await t.request('POST', '/api/notifications/test', { token: alice.token })).statusCode).toBe(200);
  });

  it('saves preferences field by field and refuses unknown or non-boolean ones', async () => {
    const dave = await t.createUser();
    const initial = await t.request('GET', '/api/notifications/preferences', { token: dave.token });
    expect(initial.json()).toEqual({
      success: true,
      devices: 0,
      preferences: { tradeCompleted: true, tradeFailed: true, tradingPaused: true, maxLoss: true, killSwitch: true },
    });
    await t.request('PUT', '/api/notifications/preferences', { token: dave.token, body: { tradeCompleted: false } });
    const saved = await t.request('PUT', '/api/notifications/preferences', {
      token: dave.token,
      body: { killSwitch: false },
    });
    expect(saved.json().preferences).toMatchObject({ tradeCompleted: false, killSwitch: false, tradeFailed: true });
    for (const body of [{}, { tradeCompleted: 'yes' }, { sms: true }]) {
      const res = await t.request('PUT', '/api/notifications/preferences', { token: dave.token, body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().success).toBe(false);
    }
  });

  it('refuses subscriptions that are not https push services or carry malformed keys', async () => {
    const good = endpoint.device().subscription;
    const cases = [
      { ...good, endpoint: 'http://127.0.0.1/push/x' },
      { ...good, endpoint: 'not a url' },
      { ...good, keys: { ...good.keys, p256dh: 'short' } },
      { ...good, keys: { p256dh: good.keys.p256dh, auth: 'has spaces in it!!' } },
      { endpoint: good.endpoint },
    ];
    for (const body of cases) {
      const res = await t.request('POST', '/api/notifications/subscriptions', { token: alice.token, body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    const removed = await t.request('POST', '/api/notifications/subscriptions/remove', {
      token: alice.token,
      body: { endpoint: good.endpoint },
    });
    expect(removed.json().message).toBe('This device was not subscribed');
  });

  it('turns engine events into notifications on the leader only, once per trade state, by the user’s preferences', async () => {
    const erin = await t.createUser();
    const phone = endpoint.device();
    await subscribe(erin, phone);
    const events$ = new Subject<EngineEvent>();
    let leading = false;
    const bridge = startPushBridge({ events$, isLeader: () => leading, push: t.app.push, logger: t.app.log });
    try {
      const completed = trade({ userId: erin.user._id });
      const before = endpoint.deliveries.length;
      // A standby instance sees the event too (a late one after losing the lead): it sends nothing.
      events$.next({ type: SERVER_EVENTS.tradeUpdated, userId: erin.user._id, trade: completed });
      leading = true;
      const done = await received(phone, async () => {
        events$.next({ type: SERVER_EVENTS.tradeUpdated, userId: erin.user._id, trade: completed });
        // The same state persisted again is not announced again.
        events$.next({ type: SERVER_EVENTS.tradeUpdated, userId: erin.user._id, trade: completed });
      });
      expect(done).toMatchObject({
        kind: 'tradeCompleted',
        title: 'Closed — converged: BTC/USDT +1.25 USDT',
        url: '/trades',
        tag: `trade-${completed._id}`,
      });

      const failed = await received(phone, async () =>
        events$.next({
          type: SERVER_EVENTS.tradeUpdated,
          userId: erin.user._id,
          trade: trade({
            _id: '5b0c4b8e-0000-4000-8000-000000000002',
            status: 'failed',
            actualProfit: -0.02,
            reason: 'Deriv refused the stake',
          }),
        }),
      );
      expect(failed).toMatchObject({
        kind: 'tradeFailed',
        title: 'Failed: BTC/USDT',
        body: 'T-1 · Deriv refused the stake · unwind −0.0200 USDT',
      });

      const stopped = { tradingEnabled: false, tradingPausedAt: '2026-01-01T00:00:00.000Z' };
      const halt = await received(phone, async () =>
        events$.next({
          type: SERVER_EVENTS.notice,
          userId: erin.user._id,
          notice: {
            level: 'warning',
            message: 'm',
            user: {
              ...stopped,
              tradingStop: 'max-loss',
              tradingPauseReason: 'Max loss reached: 12 USDT below its peak',
            },
          },
        }),
      );
      expect(halt).toMatchObject({
        kind: 'maxLoss',
        title: 'Automated trading: Halted — max loss reached',
        url: '/settings',
      });
      expect(halt.body).toContain('Max loss reached: 12 USDT below its peak');

      await t.request('PUT', '/api/notifications/preferences', { token: erin.token, body: { tradingPaused: false } });
      const muted = await t.app.push.send(erin.user._id, { ...halt, kind: 'tradingPaused' });
      expect(muted).toEqual({ sent: 0, removed: 0, failed: 0, muted: true });

      const kill = await received(phone, () =>
        t.app.push.send(erin.user._id, killSwitchMessage({ scope: 'user', closed: 2, failed: 0, by: 'you' })),
      );
      expect(kill).toMatchObject({
        kind: 'killSwitch',
        title: 'Stop & flatten done',
        body: 'Automated trading is off (by you). 2 trades closed.',
      });
      // Three notifications and a kill switch reached the phone; the standby's event and the repeat did not.
      expect(endpoint.deliveries.length - before).toBe(4);
    } finally {
      bridge.unsubscribe();
    }
  });
});
