// Memory benchmark: resident size of the real server process on the embedded PGlite default, as `npm start` runs it
// (compiled, server/launch.js).
//
//   npx tsx bench/memory.ts                 # 10 minutes of trading by 10 users, then 1,000 sockets
//   npx tsx bench/memory.ts --minutes 2     # shorter trading phase
//
// Options: --minutes N (10), --users N (10), --sockets N (1000).
// Prints RSS (and the peak so far) after start, after the trading phase, after the sockets connected and left, beside
// a floor measured in the same run: a bare Node process that opens the same data directory with PGlite (same memory
// settings) and runs one query. Writes bench/results/memory.json.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { compileServer } from '../server/compile.js';
import { pgliteStartParams } from '../server/db/pglite-memory';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RESULTS = fileURLToPath(new URL('./results/memory.json', import.meta.url));
const ADMIN_EMAIL = 'admin@bench.test';
const ADMIN_PASSWORD = 'bench-admin-password';
const USER_PASSWORD = 'bench-user-password';

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const value = at >= 0 ? Number(process.argv[at + 1]) : NaN;
  return Number.isFinite(value) && value >= 0 ? value : fallback;
}
const MINUTES = option('minutes', 10);
const USERS = option('users', 10);
const SOCKETS = option('sockets', 1000);
/** Time given to the process after each phase before reading its size (timers, GC, the price feed settling). */
const SETTLE_MS = 10_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Memory {
  rssMb: number;
  peakMb: number;
}

function memoryOf(pid: number): Memory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
  return { rssMb: Math.round(kb('VmRSS') / 1024), peakMb: Math.round(kb('VmHWM') / 1024) };
}

