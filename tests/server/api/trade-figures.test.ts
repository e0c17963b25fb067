// The kept figures (table trade_figures, maintained by the trades_keep_figures trigger of migration 0006) against the
// contract's rules: whatever sequence of inserts, status and profit changes, moves and deletes the trades go through,
// the kept row equals both the contract's functions applied to the rows and the aggregate query the figures were
// computed with per request before they were kept.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Decimal from 'decimal.js';
import { eq, inArray, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FINISHED_STATUSES, TRADE_STATUSES, type TradeStatus } from '../../../contract/domain';
import { DECIDED_TRADE, isDecidedTrade, isFinished, isWinningTrade, WINNING_TRADE } from '../../../contract/figures';
import type { Db } from '../../../server/db/client';
import { recountTradeFigures, tradeAggregates, type TradeAggregates } from '../../../server/db/repositories/stats';
import { tradeFigures } from '../../../server/db/schema/trade-figures';
import { trades } from '../../../server/db/schema/trades';
import { users } from '../../../server/db/schema/users';
import { backends, openTestDatabase, type TestDatabase } from '../helpers/database';
import { insertTrades, insertUser } from './seed';

/** The aggregate query every figures call ran before the figures were kept: the reference the kept row must equal. */
async function aggregateFromTrades(db: Db, userId: string): Promise<TradeAggregates> {
  const finished = inArray(trades.status, [...FINISHED_STATUSES]);
  const won = sql`${inArray(trades.status, [...WINNING_TRADE.statuses])} and ${trades.actualProfit} > ${WINNING_TRADE.profitAbove}`;
  const decided = sql`${inArray(trades.status, [...DECIDED_TRADE.statuses])} and ${trades.actualProfit} <> ${DECIDED_TRADE.profitNot}`;
  const [row] = await db
    .select({
      totalTrades: sql<number>`count(*)::int`,
      successfulTrades: sql<number>`(count(*) filter (where ${trades.status} = 'completed'))::int`,
      failedTrades: sql<number>`(count(*) filter (where ${trades.status} = 'failed'))::int`,
      winningTrades: sql<number>`(count(*) filter (where ${won}))::int`,
      decidedTrades: sql<number>`(count(*) filter (where ${decided}))::int`,
      totalProfit: sql<string>`coalesce(sum(${trades.actualProfit}) filter (where ${won}), 0)::text`,
      netProfit: sql<string>`coalesce(sum(${trades.actualProfit}) filter (where ${finished}), 0)::text`,
    })
    .from(trades)
    .where(eq(trades.userId, userId));
  if (!row) throw new Error('an aggregate always answers one row');
  return row;
}

/** The contract's functions (contract/figures.ts) over the user's rows, with exact sums. */
async function contractFigures(db: Db, userId: string): Promise<TradeAggregates> {
  const rows = await db
    .select({ status: trades.status, actualProfit: trades.actualProfit })
    .from(trades)
    .where(eq(trades.userId, userId));
  const asTrade = (r: (typeof rows)[number]) => ({ status: r.status, actualProfit: Number(r.actualProfit) });
  const sum = (list: typeof rows) => list.reduce((acc, r) => acc.plus(r.actualProfit), new Decimal(0)).toString();
  return {
    totalTrades: rows.length,
    successfulTrades: rows.filter((r) => r.status === 'completed').length,
    failedTrades: rows.filter((r) => r.status === 'failed').length,
    winningTrades: rows.filter((r) => isWinningTrade(asTrade(r))).length,
    decidedTrades: rows.filter((r) => isDecidedTrade(asTrade(r))).length,
    totalProfit: sum(rows.filter((r) => isWinningTrade(asTrade(r)))),
    netProfit: sum(rows.filter((r) => isFinished(r.status))),
  };
}

/** Decimal strings compared by value ('1.50' equals '1.5'), counts as they are. */
const normalised = (a: TradeAggregates) => ({
  ...a,
  totalProfit: new Decimal(a.totalProfit).toString(),
  netProfit: new Decimal(a.netProfit).toString(),
});

async function expectKeptFiguresRight(db: Db, userId: string): Promise<void> {
  const kept = normalised(await tradeAggregates(db, userId));
  expect(kept).toEqual(normalised(await contractFigures(db, userId)));
  expect(kept).toEqual(normalised(await aggregateFromTrades(db, userId)));
}

// Profits around the rules' edges (exactly 0, a hair either side) and with all ten decimals of numeric(28,10).
const profit = fc.constantFrom(
  '0',
  '0.0000000001',
  '-0.0000000001',
  '0.01',
  '-0.01',
  '2',
  '-4',
  '123456.7890123456',
  '-50.98',
);
const status = fc.constantFrom<TradeStatus>(...TRADE_STATUSES);
type Step =
  | { kind: 'insert'; owner: 0 | 1; status: TradeStatus; actualProfit: string }
  | { kind: 'update'; pick: number; status: TradeStatus; actualProfit: string }
  | { kind: 'finish'; pick: number; status: TradeStatus }
  | { kind: 'move'; pick: number }
  | { kind: 'delete'; pick: number };
