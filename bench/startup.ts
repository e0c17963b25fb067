// Start-up of the server on an existing client build and database: spawn → first API answer, spawn → first /login
// page, for the server as `npm start` ran it before (TypeScript transpiled by tsx at every start), as it runs it now
// (compiled ahead into dist-server/, server/launch.js), and for a floor: a bare Node process that opens the same PGlite
// data directory and answers the same two URLs with Fastify. Rounds interleave the three, order rotating.
//   npx tsx bench/startup.ts                 # 5 rounds
//   STARTUP_RUNS=9 npx tsx bench/startup.ts
// Prints medians and ratios; writes bench/results/startup.json.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileServer } from '../server/compile.js';
import { pgliteStartParams } from '../server/db/pglite-memory';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RUNS = Number(process.env.STARTUP_RUNS ?? 5);
const TARGET_MS = 3000;
const ADMIN = { email: 'admin@startup.test', password: 'Startup-password-1' };

type Variant = 'tsx' | 'compiled' | 'floor';

/** The floor: what any server on this stack must do before answering — load Fastify and PGlite, open the database. */
const FLOOR = `
const [dir, params, clientDir, port] = process.argv.slice(1);
const { readFile } = await import('node:fs/promises');
const { PGlite } = await import('@electric-sql/pglite');
const { default: Fastify } = await import('fastify');
const db = await PGlite.create(dir, { startParams: JSON.parse(params) });
await db.query('select count(*) from users');
const app = Fastify();
app.get('/api/meta', async (_request, reply) => reply.code(401).send({ success: false, message: 'Authentication required. Please sign in.' }));
app.get('/login', async (_request, reply) => reply.type('text/html; charset=utf-8').send(await readFile(clientDir + '/index.html')));
process.on('SIGTERM', async () => { await app.close(); await db.close(); process.exit(0); });
await app.listen({ host: '127.0.0.1', port: Number(port) });
`;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

function command(variant: Variant, dataDir: string, clientDir: string, port: number): string[] {
  if (variant === 'tsx') return ['--import', 'tsx', 'server/main.ts'];
  if (variant === 'compiled') return ['server/launch.js'];
  return [
    '--input-type=module',
    '-e',
    FLOOR,
    join(dataDir, 'db'),
    JSON.stringify(pgliteStartParams()),
    clientDir,
    String(port),
  ];
}

