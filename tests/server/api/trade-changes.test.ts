// GET /api/trades/changes: the history sync's feed of changed trades, followed by a cursor.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TradeChangesResponse } from '../../../contract/api';
import { CHANGE_SETTLE_MS, listTradeChanges } from '../../../server/db/repositories/trade-changes';
import { updateTrade } from '../../../server/db/repositories/trade-writes';
import { backends, createTestApp, type SignedIn, type TestApp } from '../helpers/app';
import { insertTrades } from './seed';

const HOUR = 3_600_000;

describe.each(backends)('GET /api/trades/changes on %s', (backend) => {
  let t: TestApp;
  let alice: SignedIn;
  let bob: SignedIn;
  let ids: string[];
  const past = Date.now() - 24 * HOUR;

  beforeAll(async () => {
    t = await createTestApp(backend);
    alice = await t.createUser();
    bob = await t.createUser();
    // Changed one minute apart, in an order unlike their creation (newest created changed first).
    ids = await insertTrades(
      t.db,
      alice.user._id,
      Array.from({ length: 7 }, (_, i) => ({ updatedAt: new Date(past + (7 - i) * 60_000) })),
    );
    await insertTrades(t.db, bob.user._id, [{ updatedAt: new Date(past) }]);
  });
  afterAll(async () => {
    await t?.close();
  });

  const changes = async (query: string, who = alice) => {
    const res = await t.request('GET', `/api/trades/changes${query}`, { token: who.token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as TradeChangesResponse;
  };

  it("gives every one of the caller's trades, oldest change first, with a cursor to follow", async () => {
    const all = await changes('');
    expect(all.trades.map((x) => x._id)).toEqual([...ids].reverse());
    expect(all.more).toBe(false);
    expect(all.total).toBe(7);
    expect(all.cursor).toBe(`${all.trades[6]!.updatedAt.replace('Z', '000Z')}_${ids[0]}`);
    // Caught up: nothing more, the cursor stays.
    const again = await changes(`?after=${all.cursor}`);
    expect(again).toMatchObject({ trades: [], more: false, cursor: all.cursor, total: 7 });
  });

  it('pages by limit without repeating or skipping a change', async () => {
    const seen: string[] = [];
    let cursor = '';
    for (;;) {
      const page = await changes(`?limit=3${cursor && `&after=${cursor}`}`);
      seen.push(...page.trades.map((x) => x._id));
      cursor = page.cursor!;
      if (!page.more) break;
    }
    expect(seen).toEqual([...ids].reverse());
  });

  it('brings a trade changed later, and only that one', async () => {
    const before = await changes('');
    await updateTrade(t.db, ids[3]!, { status: 'failed', legs: [], actualProfit: '0', reason: 'test', closedAt: null });
    const after = await changes(`?after=${before.cursor}`);
    expect(after.trades.map((x) => x._id)).toEqual([ids[3]]);
    expect(after.trades[0]!.status).toBe('failed');
    // Just changed, so within the settling time: the cursor is held back and the change comes again (idempotent).
    expect(after.cursor! < `${after.trades[0]!.updatedAt}`).toBe(true);
    expect((await changes(`?after=${after.cursor}`)).trades.map((x) => x._id)).toEqual([ids[3]]);
    // Once settled it no longer comes.
    const settled = await listTradeChanges(
      t.db,
      alice.user._id,
      { after: after.cursor!, limit: 10 },
      Date.now() + CHANGE_SETTLE_MS + 1000,
    );
    expect(settled.trades.map((x) => x._id)).toEqual([ids[3]]);
    const later = await listTradeChanges(
      t.db,
      alice.user._id,
      { after: settled.cursor!, limit: 10 },
      Date.now() + CHANGE_SETTLE_MS + 1000,
    );
    expect(later.trades).toEqual([]);
  });

  it('limit=0 gives only where the feed stands', async () => {
    const head = await changes('?limit=0');
    expect(head.trades).toEqual([]);
    expect(head.total).toBe(7);
    const all = await changes('');
    const fromHead = await changes(`?after=${head.cursor}`);
    // Everything changed before the head is behind it; the one trade within the settling time is not.
    expect(fromHead.trades.length).toBeLessThan(all.trades.length);
    expect(fromHead.trades.map((x) => x._id)).toEqual([ids[3]]);
  });

  it("shows nobody another user's trades", async () => {
    const mine = await changes('', bob);
    expect(mine.trades).toHaveLength(1);
    expect(mine.trades[0]!.userId).toBe(bob.user._id);
  });

  it.each([
    'after=yesterday',
    'after=2026-02-31T00:00:00.000000Z_00000000-0000-0000-0000-000000000000',
    'after=2026-01-01T25:00:00.000000Z_00000000-0000-0000-0000-000000000000',
    'after=2026-01-01T00:00:00.000Z_00000000-0000-0000-0000-000000000000',
    'after=2026-01-01T00:00:00.000000Z_not-a-uuid',
    'limit=501',
    'limit=-1',
    'limit=x',
  ])('refuses %s with 400 in the API shape', async (query) => {
    const res = await t.request('GET', `/api/trades/changes?${query}`, { token: alice.token });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false });
  });

  it('answers 401 without a token', async () => {
    expect((await t.request('GET', '/api/trades/changes')).statusCode).toBe(401);
  });
});
