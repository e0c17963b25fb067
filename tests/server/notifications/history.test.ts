// The notifications history on a real database: every notification sent through the app's push service (the engine's
// bridge, the kill switches, the test button) is written down for its user by their preferences, announced live, read
// a page at a time by cursor, marked read, kept to the newest NOTIFICATION_HISTORY_LIMIT a user; bad input is a 400
// in the spec's error shape.
import { Subject } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_EVENTS } from '../../../contract/events';
import type { Trade } from '../../../contract/entities';
import {
  NOTIFICATION_HISTORY_LIMIT,
  type NotificationsReadResponse,
  type NotificationsResponse,
  type SentNotification,
} from '../../../contract/notification-history';
import type { PushMessage } from '../../../contract/notifications';
import type { EngineEvent } from '../../../server/engine/events';
import { listNotifications, recordNotification } from '../../../server/db/repositories/notification-history';
import { startPushBridge, testMessage, type PushService } from '../../../server/notifications';
import { backends, createTestApp, type SignedIn, type TestApp } from '../helpers/app';

/** The devices' side, faked: what the history does must not depend on whether a push service answered. */
const devices = (): PushService & { sent: Array<{ userId: string; message: PushMessage }> } => {
  const sent: Array<{ userId: string; message: PushMessage }> = [];
  return {
    sent,
    publicKey: 'test-key',
    refusalOf: async () => null,
    send: async (userId, message) => {
      sent.push({ userId, message });
      return { sent: 0, removed: 0, failed: 0 };
    },
    broadcast: async () => ({ sent: 0, removed: 0, failed: 0 }),
  };
};

const message = (n: number, over: Partial<PushMessage> = {}): PushMessage => ({
  kind: 'tradeCompleted',
  title: `Closed — converged: BTC/USDT +${n}.00 USDT`,
  body: `T-${n} · 100 USDT automated trade · converged`,
  url: '/trades',
  tag: `trade-${n}`,
  at: new Date(Date.UTC(2026, 10, 20, 10, 0, n)).toISOString(),
  ...over,
});

