// Tick → decision latency of the engine at 1,000 ticks/s with 1,000 users trading (`npx tsx bench/engine.ts`).
// Real pipelines (combineLatest per symbol → TradingCore → executor) over in-memory venues, paper book, trade store
// and user directory; the market alternates calm stretches and dislocations, so trades open, converge and close
// all through the run. Two figures per tick:
//   decision — from the quote's arrival to the engine's decisions for that tick being made (the synchronous path:
//              spread, closes, time limits, opens, orders handed to the executor);
//   due→done — from the moment the tick was due on the 1 ms schedule to the same point, so event-loop lag caused
//              by executing the trades (fills, writes, events) is included.
// The same load runs twice in one process, over the spec's 2 pairs and then over 12 (the ticks spread over the pairs,
// so the rate is the same), and the 12-pair figures are printed beside the 2-pair ones as ratios.
// Env: BENCH_USERS (1000), BENCH_TICKS_PER_S (1000), BENCH_SECONDS (10), BENCH_VENUE_LATENCY_MS (5),
// BENCH_PAIRS (2,12: the pair counts to run, the first being the reference).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SymbolId } from '../contract/domain';
import { PAIR_CATALOGUE } from '../contract/pairs';
import { ArbitrageEngine } from '../server/engine/engine';
import { enableSymbols } from '../server/venues/enabled-pairs';
import { modelledPair } from '../server/venues/sim/profiles';
import { InMemoryPaperBook } from '../server/venues/sim/paper-book';
import { fixedFigures, MemoryTradeStore, MemoryUsers } from '../tools/doubles/memory-engine-parts';
import { ScriptedVenue } from '../tools/doubles/scripted-venue';

