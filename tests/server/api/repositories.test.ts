// The read repositories against a real database: paging arithmetic, ordering, filters, scoping, exact sums.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRADE_STATUSES, type SymbolId, type TradeStatus } from '../../../contract/domain';
import { isDecidedTrade, isWinningTrade } from '../../../contract/figures';
import { getTrade, listTrades, toTradeDto } from '../../../server/db/repositories/trades';
import { ensurePaperBalances, getBalances, setVenueBalances } from '../../../server/db/repositories/balances';
import { tradeAggregates } from '../../../server/db/repositories/stats';
import { userStats } from '../../../server/engine/figures';
import type { TradeRow } from '../../../server/db/schema/trades';
import { PAPER_SEED } from '../../../server/venues/sim/paper-seed';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { backends, openTestDatabase, type TestDatabase } from '../helpers/database';
import { insertTrades, insertUser, type TradeSeed } from './seed';

const noPrices = { mid: () => null };

describe.each(backends)('read repositories on %s', (kind) => {
  let database: TestDatabase;
  let dataDir: string;
  let alice: string;
  let bob: string;
  let aliceIds: string[];
  let bobIds: string[];
  const statuses: TradeStatus[] = ['completed', 'pending', 'failed', 'cancelled'];
  const symbols: SymbolId[] = ['BTC/USDT', 'ETH/USDT'];
  // 45 trades for alice cycling through statuses and symbols, 5 for bob.
  const aliceSeeds: TradeSeed[] = Array.from({ length: 45 }, (_, i) => ({
    status: statuses[i % 4],
    symbol: symbols[Math.floor(i / 4) % 2],
  }));

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'api-repo-'));
    database = await openTestDatabase(kind, dataDir);
    alice = await insertUser(database.db, 'alice');
    bob = await insertUser(database.db, 'bob');
    aliceIds = await insertTrades(database.db, alice, aliceSeeds);
    bobIds = await insertTrades(
      database.db,
      bob,
      Array.from({ length: 5 }, () => ({})),
    );
  });
  afterAll(async () => {
    await database?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('pages newest first with the page count rounded up', async () => {
    const first = await listTrades(database.db, alice, { page: 1, limit: 20 });
    expect(first.pagination).toEqual({ current: 1, pages: 3, total: 45 });
    expect(first.trades.map((t) => t._id)).toEqual(aliceIds.slice(-20).reverse());
    const last = await listTrades(database.db, alice, { page: 3, limit: 20 });
    expect(last.trades.map((t) => t._id)).toEqual(aliceIds.slice(0, 5).reverse());
    const beyond = await listTrades(database.db, alice, { page: 4, limit: 20 });
    expect(beyond).toEqual({ trades: [], pagination: { current: 4, pages: 3, total: 45 } });
  });

  it('counts an exact multiple of the page size as whole pages', async () => {
    const page = await listTrades(database.db, alice, { page: 1, limit: 15 });
    expect(page.pagination).toEqual({ current: 1, pages: 3, total: 45 });
  });

  it('filters by status, symbol and both, counting with the same filter', async () => {
    const expected = (status?: TradeStatus, symbol?: SymbolId) =>
      aliceIds
        .filter(
          (_, i) => (!status || aliceSeeds[i]?.status === status) && (!symbol || aliceSeeds[i]?.symbol === symbol),
        )
        .reverse();
    for (const status of [undefined, ...statuses]) {
      for (const symbol of [undefined, ...symbols]) {
        const page = await listTrades(database.db, alice, { status, symbol, page: 1, limit: 100 });
        const ids = expected(status, symbol);
        expect(page.trades.map((t) => t._id)).toEqual(ids);
        expect(page.pagination.total).toBe(ids.length);
        for (const trade of page.trades) {
          if (status) expect(trade.status).toBe(status);
          if (symbol) expect(trade.symbol).toBe(symbol);
        }
      }
    }
  });

  it('breaks ties on the creation time by id, so pages never overlap', async () => {
    const carol = await insertUser(database.db, 'carol');
    const at = new Date(Date.UTC(2026, 1, 1));
    const ids = await insertTrades(
      database.db,
      carol,
      Array.from({ length: 7 }, () => ({ createdAt: at })),
    );
    const seen: string[] = [];
    for (let page = 1; page <= 3; page++)
      seen.push(...(await listTrades(database.db, carol, { page, limit: 3 })).trades.map((t) => t._id));
    expect(seen).toEqual([...ids].sort().reverse());
  });

  it("never shows one user's trades to another", async () => {
    const page = await listTrades(database.db, bob, { page: 1, limit: 100 });
    expect(page.pagination.total).toBe(5);
    expect(page.trades.every((t) => t.userId === bob)).toBe(true);
    expect(await getTrade(database.db, bob, aliceIds[0] as string)).toBeNull();
    expect((await getTrade(database.db, bob, bobIds[0] as string))?._id).toBe(bobIds[0]);
    expect(await getTrade(database.db, bob, 'not-a-uuid')).toBeNull();
  });

  it('maps a row to the wire form with numbers, ISO dates and legs', () => {
    const at = new Date('2026-03-04T05:06:07.000Z');
    const row: TradeRow = {
      id: '00000000-0000-4000-8000-000000000001',
      tradeId: 'T-1',
      userId: '00000000-0000-4000-8000-000000000002',
      symbol: 'ETH/USDT',
      status: 'completed',
      origin: 'manual',
      totalAmount: '250.5000000000',
      arbitrageSpread: '0.0031000000',
      actualProfit: '-1.2500000000',
      reason: 'converged',
      legs: [
        {
          venue: 'binance',
          side: 'buy',
          clientOrderId: 'T-1-b',
          venueOrderId: '42',
          status: 'closed',
          open: { price: '2000.5', quantity: '0.125', fee: '0.25', at: at.toISOString() },
          close: null,
        },
      ],
      decisionQuotes: { binance: { bid: 2000, ask: 2000.25 }, deriv: { bid: 2006.5, ask: 2007 } },
      createdAt: at,
      updatedAt: at,
      closedAt: null,
    };
    expect(toTradeDto(row)).toEqual({
      _id: row.id,
      tradeId: 'T-1',
      userId: row.userId,
      symbol: 'ETH/USDT',
      status: 'completed',
      origin: 'manual',
      totalAmount: 250.5,
      arbitrageSpread: 0.0031,
      actualProfit: -1.25,
      reason: 'converged',
      legs: [
        {
          venue: 'binance',
          side: 'buy',
          clientOrderId: 'T-1-b',
          venueOrderId: '42',
          status: 'closed',
          open: { price: 2000.5, quantity: 0.125, fee: 0.25, at: at.toISOString() },
          close: null,
        },
      ],
      decision: { binance: { bid: 2000, ask: 2000.25 }, deriv: { bid: 2006.5, ask: 2007 } },
      createdAt: at.toISOString(),
      updatedAt: at.toISOString(),
      closedAt: null,
    });
  });

  it('reads missing balances as zero, seeds paper balances once, and replaces a venue on sync', async () => {
    const dave = await insertUser(database.db, 'dave');
    expect(await getBalances(database.db, dave)).toEqual({
      binance: { USDT: '0', BTC: '0', ETH: '0' },
      deriv: { USDT: '0', BTC: '0', ETH: '0' },
      updatedAt: null,
    });
    await ensurePaperBalances(database.db, dave);
    const seeded = await getBalances(database.db, dave);
    for (const venue of ['binance', 'deriv'] as const) {
      for (const currency of ['USDT', 'BTC', 'ETH'] as const) {
        expect(Number(seeded[venue][currency])).toBe(Number(PAPER_SEED[venue][currency]));
      }
    }
    expect(seeded.updatedAt).toBeInstanceOf(Date);
    await setVenueBalances(database.db, dave, 'binance', { USDT: '123.45', BTC: '0.5', ETH: '0' });
    await ensurePaperBalances(database.db, dave); // must not reset what trading or a sync changed
    const synced = await getBalances(database.db, dave);
    expect(Number(synced.binance.USDT)).toBe(123.45);
    expect(Number(synced.binance.BTC)).toBe(0.5);
    expect(Number(synced.deriv.USDT)).toBe(Number(PAPER_SEED.deriv.USDT));
  });

  it('computes the statistics exactly in SQL', async () => {
    const erin = await insertUser(database.db, 'erin');
    await insertTrades(database.db, erin, [
      { status: 'completed', actualProfit: '10.5' },
      { status: 'completed', actualProfit: '-3.25' },
      { status: 'completed', actualProfit: '0.1' },
      { status: 'completed', actualProfit: '0.2' },
      { status: 'completed', actualProfit: '0' },
      { status: 'failed', actualProfit: '-1' },
      { status: 'failed' },
      { status: 'pending' },
      { status: 'cancelled', actualProfit: '5' },
    ]);
    await setVenueBalances(database.db, erin, 'binance', { USDT: '1000', BTC: '0.5', ETH: '2' });
    await setVenueBalances(database.db, erin, 'deriv', { USDT: '500.25', BTC: '0.25', ETH: '0' });
    const stats = await userStats(database.db, erin, { mid: (s) => (s === 'BTC/USDT' ? 40_000 : null) });
    expect(stats).toEqual({
      totalTrades: 9,
      // "successful" means won: the win rate's numerator (issue 20, finding 3)
      successfulTrades: 4,
      failedTrades: 2,
      // won: every finished trade above 0 (10.5, 0.1, 0.2 and the cancelled 5)
      totalProfit: 15.8,
      // every finished trade: completed, failed and cancelled
      netProfit: 11.55,
      // 4 won of 6 decided (the two trades at exactly 0 moved nothing)
      winRate: (4 * 100) / 6,
      decidedTrades: 6,
      // 1500.25 USDT + 0.75 BTC × 40,000; ETH has no price, so it counts 0.
      totalValue: 31_500.25,
    });
    const priced = await userStats(database.db, erin, { mid: (s) => (s === 'BTC/USDT' ? 40_000 : 2_000) });
    expect(priced.totalValue).toBe(35_500.25);
  });

  it("counts as won exactly the trades the contract's isWinningTrade accepts", async () => {
    const gina = await insertUser(database.db, 'gina');
    const profits = ['2', '0.01', '0', '-0.01', '-4'];
    await insertTrades(
      database.db,
      gina,
      TRADE_STATUSES.flatMap((status) => profits.map((actualProfit) => ({ status, actualProfit }))),
    );
    const listed = (await listTrades(database.db, gina, { page: 1, limit: 100 })).trades;
    const aggregates = await tradeAggregates(database.db, gina);
    expect(aggregates.winningTrades).toBe(listed.filter(isWinningTrade).length);
    expect(aggregates.decidedTrades).toBe(listed.filter(isDecidedTrade).length);
    // '2' and '0.01' in each of completed, failed and cancelled
    expect(aggregates.winningTrades).toBe(6);
    expect(aggregates.decidedTrades).toBe(12);
  });

  it('counts the losses of a user whose trades all failed (issue 9, finding 9)', async () => {
    const hugo = await insertUser(database.db, 'hugo');
    // Each failure unwound the filled leg at a loss: the trader lost 101.96 USDT in all.
    await insertTrades(database.db, hugo, [
      { status: 'failed', actualProfit: '-50.98' },
      { status: 'failed', actualProfit: '-50.98' },
      { status: 'failed' },
    ]);
    const stats = await userStats(database.db, hugo, noPrices);
    expect(stats).toMatchObject({
      totalTrades: 3,
      successfulTrades: 0,
      failedTrades: 3,
      totalProfit: 0,
      netProfit: -101.96,
      winRate: 0,
      decidedTrades: 2,
    });
  });

  it('answers zeros for a user with nothing', async () => {
    const frank = await insertUser(database.db, 'frank');
    expect(await userStats(database.db, frank, noPrices)).toEqual({
      totalTrades: 0,
      successfulTrades: 0,
      failedTrades: 0,
      totalProfit: 0,
      netProfit: 0,
      winRate: 0,
      decidedTrades: 0,
      totalValue: 0,
    });
    expect((await listTrades(database.db, frank, { page: 1, limit: 20 })).pagination).toEqual({
      current: 1,
      pages: 0,
      total: 0,
    });
  });
});