const owner = fc.constantFrom<0 | 1>(0, 1);
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('insert' as const), owner, status, actualProfit: profit }),
  fc.record({ kind: fc.constant('update' as const), pick: fc.nat(), status, actualProfit: profit }),
  fc.record({ kind: fc.constant('finish' as const), pick: fc.nat(), status }),
  fc.record({ kind: fc.constant('move' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
);

describe.each(backends)('kept trade figures on %s', (kind) => {
  let database: TestDatabase;
  let dataDir: string;
  let runs = 0;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'trade-figures-'));
    database = await openTestDatabase(kind, dataDir);
  });
  afterAll(async () => {
    await database?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("equal the contract's rules and the per-request aggregate after any sequence of trade changes", async () => {
    const db = database.db;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 24 }), async (steps) => {
        const run = runs++;
        const owners = [await insertUser(db, `fig-a-${run}`), await insertUser(db, `fig-b-${run}`)] as const;
        const ids: string[] = [];
        const picked = (pick: number) => ids[pick % ids.length] as string;
        for (const s of steps) {
          if (s.kind === 'insert') {
            ids.push(
              ...(await insertTrades(db, owners[s.owner], [{ status: s.status, actualProfit: s.actualProfit }])),
            );
            continue;
          }
          if (ids.length === 0) continue;
          const id = picked(s.pick);
          if (s.kind === 'update')
            await db.update(trades).set({ status: s.status, actualProfit: s.actualProfit }).where(eq(trades.id, id));
          // A status change alone, as the engine and the cancel path make it; also a no-op when the status is the same.
          if (s.kind === 'finish')
            await db
              .update(trades)
              .set({ status: s.status, reason: 'changed by the property' })
              .where(eq(trades.id, id));
          if (s.kind === 'move') {
            const [row] = await db.select({ userId: trades.userId }).from(trades).where(eq(trades.id, id));
            await db
              .update(trades)
              .set({ userId: row?.userId === owners[0] ? owners[1] : owners[0] })
              .where(eq(trades.id, id));
          }
          if (s.kind === 'delete') {
            await db.delete(trades).where(eq(trades.id, id));
            ids.splice(ids.indexOf(id), 1);
          }
        }
        for (const userId of owners) await expectKeptFiguresRight(db, userId);
      }),
      { seed: 14_2026, numRuns: 40 },
    );
  });

  it('leaves a row untouched by updates that do not change the figures', async () => {
    const db = database.db;
    const userId = await insertUser(db, 'fig-legs');
    const [id] = await insertTrades(db, userId, [{ status: 'pending', actualProfit: '0' }]);
    await db
      .update(trades)
      .set({ legs: [], closedAt: new Date() })
      .where(eq(trades.id, id as string));
    await db
      .update(trades)
      .set({ status: 'completed', actualProfit: '1.25' })
      .where(eq(trades.id, id as string));
    expect(await tradeAggregates(db, userId)).toMatchObject({
      totalTrades: 1,
      successfulTrades: 1,
      winningTrades: 1,
      decidedTrades: 1,
    });
    await expectKeptFiguresRight(db, userId);
  });

  it("drops a deleted user's figures with the user, and answers zeros for a user without trades", async () => {
    const db = database.db;
    const userId = await insertUser(db, 'fig-gone');
    await insertTrades(db, userId, [
      { status: 'completed', actualProfit: '3' },
      { status: 'failed', actualProfit: '-1' },
    ]);
    expect((await tradeAggregates(db, userId)).totalTrades).toBe(2);
    await db.delete(users).where(eq(users.id, userId));
    expect(await db.select().from(tradeFigures).where(eq(tradeFigures.userId, userId))).toEqual([]);
    expect(await tradeAggregates(db, userId)).toEqual({
      totalTrades: 0,
      successfulTrades: 0,
      failedTrades: 0,
      winningTrades: 0,
      decidedTrades: 0,
      totalProfit: '0',
      netProfit: '0',
    });
  });

  it('counts every one of many trades of one user finished by concurrent transactions', async () => {
    const db = database.db;
    const userId = await insertUser(db, 'fig-busy');
    const ids = await insertTrades(
      db,
      userId,
      Array.from({ length: 40 }, () => ({ status: 'pending' as const, actualProfit: '0' })),
    );
    // Each finish is its own transaction, as the engine writes them; on PostgreSQL they run on separate connections.
    await Promise.all(
      ids.map((id, i) =>
        db.transaction(async (tx) => {
          await tx
            .update(trades)
            .set({ status: 'completed', actualProfit: i % 2 === 0 ? '1.5' : '-0.5' })
            .where(eq(trades.id, id));
        }),
      ),
    );
    expect(await tradeAggregates(db, userId)).toMatchObject({
      totalTrades: 40,
      successfulTrades: 40,
      winningTrades: 20,
      decidedTrades: 40,
    });
    await expectKeptFiguresRight(db, userId);
  });

  it('recounts the same figures from the trades as the trigger kept', async () => {
    const db = database.db;
    const userId = await insertUser(db, 'fig-recount');
    await insertTrades(db, userId, [
      { status: 'completed', actualProfit: '10.5' },
      { status: 'cancelled', actualProfit: '-2.25' },
      { status: 'pending' },
    ]);
    const kept = await tradeAggregates(db, userId);
    await db.update(tradeFigures).set({ totalTrades: 999 }).where(eq(tradeFigures.userId, userId));
    await recountTradeFigures(db);
    expect(normalised(await tradeAggregates(db, userId))).toEqual(normalised(kept));
    await expectKeptFiguresRight(db, userId);
  });
});
