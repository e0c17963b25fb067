import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { Trade } from '../../../contract/entities';
import { makeTrades } from '../../../tests/client/testTrades';
import { clearUserCaches, createUserCache, type UserCache } from '../../cache/db';
import { createTradeWriter, tradeWriterFor } from './tradeWriter';

/** A store whose writes finish when the test says so. */
function heldStore() {
  const batches: string[][] = [];
  const release: Array<() => void> = [];
  const store = (trades: readonly Trade[]) => {
    batches.push(trades.map((t) => `${t._id}:${t.status}`));
    return new Promise<void>((resolve) => release.push(resolve));
  };
  return { batches, store, releaseNext: () => release.shift()?.() };
}

const caches: UserCache[] = [];
afterEach(async () => {
  for (const c of caches.splice(0)) {
    c.close();
    await clearUserCaches(c.userId);
  }
});

describe('the trade writer', () => {
  it('writes one batch at a time and merges what arrives meanwhile, the last copy of a trade winning', async () => {
    const { batches, store, releaseNext } = heldStore();
    const writer = createTradeWriter(store);
    const [a, b, c] = makeTrades(3);
    const stored: string[] = [];
    const first = writer.write([a!]).then(() => stored.push('first'));
    // Two other paths hand trades while the first write runs: b twice (pending, then its update), and c.
    const second = writer.write([b!, c!]).then(() => stored.push('second'));
    const third = writer.write([{ ...b!, status: 'cancelled' }]).then(() => stored.push('third'));
    expect(batches).toEqual([[`${a!._id}:${a!.status}`]]);

    releaseNext();
    await first;
    expect(batches).toEqual([[`${a!._id}:${a!.status}`], [`${b!._id}:cancelled`, `${c!._id}:${c!.status}`]]);
    expect(stored).toEqual(['first']);
    releaseNext();
    await Promise.all([second, third]);
    expect(stored).toEqual(['first', 'second', 'third']);
    expect(batches).toHaveLength(2);
  });

  it('an older copy handed in while a newer one waits does not replace it', async () => {
    const { batches, store, releaseNext } = heldStore();
    const writer = createTradeWriter(store);
    const [a, b] = makeTrades(2);
    const first = writer.write([a!]);
    const closed = {
      ...b!,
      status: 'completed' as const,
      updatedAt: new Date(Date.parse(b!.updatedAt) + 5000).toISOString(),
    };
    const second = writer.write([closed]);
    const stale = writer.write([{ ...b!, status: 'pending' }]);
    releaseNext();
    await first;
    expect(batches[1]).toEqual([`${b!._id}:completed`]);
    releaseNext();
    await Promise.all([second, stale]);
  });

  it('a failed write fails the callers of that batch only', async () => {
    let fail = true;
    const writer = createTradeWriter(async () => {
      if (fail) throw new Error('QuotaExceededError');
    });
    const [a, b] = makeTrades(2);
    await expect(writer.write([a!])).rejects.toThrow('QuotaExceededError');
    fail = false;
    await expect(writer.write([b!])).resolves.toBeUndefined();
    await expect(writer.write([])).resolves.toBeUndefined();
  });

  it('is one writer per user cache, whoever asks, and keeps the store within its limit', async () => {
    const cache = createUserCache(`writer-${Math.random()}`);
    caches.push(cache);
    expect(tradeWriterFor(cache)).toBe(tradeWriterFor(cache));
    const history = makeTrades(250);
    // The three paths at once: a page of recent trades, a Trades page, and a history page.
    await Promise.all([
      tradeWriterFor(cache).write(history.slice(0, 20)),
      tradeWriterFor(cache).write(history.slice(10, 60)),
      tradeWriterFor(cache).write(history.slice(0, 250)),
    ]);
    const held = await cache.recentTrades(1000);
    expect(held.map((t) => t._id)).toEqual(history.map((t) => t._id));
  });
});
