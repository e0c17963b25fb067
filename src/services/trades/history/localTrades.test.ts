import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { clearUserCaches, createUserCache, type UserCache } from '../../../cache/db';
import { writeHistoryMeta } from './historyMeta';
import { queryLocalTrades } from './localTrades';
import { cachedTradePage, localCoverage } from './cachedTradePage';
import { makeTrades } from '../../../../tests/client/testTrades';

let cache: UserCache;
afterEach(async () => {
  cache.close();
  await clearUserCaches(cache.userId);
});

async function seeded(n: number) {
  cache = createUserCache(`local-${Math.random()}`);
  const trades = makeTrades(n);
  await cache.putTrades(trades);
  const db = await cache.db();
  if (!db) throw new Error('no IndexedDB');
  return { trades, db };
}

describe('queryLocalTrades', () => {
  it('pages the whole local history newest first with server-shaped pagination', async () => {
    const { trades, db } = await seeded(45);
    const p1 = await queryLocalTrades(db, { status: '', symbol: '', page: 1, limit: 20 }, null);
    expect(p1.trades.map((t) => t._id)).toEqual(trades.slice(0, 20).map((t) => t._id));
    expect(p1.pagination).toEqual({ current: 1, pages: 3, total: 45 });
    const p3 = await queryLocalTrades(db, { status: '', symbol: '', page: 3, limit: 20 }, null);
    expect(p3.trades.map((t) => t._id)).toEqual(trades.slice(40).map((t) => t._id));
  });

  it.each([
    { status: 'failed', symbol: '' },
    { status: '', symbol: 'ETH/USDT' },
    { status: 'completed', symbol: 'BTC/USDT' },
  ] as const)('filters by status=%s symbol=%s exactly like the server would', async ({ status, symbol }) => {
    const { trades, db } = await seeded(120);
    const expected = trades.filter((t) => (!status || t.status === status) && (!symbol || t.symbol === symbol));
    const page2 = await queryLocalTrades(db, { status, symbol, page: 2, limit: 10 }, null);
    expect(page2.trades.map((t) => t._id)).toEqual(expected.slice(10, 20).map((t) => t._id));
    expect(page2.pagination).toEqual({ current: 2, pages: Math.ceil(expected.length / 10), total: expected.length });
  });

  it('keeps to the contiguous range the sync vouches for and reports how far back it reaches', async () => {
    const { trades, db } = await seeded(50);
    const from = trades[29]!.createdAt; // the 30 newest are contiguous; older ones came from stray pages
    const meta = { newestSynced: trades[0]!.createdAt, contiguousFrom: from, serverTotal: 80, syncedAt: 1 };
    const page = await queryLocalTrades(db, { status: '', symbol: '', page: 1, limit: 100 }, meta);
    expect(page.pagination.total).toBe(30);
    expect(page.coverage).toEqual({ count: 30, oldest: from, complete: false });
  });

  it('an empty page past the end still answers with the total', async () => {
    const { db } = await seeded(5);
    const page = await queryLocalTrades(db, { status: '', symbol: '', page: 4, limit: 10 }, null);
    expect(page.trades).toEqual([]);
    expect(page.pagination).toEqual({ current: 4, pages: 1, total: 5 });
  });
});

describe('cachedTradePage', () => {
  it('answers any filter from the local history, with the sync time as its age', async () => {
    const { trades } = await seeded(30);
    await writeHistoryMeta(cache, {
      newestSynced: trades[0]!.createdAt,
      contiguousFrom: trades[29]!.createdAt,
      serverTotal: 30,
      syncedAt: 1234,
    });
    const got = await cachedTradePage(cache, { status: 'failed', symbol: '', page: 1, limit: 5 }, 'k');
    expect(got?.savedAt).toBe(1234);
    expect(got?.value.trades.every((t) => t.status === 'failed')).toBe(true);
    expect(await localCoverage(cache)).toEqual({ count: 30, oldest: trades[29]!.createdAt, complete: true });
  });

  it('falls back to a page stored verbatim while the history is empty', async () => {
    cache = createUserCache(`local-${Math.random()}`);
    const trades = makeTrades(3);
    await cache.writePage('k', trades, { current: 1, pages: 1, total: 3 });
    const got = await cachedTradePage(cache, { status: '', symbol: '', page: 1, limit: 20 }, 'k');
    expect(got?.value.pagination.total).toBe(3);
    expect(await cachedTradePage(cache, { status: '', symbol: '', page: 1, limit: 20 }, 'other')).toBeUndefined();
  });
});