/** Polls `url` every 10 ms until `ok` accepts an answer; ms since `since`. */
async function firstAnswer(
  url: string,
  since: number,
  ok: (res: Response) => boolean,
  child: ChildProcess,
): Promise<number> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}) before answering ${url}`);
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (ok(res)) return performance.now() - since;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  await exited;
  clearTimeout(timer);
}

interface Start {
  apiMs: number;
  loginMs: number;
  /** CPU time (user + system) the process had used when /login answered: steadier than wall time on a busy machine. */
  cpuMs: number;
}

const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/** utime + stime of a live process, from /proc (Linux), in ms. */
function cpuMsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS) * 1000;
}

async function startOnce(variant: Variant, dataDir: string, clientDir: string): Promise<Start> {
  const port = await freePort();
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
    CLIENT_DIR: clientDir,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    MARKET: 'sim',
    LOG_LEVEL: 'warn',
    DATABASE_URL: '',
    REDIS_URL: '',
  };
  const since = performance.now();
  const child = spawn(process.execPath, command(variant, dataDir, clientDir, port), {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    const base = `http://127.0.0.1:${port}`;
    const apiMs = await firstAnswer(`${base}/api/meta`, since, (res) => res.status === 401, child);
    const loginMs = await firstAnswer(
      `${base}/login`,
      since,
      (res) => res.status === 200 && (res.headers.get('content-type') ?? '').includes('text/html'),
      child,
    );
    return { apiMs, loginMs, cpuMs: cpuMsOf(child.pid!) };
  } finally {
    await stop(child);
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

async function main(): Promise<void> {
  const clientDir = mkdtempSync(join(tmpdir(), 'bench-startup-client-'));
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-startup-data-'));
  try {
    console.log('Building the client once (an existing build for every start)…');
    const build = spawnSync(
      process.execPath,
      [
        join(ROOT, 'node_modules/vite/bin/vite.js'),
        'build',
        '--logLevel',
        'warn',
        '--outDir',
        clientDir,
        '--emptyOutDir',
      ],
      {
        cwd: ROOT,
        stdio: 'inherit',
        env: { ...process.env, NODE_ENV: 'production' },
      },
    );
    if (build.status !== 0) throw new Error('vite build failed');

    // What a start after a source change adds: one esbuild bundle of the server (dist-server/ is then fresh).
    const compile = await compileServer();
    console.log(`Compiling the server: ${compile.ms} ms (${compile.inputs} files), paid once after a change.`);

    // The first start creates the database and the admin: not a start "on an existing database", so not timed.
    console.log('First start (creates the database)…');
    await startOnce('compiled', dataDir, clientDir);

    const variants: Variant[] = ['tsx', 'compiled', 'floor'];
    const runs: Record<Variant, Start[]> = { tsx: [], compiled: [], floor: [] };
    for (let round = 0; round < RUNS; round++) {
      for (let i = 0; i < variants.length; i++) {
        const variant = variants[(round + i) % variants.length]!;
        const start = await startOnce(variant, dataDir, clientDir);
        runs[variant].push(start);
        console.log(
          `  round ${round + 1} ${variant.padEnd(8)} API ${start.apiMs.toFixed(0).padStart(5)} ms  /login ${start.loginMs.toFixed(0).padStart(5)} ms  CPU ${start.cpuMs.toFixed(0).padStart(5)} ms`,
        );
      }
    }

    const summary = Object.fromEntries(
      variants.map((v) => [
        v,
        {
          apiMs: Math.round(median(runs[v].map((r) => r.apiMs))),
          loginMs: Math.round(median(runs[v].map((r) => r.loginMs))),
          cpuMs: Math.round(median(runs[v].map((r) => r.cpuMs))),
        },
      ]),
    ) as Record<Variant, Start>;
    const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;
    console.log(`\nMedians of ${RUNS} starts each (spawn → first answer), existing build and database:`);
    console.log('                             API (401)   /login HTML  vs floor   CPU until /login  vs floor');
    for (const v of variants) {
      const label = {
        tsx: 'before: node --import tsx',
        compiled: 'now: npm start (compiled)',
        floor: 'floor: Fastify + PGlite',
      }[v];
      const { apiMs, loginMs, cpuMs } = summary[v];
      console.log(
        `  ${label.padEnd(26)} ${String(apiMs).padStart(7)} ms ${String(loginMs).padStart(10)} ms ${ratio(loginMs, summary.floor.loginMs).toFixed(2).padStart(8)}× ${String(cpuMs).padStart(13)} ms ${ratio(cpuMs, summary.floor.cpuMs).toFixed(2).padStart(8)}×`,
      );
    }
    console.log(
      `Load average while measuring: ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')} on ${availableParallelism()} cores (wall times stretch with it; CPU times much less).`,
    );
    const met = summary.compiled.loginMs < TARGET_MS;
    console.log(
      `Compiled vs tsx: ${ratio(summary.compiled.loginMs, summary.tsx.loginMs).toFixed(2)}× the time, ${ratio(summary.compiled.cpuMs, summary.tsx.cpuMs).toFixed(2)}× the CPU. Target first request < ${TARGET_MS} ms: ${met ? 'met' : 'MISSED'} (${summary.compiled.loginMs} ms).`,
    );

    mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
    writeFileSync(
      join(ROOT, 'bench', 'results', 'startup.json'),
      JSON.stringify(
        {
          runs: RUNS,
          compileMs: compile.ms,
          medians: summary,
          starts: runs,
          loginVsFloor: ratio(summary.compiled.loginMs, summary.floor.loginMs),
          targetMs: TARGET_MS,
          met,
        },
        null,
        2,
      ),
    );
  } finally {
    rmSync(clientDir, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
