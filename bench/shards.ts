// Engine shards (`npx tsx bench/shards.ts`): N users trading one dislocation against the fake venues (MARKET=live),
// on PostgreSQL + Redis with ENGINE_SHARDS=2, first on one instance holding both shards (the floor), then on two
// instances holding one each, then the failover: one instance SIGKILLed while every trade is open.
// Per phase: dislocation → decision (the trade's write-ahead time) and dislocation → both legs open (seen in the
// database, polled every 25 ms), p50/p90/p99/max, the time until all N are open, and the CPU each server process
// used. The failover phase adds the time from the SIGKILL until the survivor holds every shard and until all
// trades (the dead instance's adopted ones too) closed on convergence.
// The product runs as it ships (server/main.ts); the fake venues run in a process of their own (tests/fakes/serve.ts).
// Env: BENCH_USERS (100), TEST_POSTGRES_URL, TEST_REDIS_URL.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { EngineInstancesResponse } from '../contract/engine-instances';
import type { PublicUser } from '../contract/entities';
import { cpuTicksOf, TICKS_PER_SECOND } from './lib/pg-cpu';

const USERS = Number(process.env.BENCH_USERS ?? 100);
const POSTGRES = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..');
const ADMIN = { username: 'admin@shards.bench', password: 'admin-password-for-the-bench' };
// The accounts tests/fakes/serve.ts opens.
const SECRET = 's'.repeat(64);
const keyOf = (i: number) => 'B'.repeat(58) + String(i).padStart(6, '0');
const tokenOf = (i: number) => `a1-ShardBench${String(i).padStart(5, '0')}`;

interface ServerProcess {
  child: ChildProcess;
  url: string;
  exited: Promise<unknown>;
}

/** A node process under tsx; resolves once `ready` matches its output. */
function run(args: string[], env: Record<string, string>, ready: RegExp) {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const exited = new Promise((r) => child.on('exit', r));
  const match = new Promise<RegExpExecArray>((res, rej) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const m = ready.exec(output);
      if (m) res(m);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then(() => rej(new Error(`${args[0]} exited before it was ready:\n${output}`)));
  });
  return { child, exited, match };
}

async function startServer(env: Record<string, string>): Promise<ServerProcess> {
  const env0 = { HOST: '127.0.0.1', PORT: '0', SKIP_CLIENT_BUILD: '1', ...env };
  const p = run(['server/main.ts'], env0, /listening on (http:\/\/[^\s]+)/);
  return { child: p.child, exited: p.exited, url: (await p.match)[1]! };
}

