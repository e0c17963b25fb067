// API benchmark: GET /api/trades of the product beside its floor — the thinnest server on the same stack (Fastify and
// `pg`, no ORM: bench/api-floor.ts) doing the same work per request — on the same database, loaded in alternation.
//
//   npx tsx bench/api.ts                      # PostgreSQL on 127.0.0.1:5432, 1,000,000 trades over 100 users
//   BENCH_DB=pglite npx tsx bench/api.ts      # embedded PGlite (200,000 trades by default; no floor there)
//
// Options (environment): BENCH_DB=postgres|pglite, BENCH_TRADES, BENCH_USERS (100), BENCH_SECONDS per saturated run
// (10), BENCH_CONNECTIONS (50), BENCH_TOKEN_USERS (8, whose tokens are rotated), BENCH_PG_URL (maintenance database
// URL, postgres://postgres@127.0.0.1:5432/postgres), BENCH_PG_DB (bench_api), BENCH_REUSE=1 (keep the seeded database
// and use it again next time), BENCH_ROUNDS (3 interleaved rounds), BENCH_CASES (case numbers 1–5, e.g. "2,3"; all by
// default), BENCH_CAPACITY_CASE (the case whose capacity is searched, default 2: no filter, any page),
// BENCH_PROBE_SECONDS (5, per paced rate probed), BENCH_PROFILE=1 (both servers write V8 CPU profiles),
// BENCH_CAPACITY=0 (skip the capacity search: saturated runs only, for quick comparisons).
// Prints per case and server requests/s saturated (closed loop), server CPU per request, the highest evenly paced rate
// whose p99 stays ≤ 25 ms (bench/lib/open-loop.ts), the medians over the rounds and the ratios product/floor, and
// merges the figures into bench/results/api.json under the database's name.
import { mkdirSync, readFileSync, rmSync, writeFileSync, existsSync, mkdtempSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { count, like, sql } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase } from '../server/db/client';
import { trades } from '../server/db/schema/trades';
import { users } from '../server/db/schema/users';
import { hashPassword } from '../server/security/passwords';
import { seedTrades, seedUsers } from './lib/seed';
import { spawnApiServer, type ServerProcess } from './lib/spawn-server';
import { runLoad, type LoadCase, type LoadFigures } from './lib/load';
import { capacityAtP99 } from './lib/open-loop';
import { postgresCpuMeter } from './lib/pg-cpu';

const env = process.env;
const int = (value: string | undefined, fallback: number) => (value && /^\d+$/.test(value) ? Number(value) : fallback);
const kind: 'postgres' | 'pglite' = env.BENCH_DB === 'pglite' ? 'pglite' : 'postgres';
const FULL_SIZE = 1_000_000;
const TRADES = int(env.BENCH_TRADES, kind === 'postgres' ? FULL_SIZE : 200_000);
const USERS = int(env.BENCH_USERS, 100);
const SECONDS = int(env.BENCH_SECONDS, 10);
const CONNECTIONS = int(env.BENCH_CONNECTIONS, 50);
const TOKEN_USERS = Math.min(int(env.BENCH_TOKEN_USERS, 8), USERS);
const REUSE = env.BENCH_REUSE === '1';
const ROUNDS = Math.max(1, int(env.BENCH_ROUNDS, 3));
const PROBE_SECONDS = Math.max(1, int(env.BENCH_PROBE_SECONDS, 5));
const PROFILE = env.BENCH_PROFILE === '1';
const CAPACITY = env.BENCH_CAPACITY !== '0';
const P99_BOUND_MS = 25;
const FLOOR_ENTRY = fileURLToPath(new URL('./api-floor.ts', import.meta.url));
const PG_URL = env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
// Another benchmark (or a parallel checkout) may keep its own copy: BENCH_PG_DB names it (it must start with bench_).
const PG_DB = env.BENCH_PG_DB && /^bench_[a-z0-9_]+$/.test(env.BENCH_PG_DB) ? env.BENCH_PG_DB : 'bench_api';
const PASSWORD = 'bench-password-1';
const PAGE_SIZE = 20;
const RESULTS = fileURLToPath(new URL('./results/api.json', import.meta.url));

