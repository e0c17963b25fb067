import { deleteDB, openDB, type IDBPDatabase } from 'idb';
import type { SymbolId } from '../../contract/domain';
import type { Pagination, SpreadPoint, Trade } from '../../contract/entities';
import type { SpreadSample } from '../../contract/spreads';
import {
  CACHE_DB_PREFIX,
  CACHE_DB_VERSION,
  CACHED_SPREADS_KEEP_MS,
  CACHED_TRADES_KEEP,
  cacheDbName,
  type CacheSchema,
  type SnapshotKind,
  type SnapshotRecord,
  type TradePageRecord,
} from './schema';
import { newestCopy } from './newestCopy';

export type CacheDb = IDBPDatabase<CacheSchema>;

/**
 * The per-user cache. Every method swallows storage failures (private mode, quota exceeded, blocked upgrade):
 * the cache makes the app faster and usable offline, it must never break it.
 */
export interface UserCache {
  readonly userId: string;
  readSnapshot<T>(kind: SnapshotKind): Promise<SnapshotRecord<T> | undefined>;
  writeSnapshot<T>(kind: SnapshotKind, data: T): Promise<void>;
  /** Stores trades and prunes the oldest beyond CACHED_TRADES_KEEP. The app calls it only through its one trade writer. */
  putTrades(trades: readonly Trade[]): Promise<void>;
  /** Newest first. */
  recentTrades(limit: number): Promise<Trade[]>;
  readPage(key: string): Promise<TradePageRecord | undefined>;
  writePage(key: string, trades: Trade[], pagination: Pagination): Promise<void>;
  /** Stores spread history points (a point already stored for its symbol and time is replaced) and drops those older than CACHED_SPREADS_KEEP_MS. */
  putSpreads(samples: readonly SpreadSample[], nowMs: number): Promise<void>;
  /** One symbol's points from `fromMs` on, oldest first. */
  readSpreads(symbol: SymbolId, fromMs: number): Promise<SpreadPoint[]>;
  /** The time of the symbol's newest point; null when none is stored. */
  lastSpreadAt(symbol: SymbolId): Promise<number | null>;
  /** The open database for code that queries it directly (offline history); null when storage is unavailable. */
  db(): Promise<CacheDb | null>;
  close(): void;
}

export function openCacheDb(userId: string, onBlocking: () => void = () => {}): Promise<CacheDb> {
  return openDB<CacheSchema>(cacheDbName(userId), CACHE_DB_VERSION, {
    upgrade(db, oldVersion) {
      if (oldVersion < 1) {
        db.createObjectStore('snapshots', { keyPath: 'kind' });
        const trades = db.createObjectStore('trades', { keyPath: '_id' });
        trades.createIndex('createdAt', 'createdAt');
        trades.createIndex('symbol_createdAt', ['symbol', 'createdAt']);
        trades.createIndex('status_createdAt', ['status', 'createdAt']);
        db.createObjectStore('tradePages', { keyPath: 'key' });
      }
      if (oldVersion < 2) db.createObjectStore('spreads', { keyPath: ['symbol', 't'] });
    },
    // Another tab wants a newer version: let it go ahead; this tab reopens on its next access.
    blocking: onBlocking,
  });
}

const warn = (what: string, err: unknown) => {
  if (typeof console !== 'undefined') console.warn(`cache: ${what} failed`, err instanceof Error ? err.message : err);
};

