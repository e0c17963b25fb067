// Replay benchmark (`npx tsx bench/replay.ts`): a backtest of 24 h of one-second history for both symbols — what the
// server keeps at full resolution — generated with the simulated market, replayed through the engine's replay
// (engine/replay: TradingCore, pre-trade checks, the trade state machine and paper fills). Beside it, in the same run,
// the floor: a bare loop over the same samples that only computes each spread. Target: the replay under 2 s.
// Env: BENCH_HOURS (24), BENCH_SEED (1), BENCH_RUNS (3; the best run is reported).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_SYMBOLS as SYMBOLS } from '../contract/pairs';
import { runBacktest } from '../server/engine/replay/backtest';
import { quotesOf, toColumns, type HistoryColumns, type HistoryRow } from '../server/engine/replay/history';
import { toPriceTick } from '../server/engine/prices';
import type { Quote } from '../server/venues/types';
import type { SimParams } from '../server/venues/sim/params';
import { runSim } from '../server/venues/sim/path';
import { CALIBRATED_PARAMS, DEMO_PARAMS } from '../server/venues/sim/profiles';

const HOURS = Number(process.env.BENCH_HOURS ?? 24);
const SEED = Number(process.env.BENCH_SEED ?? 1);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const HERE = dirname(fileURLToPath(import.meta.url));
const START = Date.parse('2026-11-01T00:00:00Z');
const LIMITS = { minSpread: 0.002, maxExposure: 1000, maxLoss: 100 };

/** One sample a second per symbol, the mids the recorder stores. */
function history(params: SimParams): HistoryColumns {
  const rows: HistoryRow[] = [];
  const perSecond = 1000 / params.tickMs;
  let step = 0;
  runSim(SEED, HOURS * 3600 * perSecond, params, (tick) => {
    if (step++ % perSecond !== 0) return;
    for (const symbol of SYMBOLS) {
      const { binance, deriv } = tick.symbols[symbol]!.quotes;
      rows.push({
        t: START + (step / perSecond) * 1000,
        symbol,
        binance: (binance.bid + binance.ask) / 2,
        deriv: (deriv.bid + deriv.ask) / 2,
        minute: false,
      });
    }
  });
  return toColumns(rows);
}

/** The floor: the least a replay must do, read every sample and compute its spread. */
function floor(columns: HistoryColumns): number {
  let sum = 0;
  for (let i = 0; i < columns.t.length; i += 1)
    sum += Math.abs((columns.deriv[i]! - columns.binance[i]!) / columns.binance[i]!);
  return sum;
}

/** A second floor: every sample turned into the two venues' quotes and the engine's price tick, no decision. */
function ticksOnly(columns: HistoryColumns): number {
  const latest = new Map<string, Quote>();
  let sum = 0;
  for (const quote of quotesOf(columns)) {
    latest.set(`${quote.venue}|${quote.symbol}`, quote);
    sum +=
      toPriceTick(
        quote.symbol,
        latest.get(`binance|${quote.symbol}`) ?? null,
        latest.get(`deriv|${quote.symbol}`) ?? null,
      ).spread ?? 0;
  }
  return sum;
}

function best<T>(run: () => T): { ms: number; result: T } {
  let ms = Infinity;
  let result!: T;
  for (let i = 0; i < RUNS; i += 1) {
    const started = performance.now();
    result = run();
    ms = Math.min(ms, performance.now() - started);
  }
  return { ms, result };
}

function main(): void {
  console.log(
    `Replay of ${HOURS} h of one-second history, both symbols, seed ${SEED}, limits ${JSON.stringify(LIMITS)}; best of ${RUNS} runs.\n`,
  );
  console.log(
    '| market | samples | floor: spreads only, ms | floor: quotes + ticks, ms | replay ms | replay / ticks floor | µs per sample | trades | net P&L USDT | win rate |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  const results: Record<string, unknown> = {};
  for (const [name, params] of [
    ['calibrated (default)', CALIBRATED_PARAMS],
    ['demo', DEMO_PARAMS],
  ] as const) {
    const columns = history(params);
    const n = columns.t.length;
    const bare = best(() => floor(columns));
    const ticks = best(() => ticksOnly(columns));
    const replay = best(() => runBacktest({ columns, limits: LIMITS, from: START, to: START + HOURS * 3600_000 }));
    const f = replay.result.figures;
    console.log(
      `| ${name} | ${n} | ${bare.ms.toFixed(1)} | ${ticks.ms.toFixed(0)} | ${replay.ms.toFixed(0)} | ${(replay.ms / ticks.ms).toFixed(1)}× | ${((replay.ms * 1000) / n).toFixed(2)} | ${f.trades} | ${f.netProfit.toFixed(2)} | ${f.winRate.toFixed(1)} % |`,
    );
    results[name] = { samples: n, floorMs: bare.ms, ticksFloorMs: ticks.ms, replayMs: replay.ms, figures: f };
  }
  const out = join(HERE, 'results', 'replay.json');
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify({ hours: HOURS, seed: SEED, limits: LIMITS, results }, null, 2)}\n`);
  console.log(`\nwritten to ${out}`);
}

main();