const USERS = Number(process.env.BENCH_USERS ?? 1000);
const RATE = Number(process.env.BENCH_TICKS_PER_S ?? 1000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const VENUE_LATENCY_MS = Number(process.env.BENCH_VENUE_LATENCY_MS ?? 5);
const PAIR_COUNTS = (process.env.BENCH_PAIRS ?? '2,12').split(',').map(Number);
const HERE = dirname(fileURLToPath(import.meta.url));

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

function summary(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const round = (x: number) => Math.round(x * 1000) / 1000;
  return {
    p50: round(percentile(sorted, 50)),
    p90: round(percentile(sorted, 90)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted[sorted.length - 1] ?? NaN),
    count: sorted.length,
  };
}

/** Deriv's premium over Binance: calm noise, then every ~2.5 s a 0.6–1.5 % dislocation that decays in ~1 s. */
function* spreadPath(seed: number): Generator<number> {
  let s = seed >>> 0;
  const rand = () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
  let dislocation = 0;
  for (;;) {
    if (rand() < 1 / (2.5 * RATE)) dislocation = (0.006 + rand() * 0.009) * (rand() < 0.5 ? -1 : 1);
    dislocation *= Math.exp(-1 / RATE); // e-folding in ~1 s at RATE ticks per second
    if (Math.abs(dislocation) < 1e-5) dislocation = 0;
    yield dislocation + (rand() - 0.5) * 0.0004;
  }
}

async function run(pairCount: number) {
  const symbols: SymbolId[] = PAIR_CATALOGUE.slice(0, pairCount).map((p) => p.symbol);
  enableSymbols(symbols);
  // Each pair at the middle of the simulated market's range for it; a few million USDT of each coin on Binance.
  const base: Record<SymbolId, number> = Object.fromEntries(
    symbols.map((s) => {
      const [low, high] = modelledPair(s)!.priceRange;
      return [s, (low + high) / 2];
    }),
  );
  const coins = Object.fromEntries(symbols.map((s) => [s.split('/')[0]!, String(Math.round(3_000_000 / base[s]!))]));
  const book = new InMemoryPaperBook({
    binance: { USDT: '1000000', ...coins },
    deriv: { USDT: '1000000' },
  });
  // Orders take a few milliseconds, as a venue round trip does, so execution interleaves with ticks.
  const binance = new ScriptedVenue('binance', book, VENUE_LATENCY_MS);
  const deriv = new ScriptedVenue('deriv', book, VENUE_LATENCY_MS);
  const store = new MemoryTradeStore();
  const users = new MemoryUsers();
  for (let i = 0; i < USERS; i += 1) {
    users.set(`user-${i}`, { minSpread: String(0.002 + (i % 9) * 0.001), maxExposure: '1000', maxLoss: '1000000' });
  }
  const engine = new ArbitrageEngine({
    venues: { binance, deriv },
    store,
    users,
    account: async (userId) => ({ userId, credentials: {} }),
    figures: fixedFigures(),
    params: { maxHoldMs: 5_000 },
    userSyncMs: 60_000,
  });
  let events = 0;
  let opened = 0;
  let finished = 0;
  engine.events$.subscribe((e) => {
    events += 1;
    if (e.type === 'new_trade') opened += 1;
    if (e.type === 'trade_updated' && e.trade.status !== 'pending') finished += 1;
  });
  for (const s of symbols) {
    binance.push(s, base[s]!);
    deriv.push(s, base[s]!);
  }
  await engine.start();

  const paths = new Map(symbols.map((s, i) => [s, spreadPath(7 + 4 * i)]));
  const decision: number[] = [];
  const dueToDone: number[] = [];
  const total = RATE * SECONDS;
  const intervalMs = 1000 / RATE;
  const startedAt = performance.now();
  let sent = 0;
  const cpuBefore = process.cpuUsage();

  await new Promise<void>((resolve) => {
    const pump = () => {
      const now = performance.now();
      // every tick that is due by now goes out, each measured on its own
      while (sent < total && startedAt + sent * intervalMs <= now) {
        const symbol = symbols[sent % symbols.length] as SymbolId;
        const due = startedAt + sent * intervalMs;
        const spread = paths.get(symbol)!.next().value as number;
        binance.push(symbol, base[symbol]!);
        const t0 = performance.now();
        deriv.push(symbol, base[symbol]! * (1 + spread)); // combineLatest → engine.onTick → decisions, synchronously
        const t1 = performance.now();
        decision.push(t1 - t0);
        dueToDone.push(t1 - due);
        sent += 1;
      }
      if (sent < total) setImmediate(pump);
      else resolve();
    };
    pump();
  });
  const elapsed = (performance.now() - startedAt) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  await engine.idle();
  await engine.stop();

  const result = {
    pairs: pairCount,
    users: USERS,
    ticksPerSecondTarget: RATE,
    venueLatencyMs: VENUE_LATENCY_MS,
    ticks: sent,
    seconds: Math.round(elapsed * 100) / 100,
    achievedTicksPerSecond: Math.round(sent / elapsed),
    decisionMs: summary(decision),
    dueToDoneMs: summary(dueToDone),
    tradesOpened: opened,
    tradesFinished: finished,
    eventsEmitted: events,
    cpuSecondsUser: Math.round(cpu.user / 1e4) / 100,
    cpuSecondsSystem: Math.round(cpu.system / 1e4) / 100,
    node: process.version,
    at: new Date().toISOString(),
  };
  console.log(
    `engine: ${USERS} users, ${pairCount} pairs, ${result.achievedTicksPerSecond} ticks/s for ${result.seconds} s`,
  );
  console.log(
    `  decision  p50 ${result.decisionMs.p50} ms  p99 ${result.decisionMs.p99} ms  max ${result.decisionMs.max} ms`,
  );
  console.log(
    `  due→done  p50 ${result.dueToDoneMs.p50} ms  p99 ${result.dueToDoneMs.p99} ms  max ${result.dueToDoneMs.max} ms`,
  );
  console.log(`  trades opened ${opened}, finished ${finished}, events ${events}`);
  return result;
}

async function main(): Promise<void> {
  const runs = [];
  for (const count of PAIR_COUNTS) runs.push(await run(count));
  const [reference, ...others] = runs;
  const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;
  for (const other of others) {
    if (!reference) break;
    console.log(
      `  ${other.pairs} pairs beside ${reference.pairs}: decision p50 ×${ratio(other.decisionMs.p50, reference.decisionMs.p50)}, p99 ×${ratio(other.decisionMs.p99, reference.decisionMs.p99)}; due→done p99 ×${ratio(other.dueToDoneMs.p99, reference.dueToDoneMs.p99)}`,
    );
  }
  const out = join(HERE, 'results', 'engine.json');
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify({ benchmark: 'engine tick → decision', runs }, null, 2)}\n`);
  console.log(`  written to ${out}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
