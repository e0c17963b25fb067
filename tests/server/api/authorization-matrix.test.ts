// Every endpoint of spec section 7 × {anonymous, owner, another user, admin}, each with a request that is valid in
// every other respect, so that the status says only who may do what.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../helpers/database';
import { insertTrades } from './seed';
import { createEngineApp, USER_PASSWORD, type Actor, type EngineApp } from './engine-app';

type ActorName = 'anonymous' | 'owner' | 'other' | 'admin';
const ACTORS: ActorName[] = ['anonymous', 'owner', 'other', 'admin'];

interface Context {
  owner: Actor;
  other: Actor;
  admin: Actor;
  ownerTradeId: string;
  /** A user per admin-action row, so that deleting or deactivating it disturbs no other row. */
  victims: Record<string, string>;
}

interface Row {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Route pattern as registered (with :id). */
  route: string;
  id?: (ctx: Context) => string;
  /** A valid query string, for routes that require one. */
  query?: () => string;
  body?: (ctx: Context, actor: Actor | null) => unknown;
  expect: Record<ActorName, number | readonly number[]>;
  /** The request ends the session it uses: sign in afresh for it. */
  endsSession?: boolean;
  /** A successful answer is this content type rather than the API's JSON. */
  contentType?: string;
}

const OK_FOR_SIGNED_IN = { anonymous: 401, owner: 200, other: 200, admin: 200 } as const;
const ADMIN_ONLY = (ok: number) => ({ anonymous: 401, owner: 403, other: 403, admin: ok });
/** The engine decides a manual trade (created, or refused by a limit); only authorization is asserted here. */
const TRADE_ANSWERS = [201, 400, 409] as const;
let created = 0;

/** A subscription of the actor's own (never sent to: the next row removes it). */
const matrixSubscription = (actor: Actor | null) => ({
  endpoint: `https://push.example.test/matrix/${actor?.user._id ?? 'anonymous'}`,
  keys: { p256dh: 'B'.repeat(87), auth: 'A'.repeat(22) },
});

