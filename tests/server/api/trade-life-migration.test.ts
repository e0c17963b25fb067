// Migration 0015 (issue 20, finding 2): a stored 'cancelled' trade that held a leg becomes closed ('completed') with
// its realised P&L and the figures follow; one no leg of which was filled stays cancelled; close reasons written
// before the trade-life vocabulary take its words. The migration is idempotent, so it is run again here over rows
// in the old shape, on a database migrated to the end.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tradeLifeOf } from '../../../contract/trade-life';
import { MIGRATIONS_FOLDER } from '../../../server/db/migrate';
import { tradeAggregates } from '../../../server/db/repositories/stats';
import { trades, type StoredLeg } from '../../../server/db/schema/trades';
import { backends, openTestDatabase, type TestDatabase } from '../helpers/database';
import { insertTrades, insertUser } from './seed';

const fill = { price: '100', quantity: '1', fee: '0.1', at: '2026-01-01T00:00:00.000Z' };
const leg = (venue: 'binance' | 'deriv', filled: boolean): StoredLeg => ({
  venue,
  side: venue === 'binance' ? 'buy' : 'sell',
  clientOrderId: `x-${venue}`,
  venueOrderId: filled ? '1' : null,
  status: filled ? 'closed' : 'failed',
  open: filled ? fill : null,
  close: filled ? fill : null,
});

describe.each(backends)('migration 0015 (trade life words) on %s', (kind) => {
  let database: TestDatabase;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'trade-life-'));
    database = await openTestDatabase(kind, dataDir);
  });
  afterAll(async () => {
    await database?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('relabels a flattened trade that held both legs as closed with its P&L, and keeps an unfilled one cancelled', async () => {
    const db = database.db;
    const userId = await insertUser(db, 'life-old-rows');
    const [flattened, byUser, stoppedOut, unfilled] = await insertTrades(db, userId, [
      { status: 'cancelled', actualProfit: '-0.65' },
      { status: 'cancelled', actualProfit: '1.2' },
      { status: 'completed', actualProfit: '-3' },
      { status: 'cancelled', actualProfit: '0' },
    ]);
    const set = (id: string | undefined, legs: StoredLeg[], reason: string) =>
      db
        .update(trades)
        .set({ legs, reason })
        .where(eq(trades.id, id as string));
    await set(flattened, [leg('binance', true), leg('deriv', true)], 'stop & flatten');
    await set(byUser, [leg('binance', true), leg('deriv', true)], 'cancelled by user');
    await set(stoppedOut, [leg('binance', true), leg('deriv', true)], 'Deriv stopped the contract out');
    await set(unfilled, [leg('binance', false), leg('deriv', false)], 'cancelled by user');
    expect((await tradeAggregates(db, userId)).successfulTrades).toBe(1);

    const statements = readFileSync(join(MIGRATIONS_FOLDER, '0015_trade_life_words.sql'), 'utf8')
      .split('--> statement-breakpoint')
      .map((s) => s.trim())
      .filter(Boolean);
    for (const statement of statements) await db.execute(sql.raw(statement));

    const rows = await db.select().from(trades).where(eq(trades.userId, userId));
    const byId = new Map(rows.map((r) => [r.id, r]));
    const life = (id: string | undefined) => {
      const row = byId.get(id as string);
      return {
        status: row?.status,
        label: tradeLifeOf({ status: row!.status, reason: row!.reason, legs: row!.legs }).label,
        profit: row?.actualProfit,
      };
    };
    expect(life(flattened)).toMatchObject({ status: 'completed', label: 'Closed — flattened' });
    expect(Number(life(flattened).profit)).toBe(-0.65);
    expect(life(byUser)).toMatchObject({ status: 'completed', label: 'Closed by you' });
    expect(byId.get(byUser as string)?.reason).toBe('closed by you');
    expect(life(stoppedOut)).toMatchObject({ status: 'completed', label: 'Closed — stop-out' });
    expect(byId.get(stoppedOut as string)?.reason).toBe('stopped out by the venue: Deriv stopped the contract out');
    expect(life(unfilled)).toMatchObject({ status: 'cancelled', label: 'Cancelled' });
    // The figures' trigger moved each changed row: three closed trades now, the realised P&L unchanged.
    const figures = await tradeAggregates(db, userId);
    expect(figures.successfulTrades).toBe(3);
    expect(Number(figures.netProfit)).toBeCloseTo(-0.65 + 1.2 - 3, 10);
  });
});
