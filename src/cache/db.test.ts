import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import type { Trade } from '../../contract/entities';
import { clearUserCaches, createUserCache } from './db';
import { CACHED_SPREADS_KEEP_MS, CACHED_TRADES_KEEP, cacheDbName } from './schema';

const trade = (n: number): Trade => ({
  _id: `t${n}`,
  tradeId: `T${n}`,
  userId: 'u',
  symbol: n % 2 ? 'BTC/USDT' : 'ETH/USDT',
  status: 'completed',
  totalAmount: 10,
  arbitrageSpread: 0.003,
  actualProfit: 0.1,
  origin: 'auto',
  reason: null,
  legs: [],
  createdAt: new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString(),
  updatedAt: new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString(),
  closedAt: null,
});

const dbExists = async (name: string) => (await indexedDB.databases()).some((d) => d.name === name);

describe('per-user IndexedDB cache', () => {
  it('stores snapshots with the time they were saved', async () => {
    const cache = createUserCache('user-a');
    await cache.writeSnapshot('balances', { total: 1 });
    const rec = await cache.readSnapshot<{ total: number }>('balances');
    expect(rec?.data).toEqual({ total: 1 });
    expect(rec?.savedAt).toBeGreaterThan(0);
    expect(await cache.readSnapshot('prices')).toBeUndefined();
    cache.close();
  });

  it('keeps the copy of a trade the server saved last: a slow page after a live event does not undo it', async () => {
    const cache = createUserCache('user-newest');
    const open = { ...trade(1), status: 'pending' as const };
    const closed = {
      ...open,
      status: 'completed' as const,
      updatedAt: new Date(Date.parse(open.updatedAt) + 5000).toISOString(),
    };
    await cache.putTrades([closed]);
    await cache.putTrades([open]);
    expect((await cache.recentTrades(1))[0]?.status).toBe('completed');
    // A newer copy still replaces it.
    const later = { ...closed, actualProfit: 0.2, updatedAt: new Date(Date.parse(closed.updatedAt) + 1).toISOString() };
    await cache.putTrades([later]);
    expect((await cache.recentTrades(1))[0]?.actualProfit).toBe(0.2);
    cache.close();
  });

  it('keeps the most recent trades, newest first, pruning the oldest beyond the limit', async () => {
    const cache = createUserCache('user-b');
    const many = Array.from({ length: CACHED_TRADES_KEEP + 25 }, (_, i) => trade(i));
    await cache.putTrades(many);
    const db = await cache.db();
    expect(await db?.count('trades')).toBe(CACHED_TRADES_KEEP);
    const recent = await cache.recentTrades(3);
    expect(recent.map((t) => t._id)).toEqual([
      `t${CACHED_TRADES_KEEP + 24}`,
      `t${CACHED_TRADES_KEEP + 23}`,
      `t${CACHED_TRADES_KEEP + 22}`,
    ]);
    expect(await db?.get('trades', 't0')).toBeUndefined();
    cache.close();
  });

  it('stores trade pages by query', async () => {
    const cache = createUserCache('user-c');
    await cache.writePage('status=&symbol=&page=1&limit=20', [trade(1)], { current: 1, pages: 1, total: 1 });
    expect((await cache.readPage('status=&symbol=&page=1&limit=20'))?.trades).toHaveLength(1);
    cache.close();
  });

  it('upgrades a version 1 database to hold spread history, keeping what it had', async () => {
    const v1 = await openDB(cacheDbName('user-g'), 1, {
      upgrade(db) {
        db.createObjectStore('snapshots', { keyPath: 'kind' });
        const trades = db.createObjectStore('trades', { keyPath: '_id' });
        trades.createIndex('createdAt', 'createdAt');
        trades.createIndex('symbol_createdAt', ['symbol', 'createdAt']);
        trades.createIndex('status_createdAt', ['status', 'createdAt']);
        db.createObjectStore('tradePages', { keyPath: 'key' });
      },
    });
    await v1.put('trades', trade(7));
    v1.close();

    const cache = createUserCache('user-g');
    expect((await cache.recentTrades(5)).map((t) => t._id)).toEqual(['t7']);
    const now = Date.UTC(2026, 0, 2);
    const at = (t: number, symbol: 'BTC/USDT' | 'ETH/USDT' = 'BTC/USDT') => ({
      symbol,
      t,
      binance: 1,
      deriv: 1,
      spread: 0,
      spreadLow: 0,
      spreadHigh: 0,
    });
    await cache.putSpreads(
      [at(now - CACHED_SPREADS_KEEP_MS - 1000), at(now - 5000), at(now - 1000), at(now - 3000, 'ETH/USDT')],
      now,
    );
    // The point older than a day is pruned as the others are written.
    expect((await cache.readSpreads('BTC/USDT', 0)).map((p) => p.t)).toEqual([now - 5000, now - 1000]);
    expect(await cache.lastSpreadAt('ETH/USDT')).toBe(now - 3000);
    expect(await cache.lastSpreadAt('BTC/USDT')).toBe(now - 1000);
    cache.close();
  });

  it('logout wipes the user database and leftovers of other users', async () => {
    const a = createUserCache('user-d');
    const b = createUserCache('user-e');
    await a.writeSnapshot('stats', {});
    await b.writeSnapshot('stats', {});
    a.close();
    b.close();
    await clearUserCaches('user-d');
    expect(await dbExists(cacheDbName('user-d'))).toBe(false);
    expect(await dbExists(cacheDbName('user-e'))).toBe(false);
  });

  it('storage that cannot be opened (private mode, quota) never breaks the app', async () => {
    const original = indexedDB.open.bind(indexedDB);
    indexedDB.open = () => {
      throw new DOMException('The user denied permission to access the database.', 'SecurityError');
    };
    try {
      const cache = createUserCache('user-f');
      await expect(cache.writeSnapshot('prices', {})).resolves.toBeUndefined();
      await expect(cache.readSnapshot('prices')).resolves.toBeUndefined();
      await expect(cache.putTrades([trade(1)])).resolves.toBeUndefined();
      await expect(cache.recentTrades(5)).resolves.toEqual([]);
      await expect(cache.putSpreads([], 0)).resolves.toBeUndefined();
      await expect(cache.readSpreads('BTC/USDT', 0)).resolves.toEqual([]);
      await expect(cache.lastSpreadAt('BTC/USDT')).resolves.toBeNull();
      expect(await cache.db()).toBeNull();
    } finally {
      indexedDB.open = original;
    }
  });
});
