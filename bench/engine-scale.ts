// The engine at scale (issue 21): 10, 100 and 1,000 users at the default limits trading on one engine over the demo
// simulated market, on PostgreSQL, with the production parts (createEngine: sim venues on the database paper book, the
// database trade store and user directory, the credentials loader). Each size runs on a fresh database for
// BENCH_SECONDS of market time; the 10-user run is the floor the others are read against.
// Per size it prints: decision → first order and decision → first fill (p50/p99/max), trades, failed trades by
// reason, decisions skipped because the engine was busy, process CPU and PostgreSQL CPU, event-loop delay p99, and
// how many queries waited for a pooled connection. Writes bench/results/engine-scale.json.
// Env: BENCH_SIZES ("10,100,1000"), BENCH_SECONDS (30), BENCH_SEED (market seed, 6: dislocations about 5 s and 21 s in), BENCH_PG_URL
// (postgres://postgres@127.0.0.1:5432/postgres; the runs use their own database, scale_engine_bench, dropped after).
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db/client';
import { venueAccountLoader } from '../server/db/repositories/credentials';
import { createEngine } from '../server/engine';
import type { EngineLogger } from '../server/engine/ports';
import { engineStopRecorder } from '../server/trading';
import { SIM_PROFILE_PARAMS } from '../server/venues/sim/profiles';
import type { Venue } from '../server/venues/types';
import { percentile } from './lib/open-loop';
import { postgresCpuMeter } from './lib/pg-cpu';
import { seedUsers } from './lib/seed';

const HERE = dirname(fileURLToPath(import.meta.url));
const SIZES = (process.env.BENCH_SIZES ?? '10,100,1000').split(',').map(Number);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const SEED = Number(process.env.BENCH_SEED ?? 6);
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB_NAME = 'scale_engine_bench';

interface Spread {
  p50: number;
  p99: number;
  max: number;
  count: number;
}

const spread = (samples: number[]): Spread => {
  const sorted = Float64Array.from(samples).sort();
  const r = (x: number) => Math.round(x * 10) / 10;
  return {
    p50: r(percentile(sorted, 50)),
    p99: r(percentile(sorted, 99)),
    max: r(sorted[sorted.length - 1] ?? NaN),
    count: sorted.length,
  };
};