export function createUserCache(userId: string): UserCache {
  let opened: Promise<CacheDb | null> | null = null;
  const db = () => {
    // indexedDB.open can throw synchronously (blocked storage): start from a promise so that lands in catch too.
    opened ??= Promise.resolve()
      .then(() => openCacheDb(userId, () => close()))
      .catch((err: unknown) => {
        warn('open', err);
        return null;
      });
    return opened;
  };

  async function safely<T>(what: string, fallback: T, fn: (d: CacheDb) => Promise<T>): Promise<T> {
    const d = await db();
    if (!d) return fallback;
    try {
      return await fn(d);
    } catch (err) {
      warn(what, err);
      return fallback;
    }
  }

  function close() {
    void opened?.then((d) => d?.close());
    opened = null;
  }

  async function prune(d: CacheDb) {
    const count = await d.count('trades');
    if (count <= CACHED_TRADES_KEEP) return;
    let excess = count - CACHED_TRADES_KEEP;
    const tx = d.transaction('trades', 'readwrite');
    let cursor = await tx.store.index('createdAt').openCursor();
    while (cursor && excess > 0) {
      await cursor.delete();
      excess--;
      cursor = await cursor.continue();
    }
    await tx.done;
  }

  return {
    userId,
    db,
    readSnapshot: <T>(kind: SnapshotKind) =>
      safely('read', undefined, async (d) => (await d.get('snapshots', kind)) as SnapshotRecord<T> | undefined),
    writeSnapshot: (kind, data) =>
      safely('write', undefined, async (d) => void (await d.put('snapshots', { kind, data, savedAt: Date.now() }))),
    putTrades: (trades) =>
      safely('putTrades', undefined, async (d) => {
        if (trades.length === 0) return;
        const tx = d.transaction('trades', 'readwrite');
        // A stored copy the server saved later than the one handed in stays (a slow page after a live event).
        const put = async (t: Trade) => {
          const kept = newestCopy(await tx.store.get(t._id), t);
          if (kept === t) await tx.store.put(t);
        };
        await Promise.all([...trades.map(put), tx.done]);
        await prune(d);
      }),
    recentTrades: (limit) =>
      safely('recentTrades', [] as Trade[], async (d) => {
        const out: Trade[] = [];
        let cursor = await d.transaction('trades').store.index('createdAt').openCursor(null, 'prev');
        while (cursor && out.length < limit) {
          out.push(cursor.value);
          cursor = await cursor.continue();
        }
        return out;
      }),
    readPage: (key) => safely('readPage', undefined, (d) => d.get('tradePages', key)),
    writePage: (key, trades, pagination) =>
      safely(
        'writePage',
        undefined,
        async (d) => void (await d.put('tradePages', { key, trades, pagination, savedAt: Date.now() })),
      ),
    putSpreads: (samples, nowMs) =>
      safely('putSpreads', undefined, async (d) => {
        const tx = d.transaction('spreads', 'readwrite');
        const symbols = new Set(samples.map((p) => p.symbol));
        const cutoff = nowMs - CACHED_SPREADS_KEEP_MS;
        await Promise.all([
          ...samples.map((p) => tx.store.put(p)),
          ...[...symbols].map((symbol) =>
            tx.store.delete(IDBKeyRange.bound([symbol, -Infinity], [symbol, cutoff], false, true)),
          ),
          tx.done,
        ]);
      }),
    readSpreads: (symbol, fromMs) =>
      safely('readSpreads', [] as SpreadPoint[], async (d) => {
        const rows = await d.getAll('spreads', IDBKeyRange.bound([symbol, fromMs], [symbol, Infinity]));
        return rows.map(({ symbol: _symbol, ...point }) => point);
      }),
    lastSpreadAt: (symbol) =>
      safely('lastSpreadAt', null as number | null, async (d) => {
        const cursor = await d
          .transaction('spreads')
          .store.openCursor(IDBKeyRange.bound([symbol, -Infinity], [symbol, Infinity]), 'prev');
        return cursor ? cursor.value.t : null;
      }),
    close,
  };
}

/** Wipes the cache of one user, and of any other user left behind, at logout. */
export async function clearUserCaches(userId: string | null): Promise<void> {
  const names = new Set<string>();
  if (userId) names.add(cacheDbName(userId));
  try {
    const all =
      typeof indexedDB !== 'undefined' && typeof indexedDB.databases === 'function' ? await indexedDB.databases() : [];
    for (const d of all) if (d.name?.startsWith(CACHE_DB_PREFIX)) names.add(d.name);
  } catch {
    // databases() is missing in some browsers; the signed-out user's own database is still removed.
  }
  await Promise.all(
    [...names].map((n) =>
      Promise.resolve()
        .then(() => deleteDB(n))
        .catch((err: unknown) => warn('delete', err)),
    ),
  );
}
