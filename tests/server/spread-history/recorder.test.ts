// The spread history recorder on a real database (PGlite, and PostgreSQL when TEST_POSTGRES_URL is set): one sample
// per symbol and second, written in batches, only while leading; roll-up to minutes after a day, retention, and
// history that outlives a restart of the process.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Subject } from 'rxjs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SymbolId } from '../../../contract/domain';
import type { SymbolPrice } from '../../../contract/entities';
import type { SpreadSample } from '../../../contract/spreads';
import { openDatabase } from '../../../server/db/client';
import {
  insertSpreadSamples,
  readSpreadSeries,
  spreadHistorySize,
} from '../../../server/db/repositories/spread-history';
import { spreadMinutes } from '../../../server/db/schema/spread-minutes';
import { spreadSamples } from '../../../server/db/schema/spread-samples';
import { startSpreadRecorder, type SpreadRecorderOptions } from '../../../server/spread-history/recorder';
import { backends, openTestDatabase, type TestDatabase } from '../helpers/database';

const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);
const SECOND = 1000;
const DAY = 24 * 3600 * SECOND;

function price(symbol: SymbolId, at: number, binance: number, deriv: number): SymbolPrice {
  return {
    symbol,
    binance,
    deriv,
    spread: (deriv - binance) / binance,
    arbitrage: { profitable: false },
    timestamp: new Date(at).toISOString(),
    stale: false,
    ageMs: { binance: 0, deriv: 0 },
  };
}

const sample = (symbol: SymbolId, t: number, spread: number): SpreadSample => ({
  symbol,
  t,
  binance: 100,
  deriv: 100 * (1 + spread),
  spread,
  spreadLow: spread,
  spreadHigh: spread,
});

const silent = { warn: () => undefined };

