// API benchmark: GET /api/trades under 50 concurrent connections over a large trades table.
//
//   npx tsx bench/api.ts                      # PostgreSQL on 127.0.0.1:5432, 1,000,000 trades over 100 users
//   BENCH_DB=pglite npx tsx bench/api.ts      # embedded PGlite (200,000 trades by default: seeding is slower there)
//
// Options (environment): BENCH_DB=postgres|pglite, BENCH_TRADES, BENCH_USERS (100), BENCH_SECONDS per case (10),
// BENCH_CONNECTIONS (50), BENCH_TOKEN_USERS (8, whose tokens are rotated), BENCH_PG_URL (maintenance database URL,
// postgres://postgres@127.0.0.1:5432/postgres), BENCH_REUSE=1 (keep the seeded database and use it again next time),
// BENCH_RATE (requests/s of the paced phase; default half the saturated throughput of the same case).
// Prints p50/p99 latency, requests/s and server CPU per request per case — saturated (closed loop) and paced — and
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
import { spawnApiServer } from './lib/spawn-server';
import { runLoad, type LoadCase, type LoadFigures } from './lib/load';
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
const RATE = env.BENCH_RATE && /^\d+$/.test(env.BENCH_RATE) ? Number(env.BENCH_RATE) : undefined;
const PG_URL = env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PG_DB = 'bench_api';
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
    return { dataDir, databaseUrl: undefined, cleanup: async () => (REUSE ? undefined : rmSync(dataDir, { recursive: true, force: true })) };
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
    const [{ users: haveUsers = 0 } = {}] = await database.db.select({ users: count() }).from(users).where(like(users.email, '%@bench.test'));
    const [{ trades: haveTrades = 0 } = {}] = await database.db.select({ trades: count() }).from(trades);
    if (REUSE && haveUsers === USERS && haveTrades === TRADES) return { seconds: 0, reused: true };
    // A kept database of another size: start it afresh (it is the benchmark's own database or data directory).
    if (haveUsers > 0 || haveTrades > 0) await database.db.execute(sql`TRUNCATE trades, sessions, balances, users CASCADE`);
    const started = Date.now();
    const seeded = await seedUsers(database.db, USERS, await hashPassword(PASSWORD));
    let lastReport = 0;
    await seedTrades(database.db, seeded.map((u) => u.id), TRADES, (done) => {
      if (done - lastReport >= TRADES / 10 || done === TRADES) {
        lastReport = done;
        process.stdout.write(`  seeded ${done.toLocaleString('en')} trades (${((Date.now() - started) / 1000).toFixed(0)} s)\n`);
      }
    });
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

