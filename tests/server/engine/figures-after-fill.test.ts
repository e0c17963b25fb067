// The figures a trader is sent after a fill (stats_updated) are read after the trade's new state is saved, whatever
// order the database answers in: with the trade store's writes slowed down, the figures sent last still count the
// trade that just completed, and equal what the database says.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Stats, Trade } from '../../../contract/entities';
import { trades } from '../../../server/db/schema';
import { userStats } from '../../../server/engine/figures';
import { DbTradeStore } from '../../../server/engine/storage/trade-store';
import type { TradeState } from '../../../server/engine/trade-state';
import { NO_PRICES } from '../../../server/engine/ports';
import { backends, type SignedIn } from '../helpers/app';
import { createDbEngine, type DbEngine } from './db-engine';

/** The database's trade store, each save held back a while (a busy database, a slow disk). */
class SlowStore extends DbTradeStore {
  override async save(state: TradeState): Promise<Trade> {
    await new Promise((resolve) => setTimeout(resolve, 120));
    return super.save(state);
  }
}

describe.each(backends)('figures after a fill on %s', (backend) => {
  let d: DbEngine;
  let alice: SignedIn;

  beforeAll(async () => {
    d = await createDbEngine(backend, {}, (t) => ({ store: new SlowStore(t.db) }));
    alice = await d.t.createUser();
  });
  afterAll(async () => {
    await d?.close();
  });

  it('sends stats_updated with the completed trade counted', async () => {
    const statsSent = () =>
      d.events.filter((e) => e.type === 'stats_updated' && e.userId === alice.user._id) as { stats: Stats }[];
    expect((await d.t.request('POST', '/api/exchanges/trading/add-user', { token: alice.token })).statusCode).toBe(200);
    d.quote('BTC/USDT', 60_000, 0.01);
    const row = async () => (await d.t.db.select().from(trades).where(eq(trades.userId, alice.user._id)))[0];
    await d.until('legs open', async () => (await row())?.legs.every((l) => l.status === 'open') ?? false);
    d.quote('BTC/USDT', 60_000, 0);
    await d.until('completed', async () => (await row())?.status === 'completed');
    await d.engine.idle();
    const completed = await row();
    const expected = await userStats(d.t.db, alice.user._id, NO_PRICES);
    await d.until('figures sent', async () => statsSent().at(-1)?.stats.successfulTrades === 1, 5_000);
    const last = statsSent().at(-1)?.stats;
    expect(last).toMatchObject({
      totalTrades: 1,
      successfulTrades: 1,
      netProfit: expected.netProfit,
      decidedTrades: expected.decidedTrades,
    });
    expect(last?.netProfit).toBeCloseTo(Number(completed?.actualProfit), 8);
  });
});