describe.each(backends)('spread history recorder on %s', (backend) => {
  let dataDir: string;
  let database: TestDatabase;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'spread-history-'));
    database = await openTestDatabase(backend, dataDir);
  });
  beforeEach(async () => {
    await database.db.delete(spreadSamples);
    await database.db.delete(spreadMinutes);
  });
  afterAll(async () => {
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const recorder = (prices$: Subject<SymbolPrice>, options: Partial<SpreadRecorderOptions> = {}) =>
    startSpreadRecorder({
      db: database.db,
      prices$,
      isLeader: () => true,
      retentionDays: 30,
      logger: silent,
      // Long timers: the test decides when to flush and maintain.
      flushMs: 3_600_000,
      maintenanceMs: 3_600_000,
      now: () => T0,
      ...options,
    });

  it('keeps the last price of each second per symbol, and writes in batches of at most maxBatch', async () => {
    const prices$ = new Subject<SymbolPrice>();
    const batches: number[] = [];
    const r = recorder(prices$, {
      maxBatch: 25,
      write: async (db, samples) => {
        batches.push(samples.length);
        await insertSpreadSamples(db, samples);
      },
    });
    // 30 seconds at ten prices a second per symbol; the price moves within each second.
    for (let tenth = 0; tenth < 300; tenth += 1) {
      const at = T0 + tenth * 100;
      prices$.next(price('BTC/USDT', at, 60_000 + tenth, 60_010 + tenth));
      prices$.next(price('ETH/USDT', at, 3_000, 3_000 + tenth / 100));
    }
    await r.flush();
    // The 30th second is still open: 29 complete seconds per symbol are written, 25 at a time and then the rest.
    expect(batches).toEqual([25, 25, 8]);
    expect((await spreadHistorySize(database.db)).seconds).toBe(58);
    await r.stop();
    expect((await spreadHistorySize(database.db)).seconds).toBe(60);
    expect(batches.every((n) => n <= 25)).toBe(true);

    const btc = await readSpreadSeries(database.db, 'BTC/USDT', new Date(T0), new Date(T0 + 30 * SECOND), 1);
    expect(btc).toHaveLength(30);
    // Second 3 ends with the price of tenth 39.
    expect(btc[3]).toEqual({
      t: T0 + 3 * SECOND,
      binance: 60_039,
      deriv: 60_049,
      spread: 10 / 60_039,
      spreadLow: 10 / 60_039,
      spreadHigh: 10 / 60_039,
    });
  });

  it('records only while this instance leads the engine, and a sample written twice is one row', async () => {
    const prices$ = new Subject<SymbolPrice>();
    let leading = false;
    const a = recorder(prices$, { isLeader: () => leading });
    const b = recorder(prices$);
    for (let s = 0; s < 10; s += 1) {
      if (s === 5) leading = true;
      prices$.next(price('BTC/USDT', T0 + s * SECOND, 60_000, 60_006));
    }
    await a.stop();
    await b.stop();
    // b wrote all ten seconds; a only the five it led for, the same rows again.
    expect((await spreadHistorySize(database.db)).seconds).toBe(10);
  });

  it('rolls samples older than a day up into weighted minute rows, and deletes what is older than the retention', async () => {
    const now = T0;
    const minuteStart = now - 2 * DAY; // a whole minute, two days old
    const old = [0, 1, 2, 3].map((i) => sample('ETH/USDT', minuteStart + i * SECOND, i / 10_000));
    const ancient = sample('ETH/USDT', now - 31 * DAY, 0.001);
    const recent = sample('ETH/USDT', now - 3600 * SECOND, 0.0002);
    await insertSpreadSamples(database.db, [...old, ancient, recent]);

    const r = recorder(new Subject(), { now: () => now });
    await r.maintain();
    expect(await spreadHistorySize(database.db)).toEqual({ seconds: 1, minutes: 1 });
    const [minute] = await database.db.select().from(spreadMinutes);
    expect(minute).toMatchObject({ symbol: 'ETH/USDT', samples: 4, spreadLow: 0, spreadHigh: 0.0003 });
    expect(minute?.at.getTime()).toBe(minuteStart);
    expect(minute?.spread).toBeCloseTo(0.00015, 12);

    // Two more samples of that minute arrive late (a recorder that was behind): merged, weighted by sample count.
    await insertSpreadSamples(database.db, [
      sample('ETH/USDT', minuteStart + 10 * SECOND, 0.0009),
      sample('ETH/USDT', minuteStart + 11 * SECOND, 0.0009),
    ]);
    await r.maintain();
    const [merged] = await database.db.select().from(spreadMinutes);
    expect(merged).toMatchObject({ samples: 6, spreadLow: 0, spreadHigh: 0.0009 });
    expect(merged?.spread).toBeCloseTo((0.00015 * 4 + 0.0009 * 2) / 6, 12);

    // The series reads the minute row as four-plus-two samples beside the raw ones.
    const series = await readSpreadSeries(database.db, 'ETH/USDT', new Date(now - 3 * DAY), new Date(now), 86_400);
    expect(series.map((p) => p.spreadHigh)).toEqual([0.0009, 0.0002]);

    // Retention: a recorder keeping one day deletes the minute row too.
    const short = recorder(new Subject(), { now: () => now, retentionDays: 1 });
    await short.maintain();
    expect(await spreadHistorySize(database.db)).toEqual({ seconds: 1, minutes: 0 });
    await Promise.all([r.stop(), short.stop()]);
  });

  it('keeps the history across a restart of the process', async () => {
    const prices$ = new Subject<SymbolPrice>();
    const r = recorder(prices$);
    for (let s = 0; s < 5; s += 1) prices$.next(price('BTC/USDT', T0 + s * SECOND, 60_000 + s, 60_003 + s));
    await r.stop();
    const before = await readSpreadSeries(database.db, 'BTC/USDT', new Date(T0), new Date(T0 + 10 * SECOND), 1);
    expect(before).toHaveLength(5);

    // A new process opens the same database: PGlite's files in DATA_DIR, or the same PostgreSQL database.
    if (backend === 'pglite') await database.close();
    const reopened = await openDatabase({ dataDir, databaseUrl: database.url });
    try {
      expect(await readSpreadSeries(reopened.db, 'BTC/USDT', new Date(T0), new Date(T0 + 10 * SECOND), 1)).toEqual(
        before,
      );
    } finally {
      await reopened.close();
    }
    if (backend === 'pglite') database = await openTestDatabaseAgain(dataDir);
  });
});

/** The PGlite database the restart test closed, opened again for the tests after it and afterAll. */
async function openTestDatabaseAgain(dataDir: string): Promise<TestDatabase> {
  return { ...(await openDatabase({ dataDir, databaseUrl: undefined })), url: undefined };
}