describe.each(backends)('notifications history on %s', (backend) => {
  let t: TestApp;
  let alice: SignedIn;

  beforeAll(async () => {
    t = await createTestApp(backend, { build: { push: devices() } });
    alice = await t.createUser();
  });
  afterAll(async () => {
    await t?.close();
  });

  const list = async (who: SignedIn, query = '') => {
    const res = await t.request('GET', `/api/notifications${query}`, { token: who.token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as NotificationsResponse;
  };

  it('writes down what the engine’s bridge sends, in the words sent, and announces it to the user’s apps', async () => {
    const events$ = new Subject<EngineEvent>();
    const bridge = startPushBridge({ events$, isLeader: () => true, push: t.app.push, logger: t.app.log });
    const trade: Trade = {
      _id: '5b0c4b8e-0000-4000-8000-000000000001',
      tradeId: 'T-1',
      userId: alice.user._id,
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
    };
    const written = new Promise<SentNotification>((resolve) => {
      const s = t.app.notificationsSent$.subscribe((n) => {
        if (n.userId === alice.user._id) {
          s.unsubscribe();
          resolve(n.notification);
        }
      });
    });
    events$.next({ type: SERVER_EVENTS.tradeUpdated, userId: alice.user._id, trade });
    const live = await written;
    bridge.unsubscribe();

    const page = await list(alice);
    expect(page.unread).toBe(1);
    expect(page.nextCursor).toBeNull();
    expect(page.notifications).toEqual([live]);
    expect(live).toMatchObject({
      kind: 'tradeCompleted',
      title: 'Closed — converged: BTC/USDT +1.25 USDT',
      body: 'T-1 · 100 USDT automated trade · converged',
      url: '/trades',
      readAt: null,
    });
    // Another user sees none of it.
    expect((await list(await t.createUser())).notifications).toEqual([]);
  });

  it('follows the user’s preferences as push does (a test is always written down); a broadcast reaches every active user', async () => {
    const bob = await t.createUser();
    const saved = await t.request('PUT', '/api/notifications/preferences', {
      token: bob.token,
      body: { tradeCompleted: false },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    await t.app.push.send(bob.user._id, message(1));
    await t.app.push.send(bob.user._id, testMessage());
    expect((await list(bob)).notifications.map((n) => n.title)).toEqual(['Test notification']);

    const halted = await t.request('POST', '/api/admin/trading/halt', {
      token: t.admin.token,
      body: { reason: 'test' },
    });
    expect(halted.statusCode, halted.body).toBe(200);
    expect((await t.request('POST', '/api/admin/trading/resume', { token: t.admin.token })).statusCode).toBe(200);
    // The halt answers before its broadcast is written down for every user: wait for it, not for the answer.
    for (const who of [alice, bob])
      await expect
        .poll(async () => (await list(who)).notifications[0]?.title, { timeout: 15_000 })
        .toBe('Automated trading: Halted by an admin');
  });

  it('pages newest first by cursor and marks some or all read; another user’s ids change nothing', async () => {
    const carol = await t.createUser();
    for (let n = 1; n <= 5; n++) await t.app.push.send(carol.user._id, message(n));
    const first = await list(carol, '?limit=2');
    expect(first.notifications.map((n) => n.title)).toEqual([message(5).title, message(4).title]);
    expect(first.nextCursor).not.toBeNull();
    const second = await list(carol, `?limit=2&cursor=${first.nextCursor}`);
    expect(second.notifications.map((n) => n.title)).toEqual([message(3).title, message(2).title]);
    const third = await list(carol, `?limit=2&cursor=${second.nextCursor}`);
    expect(third.notifications.map((n) => n.title)).toEqual([message(1).title]);
    expect(third.nextCursor).toBeNull();
    expect(first.notifications[0]?.sentAt).toBe(message(5).at);

    const ids = first.notifications.map((n) => n._id);
    const foreign = await t.request('POST', '/api/notifications/read', { token: alice.token, body: { ids } });
    expect((foreign.json() as NotificationsReadResponse).marked).toBe(0);
    const read = await t.request('POST', '/api/notifications/read', { token: carol.token, body: { ids } });
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toEqual({ success: true, marked: 2, unread: 3 });
    const again = await list(carol);
    expect(again.notifications.filter((n) => n.readAt !== null).map((n) => n._id)).toEqual(ids);

    const all = await t.request('POST', '/api/notifications/read-all', { token: carol.token });
    expect(all.json()).toEqual({ success: true, marked: 3, unread: 0 });
    expect((await list(carol)).unread).toBe(0);
  });

  it('keeps the newest notifications of each user only', async () => {
    expect(NOTIFICATION_HISTORY_LIMIT).toBe(500);
    const dan = await t.createUser();
    for (let n = 1; n <= 6; n++) await recordNotification(t.db, dan.user._id, message(n), 4);
    const kept = await listNotifications(t.db, dan.user._id, { limit: 100 });
    expect(kept.notifications.map((n) => n.title)).toEqual([6, 5, 4, 3].map((n) => message(n).title));
    // Other users' rows are not counted against dan's, nor pruned by his.
    expect((await list(alice)).notifications.length).toBeGreaterThan(0);
  });

  it('refuses bad input with a 400 in the spec’s shape, and strangers with a 401', async () => {
    for (const query of ['?limit=0', '?limit=101', '?limit=x', '?cursor=abc', '?cursor=0', '?cursor=1%00']) {
      const res = await t.request('GET', `/api/notifications${query}`, { token: alice.token });
      expect(res.statusCode, query).toBe(400);
      expect(res.json()).toMatchObject({ success: false, message: expect.any(String) });
    }
    for (const body of [{}, { ids: [] }, { ids: ['not-an-id'] }, { ids: 'x' }, null]) {
      const res = await t.request('POST', '/api/notifications/read', { token: alice.token, body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ success: false, message: expect.any(String) });
    }
    expect((await t.request('GET', '/api/notifications')).statusCode).toBe(401);
    expect((await t.request('POST', '/api/notifications/read-all')).statusCode).toBe(401);
  });
});
