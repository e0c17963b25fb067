import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { clearUserCaches, createUserCache, type UserCache } from '../../../cache/db';
import type { Trade } from '../../../../contract/entities';
import { readHistoryMeta } from './historyMeta';
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
    const r = await syncTradeHistory({ cache, fetchPage: api.fetchPage });
    expect(api.calls).toEqual(Array.from({ length: 10 }, (_, i) => ({ page: i + 1, limit: 100 })));
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
    const r = await syncTradeHistory({ cache, fetchPage: api.fetchPage });
    expect(api.calls).toHaveLength(3);
    expect(r.meta).toMatchObject({ contiguousFrom: history[229]!.createdAt, serverTotal: 230 });
  });

  it('later syncs fetch only the new trades, down to the part already held', async () => {
    freshCache();
    let history = makeTrades(1200, { end: Date.UTC(2026, 10, 21, 9, 0) });
    const api = fakeTradesApi(() => history);
    await syncTradeHistory({ cache, fetchPage: api.fetchPage });
    const newer = makeTrades(150, { end: Date.UTC(2026, 10, 21, 12, 0), prefix: 'n' });
    history = [...newer, ...history];
    api.calls.length = 0;
    const r = await syncTradeHistory({ cache, fetchPage: api.fetchPage });
    expect(api.calls.map((c) => c.page)).toEqual([1, 2]);
    expect(r.meta?.newestSynced).toBe(newer[0]!.createdAt);
    // Still contiguous back to where the first sync reached.
    expect(r.meta?.contiguousFrom).toBe(makeTrades(1200, { end: Date.UTC(2026, 10, 21, 9, 0) })[999]!.createdAt);
    expect(r.meta?.serverTotal).toBe(1350);
  });

  it('refreshes trades the copy holds as pending, even below the part already synced', async () => {
    freshCache();
    // Trades 150..159 (newest-first index) are pending in the first sync.
    let history = makeTrades(400, { status: (i) => (i >= 150 && i < 160 ? 'pending' : 'completed') });
    const api = fakeTradesApi(() => history);
    await syncTradeHistory({ cache, fetchPage: api.fetchPage });
    history = history.map((t): Trade =>
      t.status === 'pending' ? { ...t, status: 'completed', actualProfit: 1.25 } : t,
    );
    api.calls.length = 0;
    await syncTradeHistory({ cache, fetchPage: api.fetchPage });
    expect(api.calls.map((c) => c.page)).toEqual([1, 2]);
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
    await expect(syncTradeHistory({ cache, fetchPage: failing })).rejects.toThrow('Network error');
    expect(await cache.recentTrades(1000)).toHaveLength(100);
    expect(await readHistoryMeta(cache)).toBeNull();
  });
});