interface Target {
  dataDir: string;
  databaseUrl: string | undefined;
  cleanup(): Promise<void>;
}

async function prepareTarget(): Promise<Target> {
  if (kind === 'pglite') {
    const dataDir = join(tmpdir(), 'bench-api-pglite');
    if (!REUSE) rmSync(dataDir, { recursive: true, force: true });
    mkdirSync(dataDir, { recursive: true });
    return {
      dataDir,
      databaseUrl: undefined,
      cleanup: async () => (REUSE ? undefined : rmSync(dataDir, { recursive: true, force: true })),
    };
  }
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [PG_DB])).rowCount === 1;
  if (exists && !REUSE) await admin.query(`DROP DATABASE ${PG_DB} WITH (FORCE)`);
  if (!exists || !REUSE) await admin.query(`CREATE DATABASE ${PG_DB}`);
  await admin.end();
  const url = new URL(PG_URL);
  url.pathname = `/${PG_DB}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-api-keys-'));
  return {
    dataDir,
    databaseUrl: url.toString(),
    cleanup: async () => {
      rmSync(dataDir, { recursive: true, force: true });
      if (REUSE) return;
      const dropper = new pg.Client({ connectionString: PG_URL });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${PG_DB} WITH (FORCE)`);
      await dropper.end();
    },
  };
}

/** Seeds users and trades unless a reused database already holds exactly this data set. Returns the seconds spent. */
async function seed(target: Target): Promise<{ seconds: number; reused: boolean }> {
  const database = await openDatabase({ dataDir: target.dataDir, databaseUrl: target.databaseUrl });
  try {
    const [{ users: haveUsers = 0 } = {}] = await database.db
      .select({ users: count() })
      .from(users)
      .where(like(users.email, '%@bench.test'));
    const [{ trades: haveTrades = 0 } = {}] = await database.db.select({ trades: count() }).from(trades);
    if (REUSE && haveUsers === USERS && haveTrades === TRADES) return { seconds: 0, reused: true };
    // A kept database of another size: start it afresh (it is the benchmark's own database or data directory).
    if (haveUsers > 0 || haveTrades > 0)
      await database.db.execute(sql`TRUNCATE trades, sessions, balances, users CASCADE`);
    const started = Date.now();
    const seeded = await seedUsers(database.db, USERS, await hashPassword(PASSWORD));
    let lastReport = 0;
    await seedTrades(
      database.db,
      seeded.map((u) => u.id),
      TRADES,
      (done) => {
        if (done - lastReport >= TRADES / 10 || done === TRADES) {
          lastReport = done;
          process.stdout.write(
            `  seeded ${done.toLocaleString('en')} trades (${((Date.now() - started) / 1000).toFixed(0)} s)\n`,
          );
        }
      },
    );
    return { seconds: (Date.now() - started) / 1000, reused: false };
  } finally {
    await database.close();
  }
}