const ROWS: Row[] = [
  {
    method: 'POST',
    route: '/api/auth/login',
    body: (ctx) => ({ username: ctx.owner.user.email, password: USER_PASSWORD }),
    expect: { anonymous: 200, owner: 200, other: 200, admin: 200 },
  },
  {
    method: 'POST',
    route: '/api/auth/register',
    body: () => ({ username: `reg${++created}`, email: `reg${created}@example.test`, password: 'long-enough-1' }),
    expect: { anonymous: 403, owner: 403, other: 403, admin: 403 },
  },
  { method: 'GET', route: '/api/auth/registration', expect: { anonymous: 200, owner: 200, other: 200, admin: 200 } },
  { method: 'POST', route: '/api/auth/logout', endsSession: true, expect: OK_FOR_SIGNED_IN },
  {
    method: 'PUT',
    route: '/api/auth/change-password',
    // A wrong current password: 400 shows the caller got past authentication without changing anything.
    body: () => ({ currentPassword: 'not-the-password', newPassword: 'a-new-password-1' }),
    expect: { anonymous: 401, owner: 400, other: 400, admin: 400 },
  },
  { method: 'GET', route: '/api/auth/profile', expect: OK_FOR_SIGNED_IN },
  {
    method: 'PUT',
    route: '/api/auth/profile',
    body: (_ctx, actor) => ({
      username: actor?.user.username ?? 'nobody',
      email: actor?.user.email ?? 'nobody@example.test',
    }),
    expect: OK_FOR_SIGNED_IN,
  },
  {
    method: 'PUT',
    route: '/api/auth/time-zone',
    body: () => ({ timeZone: 'Europe/Paris' }),
    expect: OK_FOR_SIGNED_IN,
  },
  {
    method: 'PUT',
    route: '/api/users/:id',
    id: (ctx) => ctx.owner.user._id,
    body: () => ({ maxLoss: 150 }),
    expect: { anonymous: 401, owner: 200, other: 403, admin: 403 },
  },
  {
    method: 'PUT',
    route: '/api/users/:id/api-keys',
    id: (ctx) => ctx.owner.user._id,
    body: () => ({ derivAppId: '1089' }),
    expect: { anonymous: 401, owner: 200, other: 403, admin: 403 },
  },
  { method: 'GET', route: '/api/trades', expect: OK_FOR_SIGNED_IN },
  {
    method: 'POST',
    route: '/api/trades',
    body: () => ({ symbol: 'BTC/USDT', totalAmount: 10 }),
    expect: { anonymous: 401, owner: TRADE_ANSWERS, other: TRADE_ANSWERS, admin: TRADE_ANSWERS },
  },
  {
    method: 'PUT',
    route: '/api/trades/:id/status',
    id: (ctx) => ctx.ownerTradeId,
    body: () => ({ status: 'cancelled' }),
    // The owner reaches the trade (a completed one cannot be cancelled: 400); nobody else learns it exists.
    expect: { anonymous: 401, owner: 400, other: 404, admin: 404 },
  },
  { method: 'GET', route: '/api/trades/stats/summary', expect: OK_FOR_SIGNED_IN },
  { method: 'GET', route: '/api/trades/stats/risk', expect: OK_FOR_SIGNED_IN },
  { method: 'GET', route: '/api/trades/changes', expect: OK_FOR_SIGNED_IN },
  // Only the owner sees the trade; anyone else (an admin too) is told it does not exist.
  {
    method: 'GET',
    route: '/api/trades/:id',
    id: (ctx) => ctx.ownerTradeId,
    expect: { anonymous: 401, owner: 200, other: 404, admin: 404 },
  },
  // Each caller gets a file of their own trades only (tests/server/api/trade-export.test.ts checks whose rows).
  { method: 'GET', route: '/api/trades/export.csv', expect: OK_FOR_SIGNED_IN, contentType: 'text/csv; charset=utf-8' },
  { method: 'GET', route: '/api/balances', expect: OK_FOR_SIGNED_IN },
  { method: 'GET', route: '/api/balances/stats/portfolio', expect: OK_FOR_SIGNED_IN },
  { method: 'GET', route: '/api/exchanges/prices', expect: OK_FOR_SIGNED_IN },
  {
    method: 'GET',
    route: '/api/exchanges/spreads',
    query: () =>
      `?symbol=BTC%2FUSDT&from=${new Date(Date.now() - 3_600_000).toISOString()}&to=${new Date().toISOString()}`,
    expect: OK_FOR_SIGNED_IN,
  },
  {
    method: 'POST',
    route: '/api/exchanges/test-connection',
    body: () => ({ exchange: 'binance' }),
    expect: OK_FOR_SIGNED_IN,
  },
  { method: 'POST', route: '/api/exchanges/sync', expect: OK_FOR_SIGNED_IN },
  { method: 'POST', route: '/api/exchanges/trading/add-user', expect: OK_FOR_SIGNED_IN },
  { method: 'POST', route: '/api/exchanges/trading/remove-user', expect: OK_FOR_SIGNED_IN },
  { method: 'GET', route: '/api/admin/users', expect: ADMIN_ONLY(200) },
  {
    method: 'POST',
    route: '/api/admin/users',
    body: () => ({
      username: `made${++created}`,
      email: `made${created}@example.test`,
      password: 'secret-1',
      role: 'user',
    }),
    expect: ADMIN_ONLY(201),
  },
  {
    method: 'PUT',
    route: '/api/admin/users/:id/toggle-active',
    id: (ctx) => ctx.victims.toggle as string,
    expect: ADMIN_ONLY(200),
  },
  {
    method: 'DELETE',
    route: '/api/admin/users/:id',
    id: (ctx) => ctx.victims.delete as string,
    expect: ADMIN_ONLY(200),
  },
  {
    method: 'POST',
    route: '/api/backtest',
    body: () => ({
      symbol: 'both',
      from: new Date(Date.now() - 3_600_000).toISOString(),
      to: new Date().toISOString(),
      minSpread: 0.002,
      maxExposure: 1000,
      maxLoss: 100,
    }),
    // Replayed when the engine has recorded prices in the last hour; else a 400 that says none were recorded.
    expect: { anonymous: 401, owner: [200, 400], other: [200, 400], admin: [200, 400] },
  },
  { method: 'GET', route: '/api/meta', expect: OK_FOR_SIGNED_IN },
  { method: 'GET', route: '/api/snapshot', expect: OK_FOR_SIGNED_IN },
  // Web push: every signed-in user manages their own devices and choices; nobody reaches another's.
  { method: 'GET', route: '/api/notifications/vapid-public-key', expect: OK_FOR_SIGNED_IN },
  {
    method: 'POST',
    route: '/api/notifications/subscriptions',
    body: (_ctx, actor) => matrixSubscription(actor),
    expect: { anonymous: 401, owner: 201, other: 201, admin: 201 },
  },
  {
    method: 'POST',
    route: '/api/notifications/subscriptions/remove',
    body: (_ctx, actor) => ({ endpoint: matrixSubscription(actor).endpoint }),
    expect: OK_FOR_SIGNED_IN,
  },
  { method: 'GET', route: '/api/notifications/preferences', expect: OK_FOR_SIGNED_IN },
  {
    method: 'PUT',
    route: '/api/notifications/preferences',
    body: () => ({ tradeCompleted: true }),
    expect: OK_FOR_SIGNED_IN,
  },
  // Signed in, past authorization: no device left (the row above removed it), so nothing to send to.
  { method: 'POST', route: '/api/notifications/test', expect: { anonymous: 401, owner: 409, other: 409, admin: 409 } },
  // The caller's own history: another user's ids change nothing, so every signed-in caller gets a 200.
  { method: 'GET', route: '/api/notifications', query: () => '?limit=10', expect: OK_FOR_SIGNED_IN },
  {
    method: 'POST',
    route: '/api/notifications/read',
    body: () => ({ ids: ['00000000-0000-4000-8000-000000000001'] }),
    expect: OK_FOR_SIGNED_IN,
  },
  { method: 'POST', route: '/api/notifications/read-all', expect: OK_FOR_SIGNED_IN },
  { method: 'GET', route: '/api/notifications/telegram', expect: OK_FOR_SIGNED_IN },
  // Signed in, past authorization: this suite's server has no bot (tests/server/telegram covers one that has).
  {
    method: 'POST',
    route: '/api/notifications/telegram/link',
    body: () => ({ timeZone: 'UTC' }),
    expect: { anonymous: 401, owner: 409, other: 409, admin: 409 },
  },
  { method: 'DELETE', route: '/api/notifications/telegram', expect: OK_FOR_SIGNED_IN },
  { method: 'GET', route: '/api/admin/audit', query: () => '?action=sign_in&page=1', expect: ADMIN_ONLY(200) },
  // The suite's app keeps no embedded database to back up (tests/server/ops/admin-backup.test.ts downloads one).
  { method: 'GET', route: '/api/admin/backup', expect: ADMIN_ONLY(409) },
  { method: 'GET', route: '/api/admin/engine', expect: ADMIN_ONLY(200) },
  { method: 'GET', route: '/api/admin/pairs', expect: ADMIN_ONLY(200) },
  { method: 'GET', route: '/api/auth/activity', expect: OK_FOR_SIGNED_IN },
  { method: 'POST', route: '/api/exchanges/trading/stop-and-flatten', expect: OK_FOR_SIGNED_IN },
  // Anyone may try the second sign-in step; a made-up challenge is refused alike.
  {
    method: 'POST',
    route: '/api/auth/login/2fa',
    body: () => ({ challenge: 'made-up', code: '123456' }),
    expect: { anonymous: 401, owner: 401, other: 401, admin: 401 },
  },
  { method: 'GET', route: '/api/auth/2fa', expect: OK_FOR_SIGNED_IN },
  { method: 'POST', route: '/api/auth/2fa/setup', expect: OK_FOR_SIGNED_IN },
  // After setup: a wrong code is refused (400), which shows the caller got past authentication.
  {
    method: 'POST',
    route: '/api/auth/2fa/enable',
    body: () => ({ code: '000000' }),
    expect: { anonymous: 401, owner: 400, other: 400, admin: 400 },
  },
  {
    method: 'POST',
    route: '/api/auth/2fa/disable',
    body: () => ({ code: '000000' }),
    expect: { anonymous: 401, owner: 400, other: 400, admin: 400 },
  },
  // The owner has no second factor to reset: 400 for the admin, who alone gets that far.
  { method: 'POST', route: '/api/admin/users/:id/2fa/reset', id: (ctx) => ctx.owner.user._id, expect: ADMIN_ONLY(400) },
  // Halt then resume at once, so the rows after these trade as before.
  {
    method: 'POST',
    route: '/api/admin/trading/halt',
    body: () => ({ reason: 'authorization matrix' }),
    expect: ADMIN_ONLY(200),
  },
  { method: 'POST', route: '/api/admin/trading/resume', expect: ADMIN_ONLY(200) },
  { method: 'GET', route: '/api/docs', expect: { anonymous: 200, owner: 200, other: 200, admin: 200 } },
];

