// The figures sent after fills (server/engine/figure-refresh.ts): on a burst only a few users are read at once, every
// user asked for is still refreshed, once per burst of requests, and a request arriving during a user's refresh
// brings one more.
import { describe, expect, it } from 'vitest';
import type { Stats } from '../../../contract/entities';
import type { EngineEvent } from '../../../server/engine/events';
import { FigureRefresh } from '../../../server/engine/figure-refresh';
import { NO_PRICES, SILENT_LOGGER } from '../../../server/engine/ports';
import type { Venue, VenueAccount } from '../../../server/venues/types';

const STATS: Stats = {
  totalTrades: 0,
  successfulTrades: 0,
  failedTrades: 0,
  totalProfit: 0,
  netProfit: 0,
  winRate: 0,
  decidedTrades: 0,
  totalValue: 0,
};

function harness(maxAtOnce: number) {
  const pending: Array<() => void> = [];
  let reading = 0;
  let mostAtOnce = 0;
  const reads: string[] = [];
  const emitted: EngineEvent[] = [];
  const venue = {
    balances: async () => ({ USDT: '1', BTC: '0', ETH: '0' }),
  } as unknown as Venue;
  const refresh = new FigureRefresh({
    venues: { binance: venue, deriv: venue },
    account: async (userId) => ({ userId }) as VenueAccount,
    figures: {
      stats: (userId) => {
        reads.push(userId);
        reading += 1;
        mostAtOnce = Math.max(mostAtOnce, reading);
        return new Promise<Stats>((resolve) =>
          pending.push(() => {
            reading -= 1;
            resolve(STATS);
          }),
        );
      },
    },
    prices: NO_PRICES,
    now: () => new Date(0),
    emit: (event) => emitted.push(event),
    logger: () => SILENT_LOGGER,
    maxAtOnce,
  });
  /** Lets every read in flight answer, then lets the refresh go on until it reads again or is done. */
  const answerAll = async () => {
    for (const answer of pending.splice(0)) answer();
    for (let i = 0; i < 10; i += 1) await Promise.resolve();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { refresh, reads, emitted, answerAll, pendingReads: () => pending.length, most: () => mostAtOnce };
}

describe('figure refresh', () => {
  it('reads at most a few users at once and still refreshes every one asked for', async () => {
    const h = harness(2);
    for (const user of ['a', 'b', 'c', 'd', 'e']) h.refresh.request(user);
    await new Promise((resolve) => setImmediate(resolve));
    expect(h.pendingReads()).toBe(2);
    while (h.pendingReads() > 0) await h.answerAll();
    expect(h.most()).toBe(2);
    expect([...h.reads].sort()).toEqual(['a', 'b', 'c', 'd', 'e']);
    const stats = h.emitted.filter((e) => e.type === 'stats_updated').map((e) => e.userId);
    expect(stats.sort()).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('coalesces requests: a waiting user is read once; one asked for again while read is read once more', async () => {
    const h = harness(1);
    h.refresh.request('a');
    h.refresh.request('b');
    h.refresh.request('b');
    await new Promise((resolve) => setImmediate(resolve));
    expect(h.reads).toEqual(['a']);
    h.refresh.request('a'); // during a's read: a goes again after it
    while (h.pendingReads() > 0) await h.answerAll();
    expect(h.reads).toEqual(['a', 'a', 'b']);
  });
});