async function json<T>(url: string, init?: RequestInit): Promise<T> {
  const res = await fetch(url, init);
  if (!res.ok) throw new Error(`${init?.method ?? 'GET'} ${url} → ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

const FILTERS = [
  { name: 'no filter, pages 1–5', query: '', recentOnly: true },
  { name: 'no filter, any page', query: '', recentOnly: false },
  { name: 'status=completed, any page', query: '&status=completed', recentOnly: false },
  { name: 'symbol=ETH/USDT, any page', query: '&symbol=ETH%2FUSDT', recentOnly: false },
  { name: 'status=failed & symbol=BTC/USDT, any page', query: '&status=failed&symbol=BTC%2FUSDT', recentOnly: false },
] as const;

/** BENCH_CASES picks cases by number (1-based), e.g. "2" or "2,3", to keep development runs short. */
const picked = (env.BENCH_CASES ?? '')
  .split(',')
  .map(Number)
  .filter((n) => Number.isInteger(n) && n >= 1 && n <= FILTERS.length);
const CASES = picked.length ? picked.map((n) => FILTERS[n - 1] as (typeof FILTERS)[number]) : FILTERS;
const CAPACITY_CASE = (FILTERS[int(env.BENCH_CAPACITY_CASE, 2) - 1] ?? FILTERS[1]).name;

interface Side {
  name: 'product' | 'floor';
  server: ServerProcess;
}

interface SaturatedFigures extends LoadFigures {
  round: number;
}

interface CapacityFigures {
  round: number;
  rate: number;
  probes: { offered: number; p99: number; requestsPerSecond: number; ok: boolean }[];
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};
const ratio = (a: number, b: number) => (b > 0 ? Number((a / b).toFixed(2)) : null);

async function main(): Promise<void> {
  console.log(
    `API benchmark on ${kind}: ${TRADES.toLocaleString('en')} trades over ${USERS} users, ${CONNECTIONS} connections, ${SECONDS} s per case, ` +
      `${ROUNDS} interleaved rounds of product and floor${kind === 'pglite' ? ' (no floor on PGlite: it is a pg server)' : ''}`,
  );
  if (kind === 'pglite' && TRADES < FULL_SIZE) {
    console.log(
      `  (PGlite runs with ${TRADES.toLocaleString('en')} trades, not ${FULL_SIZE.toLocaleString('en')}: seeding the embedded database is much slower; set BENCH_TRADES to change it)`,
    );
  }
  const target = await prepareTarget();
  const seeding = await seed(target);
  console.log(seeding.reused ? '  reused the seeded database' : `  seeded in ${seeding.seconds.toFixed(1)} s`);

  const env = { DATA_DIR: target.dataDir, ...(target.databaseUrl && { DATABASE_URL: target.databaseUrl }) };
  const profileDir = PROFILE ? mkdtempSync(join(tmpdir(), 'bench-api-profile-')) : undefined;
  const profiling = (side: string) => (profileDir ? ['--cpu-prof', `--cpu-prof-dir=${join(profileDir, side)}`] : []);
  const product = await spawnApiServer(env, { execArgv: profiling('product') });
  // The floor reads the key the product generated in DATA_DIR, so one token serves both.
  const floor =
    kind === 'postgres' ? await spawnApiServer(env, { entry: FLOOR_ENTRY, execArgv: profiling('floor') }) : null;
  const sides: Side[] = [
    { name: 'product', server: product },
    ...(floor ? [{ name: 'floor' as const, server: floor }] : []),
  ];
  try {
    const tokens: string[] = [];
    for (let i = 0; i < TOKEN_USERS; i++) {
      const body = await json<{ token: string }>(`${product.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: `bench${i}@bench.test`, password: PASSWORD }),
      });
      tokens.push(body.token);
    }

    const dbMeter = kind === 'postgres' ? await postgresCpuMeter(PG_URL, PG_DB) : null;
    const loads: LoadCase[] = [];
    for (const filter of CASES) {
      // Each user's page count under this filter, from the API itself.
      const pages: number[] = [];
      for (const token of tokens) {
        const first = await json<{ pagination: { pages: number } }>(
          `${product.url}/api/trades?limit=${PAGE_SIZE}${filter.query}`,
          {
            headers: { authorization: `Bearer ${token}` },
          },
        );
        pages.push(Math.max(1, filter.recentOnly ? Math.min(5, first.pagination.pages) : first.pagination.pages));
      }
      let n = 0;
      loads.push({
        name: filter.name,
        next: () => {
          const who = n++ % tokens.length;
          const page = 1 + Math.floor(Math.random() * (pages[who] as number));
          return {
            path: `/api/trades?page=${page}&limit=${PAGE_SIZE}${filter.query}`,
            headers: { authorization: `Bearer ${tokens[who]}` },
          };
        },
      });
    }
    for (const side of sides)
      await runLoad(
        side.server.url,
        { ...(loads[0] as LoadCase), name: 'warm-up' },
        { connections: CONNECTIONS, seconds: Math.min(3, SECONDS) },
      );

    /** CPU of the server process and of the database's backends around one run, per answered request. */
    const metered = async <T extends { requests: number }>(side: Side, run: () => Promise<T>) => {
      const cpuBefore = await side.server.cpuMs();
      await dbMeter?.sample();
      const figures = await run();
      const perRequest = (ms: number) => Number((ms / Math.max(1, figures.requests)).toFixed(3));
      return {
        figures,
        serverCpuMsPerRequest: perRequest((await side.server.cpuMs()) - cpuBefore),
        databaseCpuMsPerRequest: dbMeter ? perRequest(await dbMeter.sample()) : undefined,
      };
    };

    const capacityLoad = loads.find((l) => l.name === CAPACITY_CASE) ?? (loads[0] as LoadCase);
    const saturated = new Map<string, SaturatedFigures[]>();
    const capacity = new Map<string, CapacityFigures[]>();
    for (let round = 1; round <= ROUNDS; round++) {
      // Alternate who goes first, so neither side always runs on a machine the other has just warmed or heated.
      const order = round % 2 === 1 ? sides : [...sides].reverse();
      console.log(`  round ${round}/${ROUNDS}`);
      for (const load of loads) {
        for (const side of order) {
          const { figures, serverCpuMsPerRequest, databaseCpuMsPerRequest } = await metered(side, () =>
            runLoad(side.server.url, load, { connections: CONNECTIONS, seconds: SECONDS }),
          );
          const row = {
            ...figures,
            serverCpuMsPerRequest,
            ...(databaseCpuMsPerRequest !== undefined && { databaseCpuMsPerRequest }),
            round,
          };
          const key = `${side.name}\u0000${load.name}`;
          saturated.set(key, [...(saturated.get(key) ?? []), row]);
          console.log(
            `    ${side.name.padEnd(7)} ${load.name.padEnd(44)} ${figures.requestsPerSecond.toFixed(0).padStart(5)} req/s  p50 ${figures.latencyP50.toFixed(1).padStart(6)} ms  ` +
              `p99 ${figures.latencyP99.toFixed(1).padStart(6)} ms  server CPU ${serverCpuMsPerRequest} ms/req` +
              `${databaseCpuMsPerRequest !== undefined ? `, database ${databaseCpuMsPerRequest} ms/req` : ''}  (non-2xx ${figures.non2xx}, errors ${figures.errors})`,
          );
        }
      }
      // Capacity: the highest evenly paced rate whose p99 (timed from each request's scheduled send) stays ≤ 25 ms.
      for (const side of CAPACITY ? order : []) {
        const probes: CapacityFigures['probes'] = [];
        const sat = saturated.get(`${side.name}\u0000${capacityLoad.name}`)?.at(-1)?.requestsPerSecond ?? 200;
        const found = await capacityAtP99(side.server.url, capacityLoad, {
          connections: CONNECTIONS,
          seconds: PROBE_SECONDS,
          p99Ms: P99_BOUND_MS,
          // Well below the saturated throughput, so the ladder (×1.25 a step) finds the knee from below.
          startRate: Math.max(10, Math.round(sat * 0.2)),
          step: 1.25,
          onProbe: (f) => {
            const ok = f.latencyP99 <= P99_BOUND_MS && f.errors === 0 && f.timeouts === 0 && f.non2xx === 0;
            probes.push({
              offered: f.offered,
              p99: Number(f.latencyP99.toFixed(1)),
              requestsPerSecond: Math.round(f.requestsPerSecond),
              ok,
            });
            console.log(
              `    ${side.name.padEnd(7)} paced ${String(f.offered).padStart(5)}/s  p50 ${f.latencyP50.toFixed(1).padStart(6)} ms  p99 ${f.latencyP99.toFixed(1).padStart(6)} ms  ` +
                `${ok ? 'holds' : 'over'}  (sender lag ≤ ${f.senderLagMaxMs.toFixed(0)} ms)`,
            );
          },
        });
        capacity.set(side.name, [...(capacity.get(side.name) ?? []), { round, rate: found.rate, probes }]);
        console.log(
          `    ${side.name.padEnd(7)} capacity at p99 ≤ ${P99_BOUND_MS} ms: ${found.rate} req/s (${capacityLoad.name})`,
        );
      }
    }
    await dbMeter?.close();

    // Medians over the rounds, and the product's figures as a fraction of the floor's measured in the same run.
    const summaryOf = (side: Side['name'], load: string) => {
      const rows = saturated.get(`${side}\u0000${load}`) ?? [];
      return {
        requestsPerSecond: Math.round(median(rows.map((r) => r.requestsPerSecond))),
        serverCpuMsPerRequest: Number(median(rows.map((r) => r.serverCpuMsPerRequest ?? 0)).toFixed(3)),
        databaseCpuMsPerRequest: dbMeter
          ? Number(median(rows.map((r) => r.databaseCpuMsPerRequest ?? 0)).toFixed(3))
          : null,
        latencyP99: Number(median(rows.map((r) => r.latencyP99)).toFixed(1)),
        rounds: rows,
      };
    };
    console.log(`  medians of ${ROUNDS} rounds (product / floor):`);
    const cases = loads.map((load) => {
      const p = summaryOf('product', load.name);
      const f = floor ? summaryOf('floor', load.name) : null;
      const ratios = f
        ? {
            throughput: ratio(p.requestsPerSecond, f.requestsPerSecond),
            cpuPerRequest: ratio(p.serverCpuMsPerRequest, f.serverCpuMsPerRequest),
          }
        : null;
      console.log(
        `    ${load.name.padEnd(44)} ${String(p.requestsPerSecond).padStart(5)}${f ? ` / ${String(f.requestsPerSecond).padStart(5)}` : ''} req/s` +
          `${ratios ? ` (×${ratios.throughput})` : ''}   CPU ${p.serverCpuMsPerRequest}${f ? ` / ${f.serverCpuMsPerRequest}` : ''} ms/req${ratios ? ` (×${ratios.cpuPerRequest})` : ''}`,
      );
      return { name: load.name, product: p, floor: f, ratios };
    });
    const capacityMedian = (side: Side['name']) =>
      CAPACITY ? median((capacity.get(side) ?? []).map((c) => c.rate)) : null;
    const productCapacity = capacityMedian('product');
    const floorCapacity = floor ? capacityMedian('floor') : null;
    const capacityRatio = productCapacity !== null && floorCapacity ? ratio(productCapacity, floorCapacity) : null;
    if (CAPACITY)
      console.log(
        `    capacity at p99 ≤ ${P99_BOUND_MS} ms (${capacityLoad.name}): ${productCapacity}${floorCapacity !== null ? ` / ${floorCapacity} req/s (×${capacityRatio})` : ' req/s'}`,
      );
    const throughputRatios = cases.map((c) => c.ratios?.throughput).filter((r): r is number => typeof r === 'number');
    if (floor) {
      const worst = Math.min(...throughputRatios);
      console.log(
        `  targets (≥ 0.8 of the floor): throughput worst case ×${worst} ${worst >= 0.8 ? 'met' : 'MISSED'}, ` +
          (CAPACITY
            ? `capacity ×${capacityRatio} ${capacityRatio !== null && capacityRatio >= 0.8 ? 'met' : 'MISSED'}`
            : 'capacity not measured (BENCH_CAPACITY=0)'),
      );
    }

    const summary = {
      database: kind,
      trades: TRADES,
      users: USERS,
      fullSize: TRADES >= FULL_SIZE,
      connections: CONNECTIONS,
      secondsPerCase: SECONDS,
      rounds: ROUNDS,
      pageSize: PAGE_SIZE,
      tokenUsers: TOKEN_USERS,
      seedSeconds: seeding.reused ? null : Number(seeding.seconds.toFixed(1)),
      p99BoundMs: P99_BOUND_MS,
      capacityCase: capacityLoad.name,
      probeSeconds: PROBE_SECONDS,
      capacity: {
        product: productCapacity,
        floor: floorCapacity,
        ratio: capacityRatio,
        rounds: Object.fromEntries(capacity),
      },
      cases,
      machine: { cpus: cpus().length, loadAverage1m: Number(loadavg()[0]?.toFixed(2)), node: process.version },
      at: new Date().toISOString(),
    };
    const all = existsSync(RESULTS) ? (JSON.parse(readFileSync(RESULTS, 'utf8')) as Record<string, unknown>) : {};
    all[kind] = summary;
    mkdirSync(join(RESULTS, '..'), { recursive: true });
    writeFileSync(RESULTS, `${JSON.stringify(all, null, 2)}\n`);
    console.log(`  written to ${RESULTS}`);
  } finally {
    for (const side of sides) await side.server.stop();
    if (profileDir) console.log(`  CPU profiles of both servers in ${profileDir}/{product,floor}`);
    await target.cleanup();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
