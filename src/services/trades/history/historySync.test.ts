import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { clearUserCaches, createUserCache, type UserCache } from '../../../cache/db';
import type { Trade } from '../../../../contract/entities';
import { readHistoryMeta, writeHistoryMeta } from './historyMeta';
import { syncTradeHistory } from './historySync';
import { fakeTradesApi, makeTrades } from '../../../../tests/client/testTrades';

let cache: UserCache;
afterEach(async () => {
  cache.close();
  await clearUserCaches(cache.userId);
});
const freshCache = () => (cache = createUserCache(`sync-${Math.random()}`));

describe('syncTradeHistory', () => {
  it('first sync downloads the 1,000 most recent trades in pages of 100 and stops there', async () => {
    freshCache();
    const history = makeTrades(1500);
    const api = fakeTradesApi(() => history);
    const r = await syncTradeHistory({ cache, ...api });
    expect(api.calls).toEqual(Array.from({ length: 10 }, (_, i) => ({ page: i + 1, limit: 100 })));
    // Where the change feed stood before the pages: the next sync follows it from there.
    expect(api.changeCalls).toEqual([{ after: null, limit: 0 }]);
    expect(r.tradesFetched).toBe(1000);
    expect(await cache.recentTrades(5000)).toHaveLength(1000);
    expect(r.meta).toMatchObject({
      newestSynced: history[0]!.createdAt,
      contiguousFrom: history[999]!.createdAt,
      serverTotal: 1500,
    });
  });

  it('a short history is fetched whole and marked complete', async () => {
    freshCache();
    const history = makeTrades(230);
    const api = fakeTradesApi(() => history);
    const r = await syncTradeHistory({ cache, ...api });
    expect(api.calls).toHaveLength(3);
    expect(r.meta).toMatchObject({ contiguousFrom: history[229]!.createdAt, serverTotal: 230 });
  });

  it('later syncs ask only for what changed since, from the change feed', async () => {
    freshCache();
    let history = makeTrades(1200, { end: Date.UTC(2026, 10, 21, 9, 0) });
    const api = fakeTradesApi(() => history);
    const first = await syncTradeHistory({ cache, ...api });
    const newer = makeTrades(150, { end: Date.UTC(2026, 10, 21, 12, 0), prefix: 'n' });
    history = [...newer, ...history];
    api.calls.length = 0;
    api.changeCalls.length = 0;
    const r = await syncTradeHistory({ cache, ...api });
    expect(api.calls).toEqual([]);
    expect(api.changeCalls).toEqual([{ after: first.meta?.cursor, limit: 500 }]);
    expect(r.tradesFetched).toBe(150);
    expect(r.meta?.newestSynced).toBe(newer[0]!.createdAt);
    // Still contiguous back to where the first sync reached.
    expect(r.meta?.contiguousFrom).toBe(makeTrades(1200, { end: Date.UTC(2026, 10, 21, 9, 0) })[999]!.createdAt);
    expect(r.meta?.serverTotal).toBe(1350);
  });

  it('brings trades the copy holds as pending once they closed, even below the part first synced', async () => {
    freshCache();
    // Trades 150..159 (newest-first index) are pending in the first sync.
    let history = makeTrades(400, { status: (i) => (i >= 150 && i < 160 ? 'pending' : 'completed') });
    const api = fakeTradesApi(() => history);
    await syncTradeHistory({ cache, ...api });
    const closedAt = new Date(Date.UTC(2026, 10, 21, 11, 0)).toISOString();
    history = history.map((t): Trade =>
      t.status === 'pending' ? { ...t, status: 'completed', actualProfit: 1.25, updatedAt: closedAt } : t,
    );
    api.calls.length = 0;
    const r = await syncTradeHistory({ cache, ...api });
    // Only the ten trades that changed travel.
    expect(api.calls).toEqual([]);
    expect(r.tradesFetched).toBe(10);
    const held = await cache.recentTrades(1000);
    expect(held.filter((t) => t.status === 'pending')).toEqual([]);
  });

  it('a failed page propagates and leaves what was stored', async () => {
    freshCache();
    const history = makeTrades(300);
    const api = fakeTradesApi(() => history);
    const failing = async (page: number, limit: number) => {
      if (page === 2) throw new Error('Network error');
      return api.fetchPage(page, limit);
    };
    await expect(syncTradeHistory({ cache, ...api, fetchPage: failing })).rejects.toThrow('Network error');
    expect(await cache.recentTrades(1000)).toHaveLength(100);
    expect(await readHistoryMeta(cache)).toBeNull();
  });

  it('takes many changes in several answers, each continuing from the last', async () => {
    freshCache();
    let history = makeTrades(100, { end: Date.UTC(2026, 10, 21, 9, 0) });
    const api = fakeTradesApi(() => history);
    await syncTradeHistory({ cache, ...api });
    history = [...makeTrades(1200, { end: Date.UTC(2026, 10, 22, 9, 0), prefix: 'n' }), ...history];
    api.changeCalls.length = 0;
    const r = await syncTradeHistory({ cache, ...api });
    expect(api.changeCalls.map((c) => c.limit)).toEqual([500, 500, 500]);
    expect(r.tradesFetched).toBe(1200);
    expect(r.meta).toMatchObject({ newestSynced: history[0]!.createdAt, serverTotal: 1300 });
  });

  it('a copy filled by pages before the change feed existed is joined by pages once, then follows the feed', async () => {
    freshCache();
    let history = makeTrades(300, { end: Date.UTC(2026, 10, 21, 9, 0) });
    const api = fakeTradesApi(() => history);
    await syncTradeHistory({ cache, ...api });
    const { cursor: _dropped, ...older } = (await readHistoryMeta(cache))!;
    await writeHistoryMeta(cache, older);
    history = [...makeTrades(30, { end: Date.UTC(2026, 10, 21, 12, 0), prefix: 'n' }), ...history];
    api.calls.length = 0;
    api.changeCalls.length = 0;
    const r = await syncTradeHistory({ cache, ...api });
    expect(api.calls.map((c) => c.page)).toEqual([1]);
    expect(api.changeCalls).toEqual([{ after: null, limit: 0 }]);
    expect(r.meta).toMatchObject({ contiguousFrom: history[329]!.createdAt, serverTotal: 330 });
    expect(r.meta?.cursor).toBeTruthy();
  });

  it('a failed change request keeps the cursor, so the same changes are asked for again', async () => {
    freshCache();
    let history = makeTrades(50);
    const api = fakeTradesApi(() => history);
    const first = await syncTradeHistory({ cache, ...api });
    history = [...makeTrades(5, { end: Date.UTC(2026, 10, 22), prefix: 'n' }), ...history];
    const down = async () => Promise.reject(new Error('Network error'));
    await expect(syncTradeHistory({ cache, ...api, fetchChanges: down })).rejects.toThrow('Network error');
    expect((await readHistoryMeta(cache))?.cursor).toBe(first.meta?.cursor);
    const r = await syncTradeHistory({ cache, ...api });
    expect(r.tradesFetched).toBe(5);
    expect(await cache.recentTrades(1000)).toHaveLength(55);
  });
});
