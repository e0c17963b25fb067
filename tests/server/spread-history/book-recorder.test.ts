// The spread-book recorder on a real database: every engine tick near a threshold or with a trade in flight, one a
// second otherwise, written in batches and read back exactly (bids, asks, the venues' own times, the engine's order
// within a millisecond); after a day the once-a-second rows are thinned to one a minute and near rows kept; nothing
// outlives the retention.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Subject } from 'rxjs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SymbolId } from '../../../contract/domain';
import { insertSpreadBooks, readReplayBooks, spreadBooksSize } from '../../../server/db/repositories/spread-books';
import { spreadBooks } from '../../../server/db/schema/spread-books';
import type { DecidedTick } from '../../../server/engine';
import { toPriceTick } from '../../../server/engine/prices';
import { startBookRecorder, type BookRecorderOptions } from '../../../server/spread-history/book-recorder';
import type { DecisionLevels } from '../../../server/spread-history/book-sampler';
import { backends, openTestDatabase, type TestDatabase } from '../helpers/database';

const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);
const DAY = 24 * 3600 * 1000;
const FLOOR = 0.0035;

/** A tick at `at` whose Deriv mid is `spread` above Binance's; the Deriv quote is `derivAge` ms old. */
function decided(symbol: SymbolId, at: number, spread: number, derivAge = 0): DecidedTick {
  const mid = 100;
  const binance = { venue: 'binance' as const, symbol, bid: mid - 0.01, ask: mid + 0.01, ts: at };
  const d = mid * (1 + spread);
  const deriv = { venue: 'deriv' as const, symbol, bid: d - 0.02, ask: d + 0.02, ts: at - derivAge };
  return { tick: toPriceTick(symbol, binance, deriv), at };
}

const silent = { warn: () => undefined };

describe.each(backends)('spread-book recorder on %s', (backend) => {
  let dataDir: string;
  let database: TestDatabase;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'spread-books-'));
    database = await openTestDatabase(backend, dataDir);
  });
  beforeEach(async () => {
    await database.db.delete(spreadBooks);
  });
  afterAll(async () => {
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const levels = (inFlight = new Set<SymbolId>(), lowest = Infinity): DecisionLevels => ({
    lowestOpenThreshold: () => lowest,
    hasTradesOn: (symbol) => inFlight.has(symbol),
  });
  const recorder = (ticks$: Subject<DecidedTick>, options: Partial<BookRecorderOptions> = {}) =>
    startBookRecorder({
      db: database.db,
      ticks$,
      levels: levels(),
      floor: FLOOR,
      isLeader: () => true,
      retentionDays: 30,
      logger: silent,
      flushMs: 3_600_000,
      maintenanceMs: 3_600_000,
      now: () => T0,
      ...options,
    });

  it('keeps every tick near the lowest threshold (and a second after), one a second elsewhere', async () => {
    const ticks$ = new Subject<DecidedTick>();
    const batches: number[] = [];
    const r = recorder(ticks$, {
      maxBatch: 40,
      write: async (db, rows) => {
        batches.push(rows.length);
        await insertSpreadBooks(db, rows);
      },
    });
    // 10 s at ten ticks a second: far (2 bp) for 3 s, near (30 bp ≥ 0.8 × 35 bp) for 2 s, far again for 5 s.
    for (let tenth = 0; tenth < 100; tenth += 1) {
      const spread = tenth >= 30 && tenth < 50 ? 0.003 : 0.0002;
      ticks$.next(decided('BTC/USDT', T0 + tenth * 100, spread, 40));
    }
    await r.stop();
    const size = await spreadBooksSize(database.db);
    // Near: 20 ticks, and the second after the last near one (tenths 50–58: the hold ends at tenth 59's clock).
    expect(size.dense).toBe(29);
    // Far: the first tick of seconds 0, 1, 2 and of the seconds after the hold (5 is taken by the hold... 6, 7, 8, 9
    // and tenth 59 begins no new second): 3 + 4.
    expect(size.sparse).toBe(3 + 4);
    expect(batches).toEqual([36]);
    const [btc] = await readReplayBooks(database.db, ['BTC/USDT'], new Date(T0), new Date(T0 + 10_000));
    expect(btc!.t[0]).toBe(T0);
    expect(btc!.binanceBid[0]).toBe(99.99);
    expect(btc!.derivAsk[0]).toBe(100 * 1.0002 + 0.02);
    expect(btc!.derivTs[0]).toBe(T0 - 40);
    expect(btc!.binanceTs[3]).toBe(T0 + 3000);
  });

  it('keeps every tick while a trade on the symbol is in flight, and the engine order within a millisecond', async () => {
    const ticks$ = new Subject<DecidedTick>();
    const inFlight = new Set<SymbolId>(['ETH/USDT']);
    const r = recorder(ticks$, { levels: levels(inFlight) });
    for (let step = 0; step < 10; step += 1) {
      // One market instant: Binance's quote, then Deriv's, both decided on at the same clock.
      ticks$.next(decided('ETH/USDT', T0 + step * 100, 0.0001));
      ticks$.next(decided('ETH/USDT', T0 + step * 100, 0.0002));
      ticks$.next(decided('BTC/USDT', T0 + step * 100, 0.0001));
    }
    await r.stop();
    const [btc, eth] = await readReplayBooks(database.db, ['BTC/USDT', 'ETH/USDT'], new Date(T0), new Date(T0 + 1000));
    expect(btc!.t).toEqual([T0]);
    expect(eth!.t).toHaveLength(20);
    // The two ticks of an instant come back in the order they were decided on.
    expect(eth!.derivBid.slice(0, 2)).toEqual([100 * 1.0001 - 0.02, 100 * 1.0002 - 0.02]);
  });

  it('records nothing while another instance leads', async () => {
    const ticks$ = new Subject<DecidedTick>();
    const r = recorder(ticks$, { isLeader: () => false });
    ticks$.next(decided('BTC/USDT', T0, 0.01));
    await r.stop();
    expect(await spreadBooksSize(database.db)).toEqual({ dense: 0, sparse: 0 });
  });

  it('thins once-a-second rows older than a day to one a minute, keeps near rows, and applies the retention', async () => {
    const ticks$ = new Subject<DecidedTick>();
    let now = T0;
    const r = recorder(ticks$, { now: () => now, retentionDays: 2 });
    // Two minutes of far seconds and ten near ticks, three days ago and at T0.
    for (const base of [T0 - 3 * DAY + 30_000, T0 - DAY - 120_000, T0]) {
      for (let s = 0; s < 120; s += 1) ticks$.next(decided('BTC/USDT', base + s * 1000, 0.0001));
      for (let k = 0; k < 10; k += 1) ticks$.next(decided('BTC/USDT', base + 120_000 + k * 100, 0.004));
    }
    await r.flush();
    expect(await spreadBooksSize(database.db)).toEqual({ dense: 30, sparse: 360 });
    now = T0 + 1000;
    await r.maintain();
    // Three days ago: gone. A day ago: the first row of each of its two minutes stays, and its ten near ticks; today:
    // untouched.
    const size = await spreadBooksSize(database.db);
    expect(size).toEqual({ dense: 20, sparse: 2 + 120 });
    const [old] = await readReplayBooks(database.db, ['BTC/USDT'], new Date(T0 - 2 * DAY), new Date(T0 - DAY + 10_000));
    expect(old!.t.slice(0, 2)).toEqual([T0 - DAY - 120_000, T0 - DAY - 60_000]);
    expect(old!.t).toHaveLength(12);
    await r.stop();
  });
});