async function api(base: string, method: string, path: string, token?: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(token && { authorization: `Bearer ${token}` }),
      ...(body !== undefined && { 'content-type': 'application/json' }),
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

async function poll<T>(what: string, fn: () => Promise<T | null | false>, withinMs = 60_000): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

function summary(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
  return { p50: at(50), p90: at(90), p99: at(99), max: sorted.at(-1) ?? NaN, count: sorted.length };
}

async function main() {
  const fakes = run(['tests/fakes/serve.ts', String(USERS)], {}, /^(\{.*\})$/m);
  const venueEnv = JSON.parse((await fakes.match)[1]!) as Record<string, string>;
  const setPremium = (fraction: number) => fakes.child.stdin!.write(`premium ${fraction}\n`);

  const dbName = `shards_bench_${randomBytes(4).toString('hex')}`;
  const maintenance = new pg.Client({ connectionString: POSTGRES });
  await maintenance.connect();
  await maintenance.query(`CREATE DATABASE "${dbName}"`);
  const url = new URL(POSTGRES);
  url.pathname = `/${dbName}`;
  const db = new pg.Client({ connectionString: url.toString() });
  const dataDir = mkdtempSync(join(tmpdir(), 'arb-shards-bench-'));
  const env = {
    ...venueEnv,
    DATA_DIR: dataDir,
    DATABASE_URL: url.toString(),
    REDIS_URL: REDIS,
    ENGINE_SHARDS: '2',
    ADMIN_EMAIL: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: 'error',
  };
  const servers: ServerProcess[] = [];
  try {
    const a = await startServer(env);
    servers.push(a);
    await db.connect();
    const admin = (await api(a.url, 'POST', '/api/auth/login', undefined, ADMIN)).json.token as string;
    console.log(`shards: creating ${USERS} trading users...`);
    for (let i = 0; i < USERS; i += 1) {
      const who = { username: `bench${i}@shards.bench`, password: `bench-${i}-password` };
      await api(a.url, 'POST', '/api/admin/users', admin, {
        username: `bench${i}`,
        email: who.username,
        password: who.password,
      });
      const token = (await api(a.url, 'POST', '/api/auth/login', undefined, who)).json.token as string;
      const me = (await api(a.url, 'GET', '/api/auth/profile', token)).json.user as PublicUser;
      const keys = { binanceApiKey: keyOf(i), binanceSecretKey: SECRET, derivToken: tokenOf(i) };
      await api(a.url, 'PUT', `/api/users/${me._id}/api-keys`, token, keys);
      await api(a.url, 'PUT', `/api/users/${me._id}`, token, { maxExposure: 1000 });
      await api(a.url, 'POST', '/api/exchanges/trading/add-user', token);
    }
    const view = async (server: ServerProcess) =>
      (await api(server.url, 'GET', '/api/admin/engine', admin)).json as unknown as EngineInstancesResponse;

    const openCount = async (since: Date) =>
      (
        await db.query<{ n: string }>(
          `select count(*) as n from trades where created_at >= $1 and status = 'pending'
             and not exists (select 1 from jsonb_array_elements(legs) l where l->>'status' <> 'open')`,
          [since],
        )
      ).rows[0]!.n;
    /** One dislocation: every user's trade decided and open; the per-user figures in ms. */
    const dislocate = async (running: ServerProcess[]) => {
      const cpu0 = running.map((s) => cpuTicksOf(s.child.pid!));
      const t0 = new Date();
      setPremium(0.01);
      const openedAt = new Map<string, number>();
      for (;;) {
        const rows = await db.query<{ user_id: string; created_at: Date; legs: Array<{ status: string }> }>(
          `select user_id, created_at, legs from trades where created_at >= $1`,
          [t0],
        );
        for (const r of rows.rows)
          if (!openedAt.has(r.user_id) && r.legs.every((l) => l.status === 'open'))
            openedAt.set(r.user_id, Date.now() - t0.getTime());
        if (openedAt.size >= USERS) break;
        if (Date.now() - t0.getTime() > 120_000) throw new Error(`only ${openedAt.size} of ${USERS} trades opened`);
        await new Promise((r) => setTimeout(r, 25));
      }
      const decided = await db.query<{ ms: number }>(
        `select extract(epoch from (created_at - $1::timestamptz)) * 1000 as ms from trades where created_at >= $1`,
        [t0],
      );
      return {
        t0,
        decisionMs: summary(decided.rows.map((r) => Math.round(Number(r.ms)))),
        openMs: summary([...openedAt.values()]),
        allOpenMs: Math.max(...openedAt.values()),
        cpuSeconds: running.map((s, i) => (cpuTicksOf(s.child.pid!) - cpu0[i]!) / TICKS_PER_SECOND),
      };
    };
    const converge = async (since: Date) => {
      setPremium(0.0001);
      const t = Date.now();
      await poll('every trade closed', async () => (await openCount(since)) === '0', 120_000);
      await poll(
        'no trade pending',
        async () =>
          (await db.query(`select 1 from trades where status = 'pending' and created_at >= $1`, [since])).rowCount ===
          0,
        120_000,
      );
      return Date.now() - t;
    };

    await poll('A holding both shards', async () => (await view(a)).instances[0]?.shards.length === 2);
    // Each user's first trade on an instance opens its venue connections: a cold round first, then the measured one.
    const oneCold = await dislocate([a]);
    await converge(oneCold.t0);
    const one = await dislocate([a]);
    await converge(one.t0);

    const b = await startServer(env);
    servers.push(b);
    await poll('one shard each', async () => (await view(b)).instances.every((i) => i.shards.length === 1));
    const twoCold = await dislocate([a, b]);
    await converge(twoCold.t0);
    const two = await dislocate([a, b]);
    await converge(two.t0);

    const three = await dislocate([a, b]);
    const killedAt = Date.now();
    a.child.kill('SIGKILL');
    await a.exited;
    await poll('B holding both shards', async () => (await view(b)).instances.find((i) => i.self)?.shards.length === 2);
    const takeoverMs = Date.now() - killedAt;
    await converge(three.t0);
    const closedAfterKillMs = Date.now() - killedAt;

    const result = {
      users: USERS,
      oneInstance: one,
      twoInstances: two,
      firstRounds: { oneInstance: oneCold, twoInstances: twoCold },
      failover: { takeoverMs, closedAfterKillMs },
      node: process.version,
      at: new Date().toISOString(),
    };
    const line = (label: string, r: typeof one) =>
      console.log(
        `  ${label}: decision p50 ${r.decisionMs.p50} p99 ${r.decisionMs.p99} max ${r.decisionMs.max} ms · ` +
          `both legs open p50 ${r.openMs.p50} p99 ${r.openMs.p99} ms · all ${USERS} open in ${r.allOpenMs} ms · ` +
          `CPU ${r.cpuSeconds.map((s) => `${s.toFixed(2)} s`).join(' + ')}`,
      );
    console.log(`shards: ${USERS} users, ENGINE_SHARDS=2, fake venues, PostgreSQL + Redis`);
    line('1 instance × 2 shards (floor)', one);
    line('2 instances × 1 shard', two);
    line('first round, 1 instance (cold venue connections)', oneCold);
    line('first round after B joined (B cold)', twoCold);
    console.log(`  ratio all-open 2 instances / 1 instance: ${(two.allOpenMs / one.allOpenMs).toFixed(2)}`);
    console.log(
      `  failover: shards taken ${takeoverMs} ms after the SIGKILL; every trade closed ${closedAfterKillMs} ms after it`,
    );
    const out = join(HERE, 'results', 'shards.json');
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
    console.log(`  written to ${out}`);
  } finally {
    for (const s of servers) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
    await Promise.all(servers.map((s) => s.exited));
    await db.end().catch(() => undefined);
    fakes.child.stdin!.end();
    await fakes.exited;
    await maintenance.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
    await maintenance.end();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