function startServer(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  // As `npm start` runs it: the compiled server (compiled ahead by main(), so launch.js finds it fresh and loads no
  // compiler). The process that transpiles its sources through tsx (tests, `npx tsx server/main.ts`) also holds tsx,
  // esbuild's transforms and every module's source map: with it the idle RSS was about 60 MB higher.
  const child = spawn(process.execPath, ['server/launch.js'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: '0',
      DATA_DIR: dataDir,
      SKIP_CLIENT_BUILD: '1',
      LOG_LEVEL: 'warn',
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      MARKET: 'sim',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match?.[1]) resolve({ child, url: match[1] });
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${String(code)} before listening:\n${out}`)));
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** A bare Node process with PGlite on the same data (same settings), after one query: what the database alone costs. */
function measureFloor(dbDir: string): Promise<Memory> {
  const program = `
    const [dir, params] = process.argv.slice(1);
    const { PGlite } = await import('@electric-sql/pglite');
    const db = await PGlite.create(dir, { startParams: JSON.parse(params) });
    await db.query('select count(*) from users');
    await new Promise((r) => setTimeout(r, 3000));
    const fs = await import('node:fs');
    const status = fs.readFileSync('/proc/self/status', 'utf8');
    console.log(status.match(/VmRSS:\\s+(\\d+)/)[1], status.match(/VmHWM:\\s+(\\d+)/)[1]);
    await db.close();
  `;
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--input-type=module', '-e', program, dbDir, JSON.stringify(pgliteStartParams())],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.once('exit', (code) => {
      const match = /^(\d+) (\d+)$/m.exec(out);
      if (code !== 0 || !match) return reject(new Error(`floor process failed (${String(code)}): ${out}`));
      resolve({ rssMb: Math.round(Number(match[1]) / 1024), peakMb: Math.round(Number(match[2]) / 1024) });
    });
  });
}

async function api<T>(
  url: string,
  method: string,
  path: string,
  token?: string,
  body?: unknown,
): Promise<{ status: number; json: T }> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: {
      ...(token && { authorization: `Bearer ${token}` }),
      ...(body !== undefined && { 'content-type': 'application/json' }),
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return { status: res.status, json: (await res.json()) as T };
}

async function signIn(url: string, username: string, password: string): Promise<{ token: string; id: string }> {
  const { status, json } = await api<{ token: string; user: { _id: string } }>(
    url,
    'POST',
    '/api/auth/login',
    undefined,
    { username, password },
  );
  if (status !== 200) throw new Error(`sign-in of ${username} failed with ${status}`);
  return { token: json.token, id: json.user._id };
}

function connected(url: string, token: string): Promise<Socket> {
  const socket = connectSocket(url, {
    auth: { token },
    transports: ['websocket'],
    forceNew: true,
    reconnection: false,
  });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

/** Users who trade automatically (paper, simulated market), each with a socket on its room, and place manual trades. */
async function trade(url: string, adminToken: string, minutes: number): Promise<{ trades: number; manual: number }> {
  const traders: Array<{ token: string; id: string; socket: Socket }> = [];
  for (let i = 0; i < USERS; i++) {
    const username = `trader${i}`;
    const created = await api(url, 'POST', '/api/admin/users', adminToken, {
      username,
      email: `${username}@bench.test`,
      password: USER_PASSWORD,
      role: 'user',
    });
    if (created.status !== 201) throw new Error(`creating ${username} failed with ${created.status}`);
    const session = await signIn(url, username, USER_PASSWORD);
    await api(url, 'PUT', `/api/users/${session.id}`, session.token, {
      maxExposure: 5000,
      minSpread: 0.0005,
      maxLoss: 100_000,
    });
    await api(url, 'POST', '/api/exchanges/trading/add-user', session.token);
    const socket = await connected(url, session.token);
    socket.emit('join_room', `user:${session.id}`);
    traders.push({ ...session, socket });
  }
  let manual = 0;
  const until = Date.now() + minutes * 60_000;
  while (Date.now() < until) {
    await Promise.all(
      traders.map(async (t, i) => {
        const placed = await api(url, 'POST', '/api/trades', t.token, {
          symbol: i % 2 === 0 ? 'BTC/USDT' : 'ETH/USDT',
          totalAmount: 50,
        });
        if (placed.status < 300) manual += 1;
        await api(url, 'GET', '/api/trades?limit=20', t.token);
        await api(url, 'GET', '/api/trades/stats/summary', t.token);
      }),
    );
    await sleep(2_000);
  }
  let trades = 0;
  for (const t of traders) {
    const page = await api<{ pagination?: { total?: number } }>(url, 'GET', '/api/trades?limit=1', t.token);
    trades += page.json.pagination?.total ?? 0;
    t.socket.disconnect();
  }
  return { trades, manual };
}

async function socketsComeAndGo(url: string, token: string, count: number): Promise<void> {
  const sockets: Socket[] = [];
  // In batches, so the handshakes do not all queue at once on this 2-core machine.
  for (let i = 0; i < count; i += 50) {
    sockets.push(...(await Promise.all(Array.from({ length: Math.min(50, count - i) }, () => connected(url, token)))));
  }
  for (const socket of sockets) socket.disconnect();
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-memory-'));
  const rows: Array<{ phase: string } & Memory> = [];
  const record = (phase: string, memory: Memory) => {
    rows.push({ phase, ...memory });
    console.log(
      `${phase.padEnd(44)} RSS ${String(memory.rssMb).padStart(5)} MB   peak ${String(memory.peakMb).padStart(5)} MB`,
    );
  };
  try {
    const compiled = await compileServer();
    console.log(`Compiled the server (${compiled.inputs} files, ${compiled.ms} ms).`);
    console.log(`memory: fresh server on PGlite, ${USERS} users trading for ${MINUTES} min, then ${SOCKETS} sockets\n`);
    const server = await startServer(dataDir);
    const pid = server.child.pid ?? 0;
    await sleep(SETTLE_MS);
    record('after start (idle)', memoryOf(pid));

    const admin = await signIn(server.url, ADMIN_EMAIL, ADMIN_PASSWORD);
    const traded = await trade(server.url, admin.token, MINUTES);
    await sleep(SETTLE_MS);
    record(`after ${MINUTES} min of trading by ${USERS} users`, memoryOf(pid));
    console.log(`  (${traded.trades} trades in the database, ${traded.manual} manual requests accepted)`);

    await socketsComeAndGo(server.url, admin.token, SOCKETS);
    await sleep(SETTLE_MS);
    record(`after ${SOCKETS} sockets connected and left`, memoryOf(pid));
    await stop(server.child);

    const floor = await measureFloor(join(dataDir, 'db'));
    record('floor: bare Node + PGlite on the same data', floor);
    const idle = rows[0]!;
    console.log(
      `\nIdle RSS ${(idle.rssMb / floor.rssMb).toFixed(2)}x the floor (${idle.rssMb} MB against ${floor.rssMb} MB; target 1.5x)`,
    );
    mkdirSync(fileURLToPath(new URL('./results/', import.meta.url)), { recursive: true });
    writeFileSync(
      RESULTS,
      `${JSON.stringify({ date: new Date().toISOString(), minutes: MINUTES, users: USERS, sockets: SOCKETS, trades: traded.trades, rows }, null, 2)}\n`,
    );
    console.log(`\nwritten to ${RESULTS}`);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
