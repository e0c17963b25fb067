// Backtest versus engine (`npx tsx bench/backtest-vs-engine.ts`): the live engine trades the simulated market (demo
// profile) for a few hours with one user's limits while the server's recorders keep what it saw in an embedded
// database — the one-second mids (spread history) and the books it decided on (spread_books) — then the same window is
// backtested with the same limits two ways: from the mids with each venue's book rebuilt from default spreads (the
// replay before the books were kept) and from the recorded books (now). Prints trades and P&L of each beside the
// engine's, the rows each recording kept and the time its batched writes took.
// Env: BENCH_HOURS (3), BENCH_SEEDS (1,2), BENCH_MIN_SPREAD (0.002), BENCH_MAX_EXPOSURE (1000), BENCH_MAX_LOSS (100) for
// the first set of limits; the second is tight (a small maxLoss halts trading part-way).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { costFloor } from '../contract/costs';
import { DEFAULT_SYMBOLS as SYMBOLS } from '../contract/pairs';
import { openDatabase, type Db } from '../server/db/client';
import { insertSpreadBooks, readReplayBooks, spreadBooksSize } from '../server/db/repositories/spread-books';
import { insertSpreadSamples, readReplayHistory } from '../server/db/repositories/spread-history';
import { runBacktest, type BacktestComputed } from '../server/engine/replay/backtest';
import { mergeBooks } from '../server/engine/replay/books';
import { mergeSeries } from '../server/engine/replay/history';
import { startBookRecorder } from '../server/spread-history/book-recorder';
import { pricesOf, startSpreadRecorder } from '../server/spread-history/recorder';
import { DEMO_PARAMS } from '../server/venues/sim/profiles';
import { runEngineOnSim } from '../tools/doubles/sim-engine-run';

const HOURS = Number(process.env.BENCH_HOURS ?? 3);
const SEEDS = (process.env.BENCH_SEEDS ?? '1,2').split(',').map(Number);
/** The default user's limits, and tight ones where a small maxLoss halts trading part-way. */
const LIMIT_SETS = [
  {
    minSpread: Number(process.env.BENCH_MIN_SPREAD ?? 0.002),
    maxExposure: Number(process.env.BENCH_MAX_EXPOSURE ?? 1000),
    maxLoss: Number(process.env.BENCH_MAX_LOSS ?? 100),
  },
  { minSpread: 0.004, maxExposure: 4000, maxLoss: 10 },
];
const HERE = dirname(fileURLToPath(import.meta.url));
const silent = { warn: (o: unknown, m: string) => console.warn(m, o) };

/** Wraps a batch write to add up the time spent writing. */
function timed<T>(write: (db: Db, rows: readonly T[]) => Promise<void>, total: { ms: number; rows: number }) {
  return async (db: Db, rows: readonly T[]) => {
    const started = performance.now();
    await write(db, rows);
    total.ms += performance.now() - started;
    total.rows += rows.length;
  };
}

const yes = (b: boolean) => (b ? 'yes' : 'no');
const perThousand = (w: { ms: number; rows: number }) => ((w.ms / Math.max(1, w.rows)) * 1000).toFixed(1);
const pct = (a: number, b: number) =>
  b === 0 ? (a === 0 ? '0.0 %' : '—') : `${((Math.abs(a - b) / Math.abs(b)) * 100).toFixed(1)} %`;

async function main(): Promise<void> {
  console.log(`Engine vs backtest on the demo market, ${HOURS} h per seed and limits; embedded database.\n`);
  console.log(
    '| seed | limits (minSpread, maxExposure, maxLoss) | engine trades | engine P&L | before (mids) trades | before P&L | before P&L off | after (books) trades | after P&L | after P&L off | stopped (engine / before / after) | mid rows | book rows (dense + sparse) | book writes, ms (per 1,000 rows) | mid writes, ms (per 1,000 rows) |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  const results: unknown[] = [];
  for (const LIMITS of LIMIT_SETS)
    for (const seed of SEEDS) {
      const dir = mkdtempSync(join(tmpdir(), 'bench-backtest-'));
      const database = await openDatabase({ dataDir: dir, databaseUrl: undefined });
      const start = Math.floor((Date.now() - (HOURS + 1) * 3600_000) / 1000) * 1000;
      const end = start + HOURS * 3600_000 + 1000;
      const bookWrites = { ms: 0, rows: 0 };
      const midWrites = { ms: 0, rows: 0 };
      const live = await runEngineOnSim({
        seed,
        params: DEMO_PARAMS,
        start,
        minutes: HOURS * 60,
        limits: LIMITS,
        attach: (engine) => {
          const books = startBookRecorder({
            db: database.db,
            ticks$: engine.ticks$,
            levels: engine.decisions,
            floor: costFloor(engine.params, engine.params.defaultTakerFee),
            isLeader: () => true,
            retentionDays: 30,
            logger: silent,
            write: timed(insertSpreadBooks, bookWrites),
          });
          const mids = startSpreadRecorder({
            db: database.db,
            prices$: pricesOf(engine.events$),
            isLeader: () => true,
            retentionDays: 30,
            logger: silent,
            write: timed(insertSpreadSamples, midWrites),
          });
          return async () => {
            await books.stop();
            await mids.stop();
          };
        },
      });
      const job = { limits: LIMITS, from: start, to: end };
      const midSeries = await readReplayHistory(database.db, SYMBOLS, new Date(start), new Date(end));
      const bookSeries = await readReplayBooks(database.db, SYMBOLS, new Date(start), new Date(end));
      const before: BacktestComputed = runBacktest({ ...job, columns: mergeSeries(midSeries) });
      const after: BacktestComputed = runBacktest({ ...job, columns: mergeSeries([]), books: mergeBooks(bookSeries) });
      const size = await spreadBooksSize(database.db);
      const midRows = midSeries.reduce((sum, s) => sum + s.t.length, 0);
      await database.close();
      rmSync(dir, { recursive: true, force: true });
      const f = (n: number) => n.toFixed(2);
      console.log(
        `| ${seed} | ${LIMITS.minSpread}, ${LIMITS.maxExposure}, ${LIMITS.maxLoss} | ${live.trades.length} | ${f(live.netProfit)} | ${before.figures.trades} | ${f(before.figures.netProfit)} | ${pct(before.figures.netProfit, live.netProfit)} | ${after.figures.trades} | ${f(after.figures.netProfit)} | ${pct(after.figures.netProfit, live.netProfit)} | ${yes(live.stops.length > 0)} / ${yes(before.stopped !== null)} / ${yes(after.stopped !== null)} | ${midRows} | ${size.dense + size.sparse} (${size.dense} + ${size.sparse}) | ${bookWrites.ms.toFixed(0)} (${perThousand(bookWrites)}) | ${midWrites.ms.toFixed(0)} (${perThousand(midWrites)}) |`,
      );
      results.push({
        seed,
        limits: LIMITS,
        engine: { trades: live.trades.length, netProfit: live.netProfit, open: live.open, stop: live.stops[0] ?? null },
        before: { ...before.figures, stopped: before.stopped, openAtEnd: before.openAtEnd },
        after: { ...after.figures, stopped: after.stopped, openAtEnd: after.openAtEnd },
        midRows,
        bookRows: size,
        bookWrites,
        midWrites,
      });
    }
  const out = join(HERE, 'results', 'backtest-vs-engine.json');
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify({ hours: HOURS, results }, null, 2)}\n`);
  console.log(`\nwritten to ${out}`);
}

void main();
