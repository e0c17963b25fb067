// Figures benchmark: GET /api/balances and the two statistics calls for users with 10, 1,000, 10,000 and 100,000
// trades, paced open-loop, beside a floor route of the same server that does only the authentication check.
//
//   npx tsx bench/figures.ts                        # PostgreSQL on 127.0.0.1:5432
//   BENCH_LABEL=before npx tsx bench/figures.ts     # the key the figures are stored under in results/figures.json
//
// Options (environment): BENCH_RATE (paced rate, 300 req/s), BENCH_SECONDS per paced case (5), BENCH_CONNECTIONS (50),
// BENCH_SIZES (comma-separated trade counts, 10,1000,10000,100000), BENCH_CAPACITY=0 to skip the capacity search,
// BENCH_CAPACITY_SECONDS per probed rate (3), BENCH_WRITES (trades per round of the write-cost measure, 2000),
// BENCH_PG_URL (maintenance database URL), BENCH_REUSE=1 (keep the seeded database and reuse it next time).
// Prints p50/p99 and server and database CPU per request per route and user size at the paced rate, the highest paced
// rate whose p99 stays ≤ 25 ms (smallest and largest user) for each route and for the floor, and what the figures
// trigger adds to each trade write.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { count, like } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase } from '../server/db/client';
import { setVenueBalances } from '../server/db/repositories/balances';
import { users } from '../server/db/schema/users';
import { hashPassword } from '../server/security/passwords';
import type { LoadCase } from './lib/load';
import { runOpenLoop, type OpenLoopFigures } from './lib/open-loop';
import { cpuTicksOf, postgresCpuMeter, TICKS_PER_SECOND } from './lib/pg-cpu';
import { seedTrades, seedUsers } from './lib/seed';
import { spawnApiServer, type ServerProcess } from './lib/spawn-server';

const env = process.env;
const int = (value: string | undefined, fallback: number) => (value && /^\d+$/.test(value) ? Number(value) : fallback);
const RATE = int(env.BENCH_RATE, 300);
const SECONDS = int(env.BENCH_SECONDS, 5);
const CONNECTIONS = int(env.BENCH_CONNECTIONS, 50);
const CAPACITY = env.BENCH_CAPACITY !== '0';
const CAPACITY_SECONDS = int(env.BENCH_CAPACITY_SECONDS, 3);
const WRITES = int(env.BENCH_WRITES, 2000);
const SIZES = (env.BENCH_SIZES ?? '10,1000,10000,100000')
  .split(',')
  .map((s) => int(s.trim(), 0))
  .filter((n) => n > 0);
const LABEL = env.BENCH_LABEL ?? 'latest';
const REUSE = env.BENCH_REUSE === '1';
const PG_URL = env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PG_DB = 'bench_figures';
const PASSWORD = 'bench-password-1';
const P99_MS = 25;
const RESULTS = fileURLToPath(new URL('./results/figures.json', import.meta.url));

/** The figures routes, and the floor: an authenticated route of the same server that reads nothing else. */
const ROUTES = [
  { name: 'GET /api/balances', path: '/api/balances' },
  { name: 'GET /api/trades/stats/summary', path: '/api/trades/stats/summary' },
  { name: 'GET /api/balances/stats/portfolio', path: '/api/balances/stats/portfolio' },
] as const;
const FLOOR = {
  name: 'floor: GET /api/notifications/vapid-public-key (auth check only)',
  path: '/api/notifications/vapid-public-key',
} as const;

