import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { tradeCsvLine, tradesCsvHeader } from '../../../../contract/csv';
import { clearUserCaches, createUserCache, type UserCache } from '../../../cache/db';
import { makeTrades } from '../../../../tests/client/testTrades';
import { dayRange, EMPTY_RANGE_MESSAGE } from '../../../lib/dayRange';
import { localTradesCsv } from './localExport';

let cache: UserCache;
afterEach(async () => {
  cache.close();
  await clearUserCaches(cache.userId);
});

async function seeded(n: number) {
  cache = createUserCache(`export-${Math.random()}`);
  const trades = makeTrades(n);
  await cache.putTrades(trades);
  const db = await cache.db();
  if (!db) throw new Error('no IndexedDB');
  return { trades, db };
}

describe('offline CSV export', () => {
  it('writes the server’s lines for the kept trades under the filters and the [from, to) range, newest first', async () => {
    const { trades, db } = await seeded(60);
    const from = trades[40]!.createdAt;
    const to = trades[5]!.createdAt;
    const csv = await localTradesCsv(db, { status: 'completed', from, to }, null);
    const expected = trades.slice(6, 41).filter((t) => t.status === 'completed');
    expect(expected.length).toBeGreaterThan(0);
    expect(csv.text).toBe(tradesCsvHeader() + expected.map(tradeCsvLine).join(''));
    expect(csv.rows).toBe(expected.length);
    expect(csv.fileName).toBe(`trades-${from.slice(0, 10)}-to-${to.slice(0, 10)}.csv`);
  });

  it('stops where the synced copy stops vouching, and says how far back that is', async () => {
    const { trades, db } = await seeded(30);
    const meta = {
      newestSynced: trades[0]!.createdAt,
      contiguousFrom: trades[9]!.createdAt,
      serverTotal: 500,
      syncedAt: 1,
    };
    const csv = await localTradesCsv(db, {}, meta);
    expect(csv.rows).toBe(10);
    expect(csv.coverage).toEqual({ count: 10, oldest: trades[9]!.createdAt, complete: false });
  });

  it('turns picked days into a range that covers the last day whole, and refuses one that ends before it starts', () => {
    const r = dayRange('2026-03-01', '2026-03-01', 'UTC');
    expect(new Date(r.to!).getTime() - new Date(r.from!).getTime()).toBe(24 * 3_600_000);
    // The days are the user's: in Tokyo the 1st of March starts nine hours before it does in UTC.
    expect(dayRange('2026-03-01', '2026-03-02', 'Asia/Tokyo')).toEqual({
      from: '2026-02-28T15:00:00.000Z',
      to: '2026-03-02T15:00:00.000Z',
    });
    expect(dayRange('', '', 'UTC')).toEqual({ from: undefined, to: undefined });
    expect(() => dayRange('2026-03-02', '2026-03-01', 'UTC')).toThrow(EMPTY_RANGE_MESSAGE);
  });
});
