// What operations cost on a database of 100,000 trades (issue 25): a backup of the embedded database taken from the
// running server (its size, its time, and how long the server's own queries wait meanwhile), a restore into a fresh
// DATA_DIR, and one GET /metrics scrape (server CPU and time), each beside a floor measured in the same run:
// - backup: reading the same data directory's files and gzip-compressing them at the same level in this process, the
//   least any file-level copy of it must do;
// - scrape: GET /healthz, a route that does nothing.
// Run: npx tsx bench/ops.ts (BENCH_TRADES=100000, BENCH_SCRAPES=40). Results: bench/results/ops.json.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { hash } from '@node-rs/argon2';
import { sql } from 'drizzle-orm';
import { PGlite } from '@electric-sql/pglite';
import { openDatabase } from '../server/db/client';
import { pgliteStartParams } from '../server/db/pglite-memory';
import { snapshotPglite, writeSnapshotFile } from '../server/db/pglite-snapshot';
import { seedTrades, seedUsers } from './lib/seed';

const ROOT = resolve(import.meta.dirname, '..');
const TRADES = Number(process.env.BENCH_TRADES ?? 100_000);
const SCRAPES = Number(process.env.BENCH_SCRAPES ?? 40);
const TOKEN = 'bench-metrics-token-0123456789';
const ADMIN = { username: 'admin@bench.test', password: 'bench-admin-password' };

const ms = (from: bigint) => Number(process.hrtime.bigint() - from) / 1e6;
const quantile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.floor(q * (values.length - 1))]!;
const mb = (bytes: number) => Math.round(bytes / 10_000) / 100;

function dirBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    total += entry.isDirectory() ? dirBytes(path) : statSync(path).size;
  }
  return total;
}

function allFiles(dir: string): Buffer[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? allFiles(join(dir, entry.name)) : [readFileSync(join(dir, entry.name))],
  );
}

/** User + system CPU of a process so far, ms (Linux /proc; clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function seed(dataDir: string): Promise<void> {
  const database = await openDatabase({ dataDir, databaseUrl: undefined });
  const users = await seedUsers(database.db, 100, await hash('bench-user-password'));
  await seedTrades(
    database.db,
    users.map((u) => u.id),
    TRADES,
  );
  // Nothing for the engine to recover at start: the seeded open trades never reached a venue.
  await database.db.execute(sql`UPDATE trades SET status = 'cancelled', closed_at = now() WHERE status = 'pending'`);
  await database.close();
}

function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', SKIP_CLIENT_BUILD: '1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((res, rej) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) res({ child, url: match[1]! });
    });
    child.once('exit', (code) => rej(new Error(`server exited (${code}):\n${out}`)));
  });
}

function runCli(command: string, args: string[], env: Record<string, string>): Promise<{ ms: number; out: string }> {
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, ['--import', 'tsx', `server/ops/backup/${command}-cli.ts`, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  return new Promise((res, rej) =>
    child.on('close', (code) => (code === 0 ? res({ ms: ms(started), out }) : rej(new Error(out)))),
  );
}

/** Sequential requests until `until` settles: each one's latency, ms. */
async function probeWhile(url: string, token: string, until: Promise<unknown>): Promise<number[]> {
  let done = false;
  void until.finally(() => (done = true));
  const latencies: number[] = [];
  while (!done) {
    const started = process.hrtime.bigint();
    await (await fetch(url, { headers: { authorization: `Bearer ${token}` } })).arrayBuffer();
    latencies.push(ms(started));
  }
  return latencies;
}

async function requestCost(pid: number, url: string, headers: Record<string, string>, n: number, gapMs: number) {
  const latencies: number[] = [];
  let bytes = 0;
  const cpuBefore = cpuMs(pid);
  const started = process.hrtime.bigint();
  for (let i = 0; i < n; i++) {
    const t = process.hrtime.bigint();
    bytes = (await (await fetch(url, { headers })).arrayBuffer()).byteLength;
    latencies.push(ms(t));
    await new Promise((r) => setTimeout(r, gapMs));
  }
  return { cpuMs: cpuMs(pid) - cpuBefore, wallMs: ms(started), latencies, bytes };
}