async function prepareDatabase(): Promise<{ url: string; dataDir: string; cleanup(): Promise<void> }> {
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [PG_DB])).rowCount === 1;
  if (exists && !REUSE) await admin.query(`DROP DATABASE ${PG_DB} WITH (FORCE)`);
  if (!exists || !REUSE) await admin.query(`CREATE DATABASE ${PG_DB}`);
  await admin.end();
  const url = new URL(PG_URL);
  url.pathname = `/${PG_DB}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-figures-keys-'));
  return {
    url: url.toString(),
    dataDir,
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

const emailOf = (i: number) => `figures${i}@bench.test`;

/** One user per size, each with that many trades (the seed's realistic status mix) and holdings on both venues. */
async function seed(url: string, dataDir: string): Promise<{ seconds: number; reused: boolean }> {
  const database = await openDatabase({ dataDir, databaseUrl: url });
  try {
    const [{ n = 0 } = {}] = await database.db
      .select({ n: count() })
      .from(users)
      .where(like(users.email, '%@bench.test'));
    if (REUSE && n === SIZES.length) return { seconds: 0, reused: true };
    const started = Date.now();
    const seeded = await seedUsers(database.db, SIZES.length, await hashPassword(PASSWORD), 'figures');
    for (const [i, size] of SIZES.entries()) {
      const user = seeded[i];
      if (!user) throw new Error('a seeded user is missing');
      await seedTrades(database.db, [user.id], size, undefined, 100_000, `FIG${i}`);
      await setVenueBalances(database.db, user.id, 'binance', { USDT: '10000', BTC: '0.5', ETH: '2' });
      await setVenueBalances(database.db, user.id, 'deriv', { USDT: '10000', BTC: '0.25', ETH: '1' });
      process.stdout.write(
        `  seeded a user with ${size.toLocaleString('en')} trades (${((Date.now() - started) / 1000).toFixed(1)} s)\n`,
      );
    }
    return { seconds: (Date.now() - started) / 1000, reused: false };
  } finally {
    await database.close();
  }
}

async function signIn(server: ServerProcess, email: string): Promise<string> {
  const res = await fetch(`${server.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: email, password: PASSWORD }),
  });
  if (!res.ok) throw new Error(`sign-in of ${email} → ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

const loadOf = (name: string, path: string, token: string): LoadCase => ({
  name,
  next: () => ({ path, headers: { authorization: `Bearer ${token}` } }),
});

interface Paced {
  route: string;
  trades: number;
  p50: number;
  p99: number;
  requestsPerSecond: number;
  failed: number;
  serverCpuMsPerRequest: number;
  /** PostgreSQL backends' CPU per request: where the per-request aggregate's cost showed. */
  databaseCpuMsPerRequest: number;
}

type DbMeter = Awaited<ReturnType<typeof postgresCpuMeter>>;

const signed = (v: number) => `${v >= 0 ? '+' : ''}${v.toFixed(3)}`;
const ms = (v: number) => (Number.isFinite(v) ? v.toFixed(1) : '—').padStart(7);

async function paced(
  server: ServerProcess,
  dbMeter: DbMeter,
  route: { name: string; path: string },
  trades: number,
  token: string,
  floorToken: string,
): Promise<Paced> {
  const cpuBefore = await server.cpuMs();
  await dbMeter.sample();
  const f: OpenLoopFigures = await runOpenLoop(server.url, loadOf(route.name, route.path, token), {
    rate: RATE,
    seconds: SECONDS,
    connections: CONNECTIONS,
  });
  // Settled first, so queries still running for this case's requests are charged to it.
  await settle(server, floorToken);
  const dbCpu = (await dbMeter.sample()) / Math.max(1, f.requests);
  const cpu = ((await server.cpuMs()) - cpuBefore) / Math.max(1, f.requests);
  const failed = f.non2xx + f.errors + f.timeouts;
  console.log(
    `  ${route.name.padEnd(66)} ${(trades ? trades.toLocaleString('en') : '—').padStart(7)} trades  p50 ${ms(f.latencyP50)} ms  p99 ${ms(f.latencyP99)} ms  ` +
      `${f.requestsPerSecond.toFixed(0).padStart(4)} req/s  server CPU ${cpu.toFixed(3)} ms/req, database ${dbCpu.toFixed(3)} ms/req${failed ? `  FAILED ${failed}` : ''}`,
  );
  return {
    route: route.name,
    trades,
    p50: round(f.latencyP50),
    p99: round(f.latencyP99),
    requestsPerSecond: round(f.requestsPerSecond),
    failed,
    serverCpuMsPerRequest: Number(cpu.toFixed(3)),
    databaseCpuMsPerRequest: Number(dbCpu.toFixed(3)),
  };
}

const round = (v: number) => (Number.isFinite(v) ? Number(v.toFixed(2)) : null) as number;

/**
 * Waits until the server is idle again: a request the server has given up on may still hold a database connection, and
 * a backlog left by one case (the per-request aggregate over 100,000 trades falls far behind) must not be charged to
 * the next. Idle = five sequential floor requests each answered within 20 ms.
 */
async function settle(server: ServerProcess, token: string, limitMs = 300_000): Promise<void> {
  const until = Date.now() + limitMs;
  let quick = 0;
  while (quick < 5 && Date.now() < until) {
    const started = performance.now();
    await fetch(`${server.url}${FLOOR.path}`, { headers: { authorization: `Bearer ${token}` } }).then((r) =>
      r.arrayBuffer(),
    );
    quick = performance.now() - started <= 20 ? quick + 1 : 0;
    if (quick === 0) await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * The highest paced rate whose p99 stays within 25 ms without a failed request: a ladder rising ×1.5 from 100 req/s,
 * then three bisections between the last rate that held and the first that did not, settling after every probe (the
 * shared capacityAtP99 cannot wait between probes, and a failed probe's backlog would fail the next one too).
 */
async function capacity(
  server: ServerProcess,
  route: { name: string; path: string },
  trades: number,
  token: string,
  floorToken: string,
): Promise<number> {
  const probe = async (rate: number) => {
    const f = await runOpenLoop(server.url, loadOf(route.name, route.path, token), {
      rate,
      seconds: CAPACITY_SECONDS,
      connections: CONNECTIONS,
    });
    await settle(server, floorToken);
    return f.latencyP99 <= P99_MS && f.non2xx + f.errors + f.timeouts === 0;
  };
  let good = 0;
  let bad = 0;
  for (let rate = 100; rate <= 5_000; rate = Math.round(rate * 1.5)) {
    if (await probe(rate)) good = rate;
    else {
      bad = rate;
      break;
    }
  }
  for (let i = 0; i < 3 && bad > 0 && bad - good > Math.max(5, good * 0.05); i++) {
    const mid = Math.round((good + bad) / 2);
    if (await probe(mid)) good = mid;
    else bad = mid;
  }
  console.log(
    `  ${route.name.padEnd(66)} ${(trades ? trades.toLocaleString('en') : '—').padStart(7)} trades  capacity at p99 ≤ ${P99_MS} ms: ${good} req/s`,
  );
  return good;
}

/**
 * What keeping the figures costs the writes: trades inserted pending and then finished (status and profit), each
 * statement its own transaction as the engine writes them, with the figures trigger enabled and disabled in turn (two
 * rounds each, interleaved, so the machine's drift falls on both). synchronous_commit is off for this session, so the
 * figure is the statements' work rather than the disk's flush. Each round deletes its own trades in the same trigger
 * state it wrote them, which leaves the kept figures as they were.
 */
interface OnOff {
  on: number;
  off: number;
}

async function writeCost(
  url: string,
  email: string,
): Promise<{ insertMs: OnOff; updateMs: OnOff; insertCpuMs: OnOff; updateCpuMs: OnOff }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const n = WRITES;
  const sums = { insert: { on: 0, off: 0 }, update: { on: 0, off: 0 } };
  // The backend's own CPU, beside the wall time: on a busy machine the wall time is mostly waiting for a core.
  const cpu = { insert: { on: 0, off: 0 }, update: { on: 0, off: 0 } };
  try {
    await client.query('SET synchronous_commit = off');
    const pid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid ?? 0;
    const cpuMs = () => (cpuTicksOf(pid) * 1000) / TICKS_PER_SECOND;
    const { rows } = await client.query<{ id: string }>('SELECT id FROM users WHERE email = $1', [email]);
    const userId = rows[0]?.id;
    if (!userId) throw new Error(`no user ${email}`);
    // Sums compared by value: 0 less nothing may come back as 0.0000000000.
    const keptRow = async () =>
      JSON.stringify(
        (
          await client.query(
            `SELECT total_trades, successful_trades, failed_trades, winning_trades, decided_trades, trim_scale(total_profit) AS total_profit,
                    trim_scale(net_profit) AS net_profit FROM trade_figures WHERE user_id = $1`,
            [userId],
          )
        ).rows,
      );
    const keptBefore = await keptRow();
    for (const [round, state] of (['on', 'off', 'on', 'off'] as const).entries()) {
      const toggle = state === 'on' ? 'ENABLE' : 'DISABLE';
      await client.query(`ALTER TABLE trades ${toggle} TRIGGER trades_keep_figures`);
      await client.query(`ALTER TABLE trades ${toggle} TRIGGER trades_keep_figures_on_update`);
      const stem = `WRITE${round}-`;
      let started = performance.now();
      let cpuStarted = cpuMs();
      for (let i = 0; i < n; i++) {
        await client.query(
          `INSERT INTO trades (trade_id, user_id, symbol, status, total_amount, arbitrage_spread) VALUES ($1, $2, 'BTC/USDT', 'pending', 100, 0.003)`,
          [`${stem}${i}`, userId],
        );
      }
      sums.insert[state] += performance.now() - started;
      cpu.insert[state] += cpuMs() - cpuStarted;
      started = performance.now();
      cpuStarted = cpuMs();
      for (let i = 0; i < n; i++) {
        await client.query(`UPDATE trades SET status = 'completed', actual_profit = $2 WHERE trade_id = $1`, [
          `${stem}${i}`,
          i % 2 === 0 ? '0.5' : '-0.25',
        ]);
      }
      sums.update[state] += performance.now() - started;
      cpu.update[state] += cpuMs() - cpuStarted;
      await client.query(`DELETE FROM trades WHERE trade_id LIKE $1`, [`${stem}%`]);
    }
    const keptAfter = await keptRow();
    if (keptAfter !== keptBefore)
      throw new Error(`the write-cost rounds changed the kept figures: ${keptBefore} → ${keptAfter}`);
  } finally {
    await client.query('ALTER TABLE trades ENABLE TRIGGER trades_keep_figures').catch(() => undefined);
    await client.query('ALTER TABLE trades ENABLE TRIGGER trades_keep_figures_on_update').catch(() => undefined);
    await client.end();
  }
  const per = (total: number) => Number((total / (2 * n)).toFixed(3));
  const both = (x: OnOff) => ({ on: per(x.on), off: per(x.off) });
  return {
    insertMs: both(sums.insert),
    updateMs: both(sums.update),
    insertCpuMs: both(cpu.insert),
    updateCpuMs: both(cpu.update),
  };
}

async function main(): Promise<void> {
  console.log(
    `Figures benchmark on PostgreSQL: users with ${SIZES.map((s) => s.toLocaleString('en')).join(' / ')} trades, paced ${RATE} req/s open-loop, ${SECONDS} s per case, ${CONNECTIONS} connections`,
  );
  const target = await prepareDatabase();
  const seeding = await seed(target.url, target.dataDir);
  console.log(seeding.reused ? '  reused the seeded database' : `  seeded in ${seeding.seconds.toFixed(1)} s`);
  const server = await spawnApiServer({ DATA_DIR: target.dataDir, DATABASE_URL: target.url });
  try {
    const tokens = await Promise.all(SIZES.map((_, i) => signIn(server, emailOf(i))));
    const tokenOf = (i: number) => tokens[i] as string;
    // Warm-up: connections, JIT and the planner's caches, on the smallest user.
    await runOpenLoop(server.url, loadOf('warm-up', ROUTES[0].path, tokenOf(0)), {
      rate: 100,
      seconds: 2,
      connections: CONNECTIONS,
    });

    const floorToken = tokenOf(0);
    const last = SIZES.length - 1;
    const capacities: { route: string; trades: number; rate: number }[] = [];
    // The floor's capacity first, while nothing the figures routes left behind can weigh on it.
    if (CAPACITY) {
      console.log(`\nHighest paced rate with p99 ≤ ${P99_MS} ms (${CAPACITY_SECONDS} s per probed rate):`);
      capacities.push({ route: FLOOR.name, trades: 0, rate: await capacity(server, FLOOR, 0, floorToken, floorToken) });
    }

    console.log(`\nPaced at ${RATE} req/s (latency from each request's scheduled send time):`);
    const dbMeter = await postgresCpuMeter(PG_URL, PG_DB);
    const floor = await paced(server, dbMeter, FLOOR, 0, floorToken, floorToken);
    const cases: Paced[] = [];
    for (const route of ROUTES)
      for (const [i, size] of SIZES.entries())
        cases.push(await paced(server, dbMeter, route, size, tokenOf(i), floorToken));

    await dbMeter.close();
    if (CAPACITY) {
      console.log(`\nHighest paced rate with p99 ≤ ${P99_MS} ms (${CAPACITY_SECONDS} s per probed rate):`);
      for (const route of ROUTES) {
        for (const i of new Set([0, last]))
          capacities.push({
            route: route.name,
            trades: SIZES[i] as number,
            rate: await capacity(server, route, SIZES[i] as number, tokenOf(i), floorToken),
          });
      }
      const floorRate = capacities[0]?.rate ?? 0;
      console.log(`  floor capacity: ${floorRate} req/s`);
      for (const c of capacities.slice(1))
        console.log(
          `  ${c.route} with ${c.trades.toLocaleString('en')} trades: ${c.rate} req/s, ${floorRate ? (c.rate / floorRate).toFixed(2) : '—'} of the floor's`,
        );
    }

    const worstP99 = Math.max(...cases.map((c) => (c.p99 === null ? Infinity : c.p99)));
    const p99Spread = cases.length ? `${Math.min(...cases.map((c) => c.p99))}–${worstP99}` : '—';
    const met = worstP99 <= P99_MS && cases.every((c) => c.failed === 0);
    console.log(
      `\n  p99 at ${RATE} req/s over every route and user size: ${p99Spread} ms (floor ${floor.p99} ms, p50 ${floor.p50} ms); target p99 ≤ ${P99_MS} ms: ${met ? 'met' : 'MISSED'}`,
    );

    console.log(
      `\nWrite cost of keeping the figures (${WRITES.toLocaleString('en')} trades inserted then finished, one transaction each, trigger on / off interleaved):`,
    );
    const writes = await writeCost(target.url, emailOf(0));
    const line = (what: string, wall: OnOff, backend: OnOff) =>
      console.log(
        `  ${what}: database CPU ${backend.on} ms with the trigger, ${backend.off} ms without (${signed(backend.on - backend.off)} ms); ` +
          `wall ${wall.on} ms against ${wall.off} ms (${signed(wall.on - wall.off)} ms)`,
      );
    line('insert a trade', writes.insertMs, writes.insertCpuMs);
    line('finish a trade', writes.updateMs, writes.updateCpuMs);

    const summary = {
      database: 'postgres',
      sizes: SIZES,
      rate: RATE,
      secondsPerCase: SECONDS,
      connections: CONNECTIONS,
      seedSeconds: seeding.reused ? null : Number(seeding.seconds.toFixed(1)),
      targetP99Ms: P99_MS,
      floor,
      cases,
      capacities,
      writes,
      worstP99Ms: worstP99,
      met,
      machine: { cpus: cpus().length, loadAverage1m: Number(loadavg()[0]?.toFixed(2)), node: process.version },
      at: new Date().toISOString(),
    };
    const all = existsSync(RESULTS) ? (JSON.parse(readFileSync(RESULTS, 'utf8')) as Record<string, unknown>) : {};
    all[LABEL] = summary;
    mkdirSync(join(RESULTS, '..'), { recursive: true });
    writeFileSync(RESULTS, `${JSON.stringify(all, null, 2)}\n`);
    console.log(`  written to ${RESULTS} under "${LABEL}"`);
  } finally {
    await server.stop();
    await target.cleanup();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
