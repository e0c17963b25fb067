// The circuit breaker across a restart (issue 20, finding 5): its count of failed trades in a row and the back-off of
// the last failure come back from the stored trade outcomes, so a restart neither grants a venue that refuses
// everything three more failed trades nor retries the symbol before its back-off ends.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import type { SymbolId } from '../../../contract/domain';
import type { Trade } from '../../../contract/entities';
import { failedInARow, failedInARowOf } from '../../../server/db/repositories/trade-outcomes';
import { realisedWindow, realisedWindows } from '../../../server/db/repositories/users';
import { trades } from '../../../server/db/schema/trades';
import { users as userRows } from '../../../server/db/schema/users';
import { backends, createTestApp } from '../helpers/app';
import type { EngineEvent } from '../../../server/engine/events';
import { memoryEngine, tradeEvent, type MemoryEngine } from './memory-engine';

const engines: MemoryEngine[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.engine.stop();
});

const tradeOf = (e: EngineEvent): Trade => (e as { trade: Trade }).trade;
const failedOf = (e: MemoryEngine) => e.events.filter(tradeEvent('failed', 'ana')).map(tradeOf);

describe('circuit breaker across a restart', () => {
  it('a new engine on the same store pauses after the third failure in a row, counting those before the restart', async () => {
    const clock = { now: 1_800_000_000_000 };
    const first = await memoryEngine({ now: () => clock.now });
    engines.push(first);
    first.users.set('ana');
    first.binance.always = { kind: 'insufficient' };
    first.quote('BTC/USDT', 60_000, 0, clock.now);
    await first.engine.start({ logger: first.logger });
    while (failedOf(first).length < 2) {
      clock.now += 1000;
      first.quote('BTC/USDT', 60_000, 0.01, clock.now);
      await first.engine.idle();
    }
    expect(first.users.stops).toEqual([]);
    await first.engine.stop();
    engines.splice(0);

    // The restart: a new engine (a new process) over the same stored trades and users, on a venue still refusing.
    const { store, users } = first;
    const second = await memoryEngine({ now: () => clock.now, store, users }, first.book);
    engines.push(second);
    second.binance.always = { kind: 'insufficient' };
    second.quote('BTC/USDT', 60_000, 0.01, clock.now);
    await second.engine.start({ logger: second.logger });
    // Within the back-off of the second failure (10 s): the symbol is not tried again.
    for (let i = 0; i < 5; i += 1) {
      clock.now += 1000;
      second.quote('BTC/USDT', 60_000, 0.01, clock.now);
      await second.engine.idle();
    }
    expect(failedOf(second)).toEqual([]);
    // After it, one more failure is the third in a row: paused.
    for (let i = 0; i < 120 && users.stops.length === 0; i += 1) {
      clock.now += 1000;
      second.quote('BTC/USDT', 60_000, 0.01, clock.now);
      await second.engine.idle();
    }
    expect(failedOf(second)).toHaveLength(1);
    expect(users.stops).toEqual([
      { userId: 'ana', reason: 'Binance refused the order — insufficient USDT (3 failed trades in a row)' },
    ]);
  });
});

describe.each(backends)('failed trades in a row as %s stores them', (backend) => {
  it('are the failures after the newest completed trade in the current window, oldest first', async () => {
    const t = await createTestApp(backend);
    try {
      const userId = t.admin.user._id;
      const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000);
      const row = (
        status: 'completed' | 'failed' | 'cancelled',
        minutesAgo: number,
        symbol: SymbolId = 'BTC/USDT',
      ) => ({
        id: randomUUID(),
        tradeId: `B${randomUUID().slice(0, 8)}`,
        userId,
        symbol,
        status,
        totalAmount: '100',
        arbitrageSpread: '0.005',
        reason: `${status} ${minutesAgo}`,
        createdAt: at(minutesAgo + 1),
        closedAt: at(minutesAgo),
      });
      await t.db
        .update(userRows)
        .set({ tradingEnabledAt: at(100) })
        .where(eq(userRows.id, userId));
      await t.db.insert(trades).values([
        row('failed', 200), // before trading was enabled
        row('failed', 50),
        row('completed', 40),
        row('failed', 30, 'ETH/USDT'),
        row('cancelled', 20),
        row('failed', 10),
      ]);
      const streak = await failedInARow(t.db, userId);
      expect(streak.map((f) => [f.symbol, f.reason])).toEqual([
        ['ETH/USDT', 'failed 30'],
        ['BTC/USDT', 'failed 10'],
      ]);
      // The engine reads many users at once after a burst: each gets its own streak and realised window.
      const other = (await t.createUser()).user._id;
      await t.db.insert(trades).values([
        { ...row('completed', 8), userId: other, actualProfit: '3' },
        { ...row('failed', 5), userId: other, actualProfit: '-2' },
      ]);
      const streaks = await failedInARowOf(t.db, [userId, other, randomUUID()]);
      expect(streaks.get(userId)).toEqual(streak);
      expect(streaks.get(other)?.map((f) => f.reason)).toEqual(['failed 5']);
      expect(streaks.size).toBe(2);
      const windows = await realisedWindows(t.db, [userId, other]);
      expect(Number(windows.get(other)?.current)).toBe(1);
      expect(Number(windows.get(other)?.peak)).toBe(3);
      expect(windows.get(userId)).toEqual(await realisedWindow(t.db, userId));
    } finally {
      await t.close();
    }
  }, 120_000);
});