/** The longest a `SELECT 1` waits while a backup of the database is taken in this process, and the backup's time. */
async function lockHeld(dataDir: string): Promise<{ longestQueryMs: number; snapshotMs: number }> {
  const pgdata = join(dataDir, 'db');
  const client = await PGlite.create(pgdata, { startParams: pgliteStartParams() });
  try {
    let done = false;
    let longest = 0;
    const queries = (async () => {
      while (!done) {
        const started = process.hrtime.bigint();
        await client.query('SELECT 1');
        longest = Math.max(longest, ms(started));
        // PGlite answers within microtasks: without a turn of the event loop the backup's I/O would never run.
        await new Promise((r) => setImmediate(r));
      }
    })();
    const started = process.hrtime.bigint();
    await writeSnapshotFile(await snapshotPglite(client, pgdata, join(dataDir, 'backups')), join(dataDir, 'x.tar.gz'));
    const snapshotMs = ms(started);
    done = true;
    await queries;
    return { longestQueryMs: Math.round(longest), snapshotMs: Math.round(snapshotMs) };
  } finally {
    await client.close();
  }
}

async function main(): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), 'bench-ops-'));
  const dataDir = join(scratch, 'data');
  mkdirSync(dataDir, { mode: 0o700 });
  const env = { DATA_DIR: dataDir, DATABASE_URL: '', METRICS_TOKEN: TOKEN, ADMIN_EMAIL: ADMIN.username };
  let server: ChildProcess | null = null;
  try {
    console.log(`seeding ${TRADES} trades...`);
    await seed(dataDir);
    const dbBytes = dirBytes(join(dataDir, 'db'));
    const started = await startServer({ ...env, ADMIN_PASSWORD: ADMIN.password });
    server = started.child;
    const pid = server.pid!;
    const login = await fetch(`${started.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    const { token } = (await login.json()) as { token: string };
    const probeUrl = `${started.url}/api/trades?limit=1`;

    // Backup through the running server, as `npm run backup` asks it, while a client queries the database.
    const quiet = await probeWhile(probeUrl, token, new Promise((r) => setTimeout(r, 3000)));
    const file = join(scratch, 'backup.tar.gz');
    const backup = runCli('backup', [file], env);
    // A query of the database, and beside it a request that touches nothing: the event loop alone.
    const [during, loopDuring] = await Promise.all([
      probeWhile(probeUrl, token, backup),
      probeWhile(`${started.url}/healthz`, token, backup),
    ]);
    const { ms: backupMs } = await backup;
    const backupBytes = statSync(file).size;

    // The floor: read the files and gzip them at the same level, here.
    const floorStarted = process.hrtime.bigint();
    const floorBytes = gzipSync(Buffer.concat(allFiles(join(dataDir, 'db'))), { level: 6 }).length;
    const floorMs = ms(floorStarted);

    // /metrics, one scrape at a time, spaced past the second its database figures are reused for.
    const idleBefore = cpuMs(pid);
    const idleStarted = process.hrtime.bigint();
    await new Promise((r) => setTimeout(r, 5000));
    const idleRate = (cpuMs(pid) - idleBefore) / ms(idleStarted);
    const auth = { authorization: `Bearer ${TOKEN}` };
    const scrape = await requestCost(pid, `${started.url}/metrics`, auth, SCRAPES, 1100);
    // Back to back, the database figures of one scrape serve the next ones of that second: the exposition alone.
    const cached = await requestCost(pid, `${started.url}/metrics`, auth, SCRAPES * 10, 0);
    const health = await requestCost(pid, `${started.url}/healthz`, {}, SCRAPES * 10, 0);
    const perRequest = (r: typeof scrape) => Math.max(0, (r.cpuMs - idleRate * r.wallMs) / r.latencies.length);
    const serverSide = await (await fetch(`${started.url}/metrics`, { headers: auth })).text();
    const sumOf = (name: string) =>
      Number(
        new RegExp(`^${name}\\{method="GET",route="/metrics",status_code="200"\\} (\\S+)$`, 'm').exec(serverSide)?.[1],
      );
    const serverMsPerScrape =
      (sumOf('http_request_duration_seconds_sum') / sumOf('http_request_duration_seconds_count')) * 1000;

    server.kill('SIGTERM');
    await new Promise((r) => server!.once('exit', r));
    server = null;

    // The lock itself, without HTTP or a second process on the cores: queries on the database while it is backed up.
    const lock = await lockHeld(dataDir);

    // Restore into a fresh DATA_DIR.
    const restore = await runCli('restore', [file], { ...env, DATA_DIR: join(scratch, 'restored') });

    const result = {
      trades: TRADES,
      databaseMB: mb(dbBytes),
      backup: {
        fileMB: mb(backupBytes),
        cliMs: Math.round(backupMs),
        floorMs: Math.round(floorMs),
        floorFileMB: mb(floorBytes),
        probeMs: {
          quietP50: quantile(quiet, 0.5),
          quietMax: Math.max(...quiet),
          duringP50: quantile(during, 0.5),
          duringMax: Math.max(...during),
          duringCount: during.length,
          healthzDuringP50: quantile(loopDuring, 0.5),
          healthzDuringMax: Math.max(...loopDuring),
        },
      },
      restore: { cliMs: Math.round(restore.ms) },
      lock,
      scrape: {
        bytes: scrape.bytes,
        cpuMsPerScrape: Number(perRequest(scrape).toFixed(2)),
        serverMsPerScrape: Number(serverMsPerScrape.toFixed(2)),
        latencyP50Ms: Number(quantile(scrape.latencies, 0.5).toFixed(2)),
        latencyP95Ms: Number(quantile(scrape.latencies, 0.95).toFixed(2)),
        cpuMsPerScrapeWithoutDatabase: Number(perRequest(cached).toFixed(2)),
        floorCpuMsPerRequest: Number(perRequest(health).toFixed(2)),
        floorLatencyP50Ms: Number(quantile(health.latencies, 0.5).toFixed(2)),
        idleCpuPercent: Number((idleRate * 100).toFixed(1)),
      },
    };
    console.log(JSON.stringify(result, null, 2));
    console.log(
      [
        `database of ${TRADES} trades: ${result.databaseMB} MB on disk`,
        `backup from the running server: ${result.backup.fileMB} MB in ${result.backup.cliMs} ms (npm run backup, tsx start included); floor (read + gzip in process): ${result.backup.floorMs} ms, ${result.backup.floorFileMB} MB`,
        `a client's query during the backup: p50 ${result.backup.probeMs.duringP50.toFixed(1)} ms, max ${result.backup.probeMs.duringMax.toFixed(0)} ms (quiet: p50 ${result.backup.probeMs.quietP50.toFixed(1)}, max ${result.backup.probeMs.quietMax.toFixed(0)} ms); GET /healthz meanwhile: p50 ${result.backup.probeMs.healthzDuringP50.toFixed(1)}, max ${result.backup.probeMs.healthzDuringMax.toFixed(0)} ms`,
        `in process: the longest query wait during a backup (the copy under PGlite's lock, CHECKPOINT included): ${lock.longestQueryMs} ms of the backup's ${lock.snapshotMs} ms`,
        `restore into a fresh DATA_DIR: ${result.restore.cliMs} ms`,
        `GET /metrics: ${result.scrape.bytes} bytes, ${result.scrape.cpuMsPerScrape} ms server CPU (${result.scrape.cpuMsPerScrapeWithoutDatabase} ms without the database figures), ${result.scrape.serverMsPerScrape} ms in the server, p50 ${result.scrape.latencyP50Ms} ms; floor GET /healthz: ${result.scrape.floorCpuMsPerRequest} ms CPU, p50 ${result.scrape.floorLatencyP50Ms} ms`,
      ].join('\n'),
    );
    mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
    writeFileSync(join(ROOT, 'bench', 'results', 'ops.json'), JSON.stringify(result, null, 2) + '\n');
  } finally {
    if (server) server.kill('SIGKILL');
    rmSync(scratch, { recursive: true, force: true });
  }
}

await main();