async function main(): Promise<void> {
  console.log(`API benchmark on ${kind}: ${TRADES.toLocaleString('en')} trades over ${USERS} users, ${CONNECTIONS} connections, ${SECONDS} s per case`);
  if (kind === 'pglite' && TRADES < FULL_SIZE) {
    console.log(`  (PGlite runs with ${TRADES.toLocaleString('en')} trades, not ${FULL_SIZE.toLocaleString('en')}: seeding the embedded database is much slower; set BENCH_TRADES to change it)`);
  }
  const target = await prepareTarget();
  const seeding = await seed(target);
  console.log(seeding.reused ? '  reused the seeded database' : `  seeded in ${seeding.seconds.toFixed(1)} s`);

  const server = await spawnApiServer({ DATA_DIR: target.dataDir, ...(target.databaseUrl && { DATABASE_URL: target.databaseUrl }) });
  try {
    const tokens: string[] = [];
    for (let i = 0; i < TOKEN_USERS; i++) {
      const body = await json<{ token: string }>(`${server.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: `bench${i}@bench.test`, password: PASSWORD }),
      });
      tokens.push(body.token);
    }

    const results: (LoadFigures & { paced: LoadFigures & { rate: number } })[] = [];
    const dbMeter = kind === 'postgres' ? await postgresCpuMeter(PG_URL, PG_DB) : null;
    const measured = async <R extends number | undefined>(load: LoadCase, rate: R) => {
      const cpuBefore = await server.cpuMs();
      await dbMeter?.sample();
      const figures = await runLoad(server.url, load, { connections: CONNECTIONS, seconds: SECONDS, ...(rate !== undefined && { rate }) });
      const perRequest = (ms: number) => Number((ms / Math.max(1, figures.requests)).toFixed(3));
      figures.serverCpuMsPerRequest = perRequest((await server.cpuMs()) - cpuBefore);
      // PGlite runs inside the server process, so its work is already in the server's CPU figure.
      if (dbMeter) figures.databaseCpuMsPerRequest = perRequest(await dbMeter.sample());
      console.log(
        `  ${figures.name.padEnd(54)} p50 ${figures.latencyP50.toFixed(1).padStart(6)} ms  p99 ${figures.latencyP99.toFixed(1).padStart(6)} ms  ` +
          `${figures.requestsPerSecond.toFixed(0).padStart(5)} req/s${rate === undefined ? '' : ` (offered ${rate})`}  ` +
          `server CPU ${figures.serverCpuMsPerRequest} ms/req${dbMeter ? `, database ${figures.databaseCpuMsPerRequest} ms/req` : ''}  (${figures.requests} requests, non-2xx ${figures.non2xx}, errors ${figures.errors})`,
      );
      return { ...figures, rate: rate ?? null } as LoadFigures & { rate: R extends number ? number : null };
    };
    for (const filter of FILTERS) {
      // Each user's page count under this filter, from the API itself.
      const pages: number[] = [];
      for (const token of tokens) {
        const first = await json<{ pagination: { pages: number } }>(`${server.url}/api/trades?limit=${PAGE_SIZE}${filter.query}`, {
          headers: { authorization: `Bearer ${token}` },
        });
        pages.push(Math.max(1, filter.recentOnly ? Math.min(5, first.pagination.pages) : first.pagination.pages));
      }
      let n = 0;
      const load: LoadCase = {
        name: filter.name,
        next: () => {
          const who = n++ % tokens.length;
          const page = 1 + Math.floor(Math.random() * (pages[who] as number));
          return { path: `/api/trades?page=${page}&limit=${PAGE_SIZE}${filter.query}`, headers: { authorization: `Bearer ${tokens[who]}` } };
        },
      };
      if (results.length === 0) await runLoad(server.url, { ...load, name: 'warm-up' }, { connections: CONNECTIONS, seconds: Math.min(3, SECONDS) });
      // Saturated: every connection sends its next request as soon as the last is answered (closed loop). Then paced
      // at half that throughput (or BENCH_RATE): the latency a client sees while the server has headroom.
      const saturated = await measured(load, undefined);
      const paced = await measured({ ...load, name: `${load.name} (paced)` }, RATE ?? Math.max(1, Math.round(saturated.requestsPerSecond / 2)));
      results.push({ ...saturated, paced });
    }
    await dbMeter?.close();

    const worstP99 = Math.max(...results.map((r) => r.latencyP99));
    const worstPacedP99 = Math.max(...results.map((r) => r.paced.latencyP99));
    const summary = {
      database: kind,
      trades: TRADES,
      users: USERS,
      fullSize: TRADES >= FULL_SIZE,
      connections: CONNECTIONS,
      secondsPerCase: SECONDS,
      pageSize: PAGE_SIZE,
      tokenUsers: TOKEN_USERS,
      seedSeconds: seeding.reused ? null : Number(seeding.seconds.toFixed(1)),
      targetP99Ms: kind === 'postgres' ? 25 : null,
      worstP99Ms: worstP99,
      worstPacedP99Ms: worstPacedP99,
      cases: results,
      machine: { cpus: cpus().length, loadAverage1m: Number(loadavg()[0]?.toFixed(2)), node: process.version },
      at: new Date().toISOString(),
    };
    if (kind === 'postgres') {
      console.log(`  worst p99 ${worstP99} ms saturated, ${worstPacedP99} ms paced, against the 25 ms target: ${worstP99 <= 25 ? 'met' : 'MISSED'} saturated`);
    }
    const all = existsSync(RESULTS) ? (JSON.parse(readFileSync(RESULTS, 'utf8')) as Record<string, unknown>) : {};
    all[kind] = summary;
    mkdirSync(join(RESULTS, '..'), { recursive: true });
    writeFileSync(RESULTS, `${JSON.stringify(all, null, 2)}\n`);
    console.log(`  written to ${RESULTS}`);
  } finally {
    await server.stop();
    await target.cleanup();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