async function admin<T>(work: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Order timings by trade id (client order ids are `<tradeId>-b` / `<tradeId>-d`). */
function timedVenue(venue: Venue, firstOrder: Map<string, number>, firstFill: Map<string, number>): Venue {
  const tradeOf = (clientOrderId: string) => clientOrderId.replace(/-[bd]$/, '');
  return Object.assign(Object.create(venue) as Venue, {
    openLeg: async (account: Parameters<Venue['openLeg']>[0], order: Parameters<Venue['openLeg']>[1]) => {
      const trade = tradeOf(order.clientOrderId);
      if (!firstOrder.has(trade)) firstOrder.set(trade, performance.now());
      const fill = await venue.openLeg(account, order);
      if (!firstFill.has(trade)) firstFill.set(trade, performance.now());
      return fill;
    },
  });
}

async function runSize(users: number) {
  await admin(async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${DB_NAME}`);
    await c.query(`CREATE DATABASE ${DB_NAME}`);
  });
  const url = new URL(PG_URL);
  url.pathname = `/${DB_NAME}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'scale-bench-'));
  const config = loadConfig({
    DATABASE_URL: url.toString(),
    DATA_DIR: dataDir,
    MARKET: 'sim',
    SIM_PROFILE: 'demo',
    SIM_SEED: String(SEED),
    LOG_LEVEL: 'silent',
  });
  const database = await openDatabase(config);
  const { db } = database;
  const seeded = await seedUsers(db, users, 'x', 'trader');
  await db.execute(
    sql`UPDATE users SET trading_enabled = true, trading_stop = NULL, trading_enabled_at = now() WHERE role = 'user'`,
  );

  const firstOrder = new Map<string, number>();
  const firstFill = new Map<string, number>();
  const decidedAt = new Map<string, number>();
  const errors: string[] = [];
  const logger: EngineLogger = {
    info: () => undefined,
    warn: () => undefined,
    error: (obj, msg) => {
      const err = (obj as { err?: unknown }).err;
      const detail = err instanceof Error ? `: ${err.message.slice(0, 200)}` : '';
      if (errors.length < 5) errors.push(`${String(msg ?? '')}${detail}`);
    },
  };
  const running = await createEngine({
    config,
    db,
    account: venueAccountLoader(db, randomBytes(32)),
    recordStop: engineStopRecorder(db),
    simParams: SIM_PROFILE_PARAMS.demo,
    tradeOn: (v) => ({
      binance: timedVenue(v.binance, firstOrder, firstFill),
      deriv: timedVenue(v.deriv, firstOrder, firstFill),
    }),
  });
  const { engine } = running;
  // The decision's moment: when the core hands back the opens of a tick.
  const core = engine.decisions;
  const onTick = core.onTick.bind(core);
  core.onTick = (tick) => {
    const commands = onTick(tick);
    const at = performance.now();
    for (const c of commands) if (c.kind === 'open') decidedAt.set(c.trade.tradeId, at);
    return commands;
  };
  let trades = 0;
  let skippedBusy = 0;
  const failed = new Map<string, number>();
  const ended = new Map<string, string>();
  engine.events$.subscribe((e) => {
    if (e.type === 'new_trade') trades += 1;
    if (e.type === 'trade_updated' && e.trade.status === 'failed' && !ended.has(e.trade.tradeId)) {
      ended.set(e.trade.tradeId, 'failed');
      const reason = (e.trade.reason ?? 'unknown').replace(/: it would fill at .*/, '').replace(/[0-9.]+/g, 'N');
      failed.set(reason, (failed.get(reason) ?? 0) + 1);
    }
    if (e.type === 'opportunity_outcome' && e.outcome.outcome === 'engine_busy') skippedBusy += 1;
  });

  const pgCpu = await postgresCpuMeter(PG_URL, DB_NAME);
  const loop = monitorEventLoopDelay({ resolution: 10 });
  let poolWaitMax = 0;
  let poolWaitSum = 0;
  let poolSamples = 0;
  const poolTimer = setInterval(() => {
    const stats = database.poolStats();
    if (!stats) return;
    poolWaitMax = Math.max(poolWaitMax, stats.waiting);
    poolWaitSum += stats.waiting;
    poolSamples += 1;
  }, 50);
  await running.start(logger);
  await pgCpu.sample();
  loop.enable();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  loop.disable();
  const pgCpuMs = await pgCpu.sample();
  clearInterval(poolTimer);
  await running.stop();
  await pgCpu.close();
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
  await admin((c) => c.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`));

  const toOrder: number[] = [];
  const toFill: number[] = [];
  for (const [trade, at] of decidedAt) {
    const order = firstOrder.get(trade);
    const fill = firstFill.get(trade);
    if (order !== undefined) toOrder.push(order - at);
    if (fill !== undefined) toFill.push(fill - at);
  }
  const failedTotal = [...failed.values()].reduce((s, n) => s + n, 0);
  const late = [...failed].filter(([r]) => /price moved|stale|not quoted/i.test(r)).reduce((s, [, n]) => s + n, 0);
  return {
    users: seeded.length,
    seconds: Math.round(wallMs / 100) / 10,
    decisions: decidedAt.size,
    decisionToFirstOrderMs: spread(toOrder),
    decisionToFirstFillMs: spread(toFill),
    trades,
    failed: failedTotal,
    failedByReason: Object.fromEntries([...failed].sort((a, b) => b[1] - a[1])),
    priceProtectionOrStalePct: trades ? Math.round((late / trades) * 1000) / 10 : 0,
    skippedBusy,
    cpuPct: Math.round(((cpu.user + cpu.system) / 1000 / wallMs) * 1000) / 10,
    postgresCpuPct: Math.round((pgCpuMs / wallMs) * 1000) / 10,
    eventLoopP99Ms: Math.round(loop.percentile(99) / 1e4) / 100,
    poolWaiting: { max: poolWaitMax, mean: poolSamples ? Math.round((poolWaitSum / poolSamples) * 10) / 10 : 0 },
    engineErrors: errors,
  };
}

async function main(): Promise<void> {
  const runs = [];
  for (const users of SIZES) {
    const run = await runSize(users);
    runs.push(run);
    const o = run.decisionToFirstOrderMs;
    const f = run.decisionToFirstFillMs;
    console.log(
      `${String(users).padStart(5)} users: decision→order p50 ${o.p50} ms p99 ${o.p99} ms (max ${o.max}) · ` +
        `→fill p50 ${f.p50} ms p99 ${f.p99} ms · trades ${run.trades}, failed ${run.failed} ` +
        `(price protection/stale ${run.priceProtectionOrStalePct} %), skipped busy ${run.skippedBusy} · ` +
        `CPU ${run.cpuPct} % (PostgreSQL ${run.postgresCpuPct} %), event-loop p99 ${run.eventLoopP99Ms} ms, ` +
        `pool waiting max ${run.poolWaiting.max} mean ${run.poolWaiting.mean}`,
    );
    for (const [reason, n] of Object.entries(run.failedByReason)) console.log(`        ${n} × ${reason}`);
    for (const e of run.engineErrors) console.log(`        engine error: ${e}`);
  }
  const floor = runs.find((r) => r.users === Math.min(...SIZES));
  const largest = runs[runs.length - 1];
  if (floor && largest && largest !== floor) {
    const ratio = (a: number, b: number) => Math.round((a / b) * 10) / 10;
    console.log(
      `${largest.users} users against the ${floor.users}-user floor: decision→order p99 ×${ratio(largest.decisionToFirstOrderMs.p99, floor.decisionToFirstOrderMs.p99)}, ` +
        `event-loop p99 ×${ratio(largest.eventLoopP99Ms, floor.eventLoopP99Ms)}`,
    );
    const met = (ok: boolean) => (ok ? 'met' : 'MISSED');
    console.log(
      `targets at ${largest.users}: p99 decision→order ≤ 250 ms: ${largest.decisionToFirstOrderMs.p99} ms ${met(largest.decisionToFirstOrderMs.p99 <= 250)}; ` +
        `price protection/stale ≤ 1 %: ${largest.priceProtectionOrStalePct} % ${met(largest.priceProtectionOrStalePct <= 1)}; ` +
        `event-loop p99 ≤ 50 ms: ${largest.eventLoopP99Ms} ms ${met(largest.eventLoopP99Ms <= 50)}`,
    );
  }
  mkdirSync(join(HERE, 'results'), { recursive: true });
  const out = { seconds: SECONDS, seed: SEED, profile: 'demo', runs };
  writeFileSync(join(HERE, 'results', 'engine-scale.json'), `${JSON.stringify(out, null, 2)}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