describe.each(backends)('authorization matrix on %s', (backend) => {
  let t: EngineApp;
  let ctx: Context;

  beforeAll(async () => {
    t = await createEngineApp(backend);
    const [owner, other, toggle, del] = [
      await t.createUser(),
      await t.createUser(),
      await t.createUser(),
      await t.createUser(),
    ];
    const [ownerTradeId] = await insertTrades(t.db, owner.user._id, [{ status: 'completed', actualProfit: '1.5' }]);
    ctx = {
      owner,
      other,
      admin: t.admin,
      ownerTradeId: ownerTradeId as string,
      victims: { toggle: toggle.user._id, delete: del.user._id },
    };
  });
  afterAll(async () => {
    await t?.close();
  });

  const actorOf = async (name: ActorName, fresh: boolean): Promise<Actor | null> => {
    if (name === 'anonymous') return null;
    const actor = ctx[name];
    return fresh ? t.signIn(actor.user.email, actor.password) : actor;
  };

  for (const row of ROWS) {
    for (const name of ACTORS) {
      const expected = row.expect[name];
      const wanted = typeof expected === 'number' ? [expected] : [...expected];
      it(`${row.method} ${row.route} as ${name} → ${wanted.join('/')}`, async () => {
        // A row whose route the app does not register is a failure, not a skip: a moved or renamed route must not
        // leave its authorization unchecked.
        expect(
          t.app.hasRoute({ method: row.method, url: row.route }),
          `${row.method} ${row.route} is not registered`,
        ).toBe(true);
        const actor = await actorOf(name, row.endsSession === true);
        const url = (row.id ? row.route.replace(':id', row.id(ctx)) : row.route) + (row.query?.() ?? '');
        const body = row.body?.(ctx, actor);
        const res = await t.request(row.method, url, {
          ...(actor && { token: actor.token }),
          ...(body !== undefined && { body }),
        });
        expect(wanted, `${res.statusCode} ${res.body.slice(0, 300)}`).toContain(res.statusCode);
        if (row.contentType && res.statusCode < 400) {
          expect(res.headers['content-type']).toBe(row.contentType);
          return;
        }
        const json = res.json() as { success?: boolean; message?: string };
        if (res.statusCode >= 400) {
          expect(json.success).toBe(false);
          expect(json.message).toEqual(expect.any(String));
        } else if (row.route !== '/api/docs') {
          expect(json.success).toBe(true);
        }
      });
    }
  }

  it('covers every route the app registers under /api', () => {
    const doc = t.app.swagger() as { paths: Record<string, Record<string, unknown>> };
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
    );
    const inMatrix = new Set(ROWS.map((r) => `${r.method} ${r.route}`));
    expect(documented.filter((route) => !inMatrix.has(route))).toEqual([]);
  });
});
