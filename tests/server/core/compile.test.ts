// The server compiled ahead (server/compile.js, run by `npm start` through server/launch.js): rebuilt only when a
// file the last build read changed, the compiled backtest worker answering as the sources do, and the compiled
// process starting, serving and stopping like `tsx server/main.ts`.
import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_SYMBOLS as SYMBOLS } from '../../../contract/pairs';
import {
  BUILD_INPUTS,
  BUNDLED_PACKAGES,
  ENTRIES,
  ROOT,
  compileServer,
  isServerStale,
} from '../../../server/compile.js';
import { runBacktest, type BacktestJob } from '../../../server/engine/replay/backtest';
import { toColumns, type HistoryRow } from '../../../server/engine/replay/history';
import { runSim } from '../../../server/venues/sim/path';
import { DEMO_PARAMS } from '../../../server/venues/sim/profiles';

const cleanup: string[] = [];
afterAll(() => {
  for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
});

function tempDir(prefix: string, under = tmpdir()): string {
  mkdirSync(under, { recursive: true });
  const dir = mkdtempSync(join(under, prefix));
  cleanup.push(dir);
  return dir;
}

describe('staleness of the compiled server', () => {
  const longAgo = new Date(Date.now() - 3_600_000);
  /** A project with one source file and a complete build stamped now, every file older than the build. */
  function project(): { root: string; out: string } {
    const root = tempDir('arb-compile-');
    const out = join(root, 'dist-server');
    mkdirSync(out);
    for (const file of ['server/main.ts', ...BUILD_INPUTS]) {
      mkdirSync(dirname(join(root, file)), { recursive: true });
      writeFileSync(join(root, file), '');
      utimesSync(join(root, file), longAgo, longAgo);
    }
    for (const name of Object.keys(ENTRIES)) writeFileSync(join(out, `${name}.js`), '');
    writeFileSync(
      join(out, 'inputs.json'),
      JSON.stringify({ builtAt: Date.now() - 60_000, inputs: ['server/main.ts'] }),
    );
    return { root, out };
  }

  it('is fresh when nothing the build read changed since', () => {
    const { root, out } = project();
    expect(isServerStale(root, out)).toBe(false);
  });

  it('is stale when a source, or a build input, is newer than the build, or gone', () => {
    let { root, out } = project();
    writeFileSync(join(root, 'server/main.ts'), 'changed');
    expect(isServerStale(root, out)).toBe(true);

    ({ root, out } = project());
    writeFileSync(join(root, 'tsconfig.json'), '{}');
    expect(isServerStale(root, out)).toBe(true);

    ({ root, out } = project());
    rmSync(join(root, 'server/main.ts'));
    expect(isServerStale(root, out)).toBe(true);
  });

  it('is stale without a complete build (no stamp, or an entry missing)', () => {
    let { root, out } = project();
    rmSync(join(out, 'inputs.json'));
    expect(isServerStale(root, out)).toBe(true);

    ({ root, out } = project());
    rmSync(join(out, 'replay-worker.js'));
    expect(isServerStale(root, out)).toBe(true);
  });
});

/** Ten minutes of the demo market at one sample a second (as in replay-worker.test.ts). */
function job(): BacktestJob {
  const start = Date.parse('2026-11-01T00:00:00Z');
  const rows: HistoryRow[] = [];
  let step = 0;
  runSim(9, 6000, DEMO_PARAMS, (tick) => {
    if (step++ % 10 !== 0) return;
    for (const symbol of SYMBOLS) {
      const { binance, deriv } = tick.symbols[symbol]!.quotes;
      rows.push({
        t: start + step * 100,
        symbol,
        binance: (binance.bid + binance.ask) / 2,
        deriv: (deriv.bid + deriv.ask) / 2,
        minute: false,
      });
    }
  });
  return {
    columns: toColumns(rows),
    limits: { minSpread: 0.002, maxExposure: 1000, maxLoss: 100 },
    from: start,
    to: start + 600_000,
  };
}

describe('compiling the server', () => {
  // Inside the project (as dist-server/ is): the bundle finds the root, and node_modules, upwards from itself.
  const out = tempDir('test-', join(ROOT, 'dist-server'));

  it('bundles the server and the backtest worker, records what it read, and is then fresh', async () => {
    const { inputs } = await compileServer(ROOT, out);
    for (const name of Object.keys(ENTRIES)) expect(existsSync(join(out, `${name}.js`)), name).toBe(true);
    const stamp = JSON.parse(readFileSync(join(out, 'inputs.json'), 'utf8')) as { inputs: string[] };
    expect(stamp.inputs).toHaveLength(inputs);
    expect(stamp.inputs).toEqual(
      expect.arrayContaining([
        'server/main.ts',
        'server/process/run.ts',
        'server/engine/replay/worker.ts',
        'contract/domain.ts',
      ]),
    );
    // Packages stay in node_modules, but for the few bundled ones (and from rxjs its ES-module build, not the
    // CommonJS one Node would load).
    const bundledFrom = new Set(
      stamp.inputs
        .map((input) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1])
        .filter((name) => name !== undefined),
    );
    expect([...bundledFrom].every((name) => BUNDLED_PACKAGES.includes(name))).toBe(true);
    expect(bundledFrom).toContain('rxjs');
    const rxjsFiles = stamp.inputs.filter((input) => input.includes('node_modules/rxjs/'));
    expect(rxjsFiles.every((input) => input.includes('node_modules/rxjs/dist/esm/'))).toBe(true);
    expect(isServerStale(ROOT, out)).toBe(false);
  }, 60_000);

  it('keeps dynamic imports lazy: the Binance connector (ccxt) and other optional packages are not loaded when the server starts', () => {
    // Every file the start loads: main.js and the chunks it imports statically, transitively.
    const loaded = new Set<string>();
    const visit = (file: string) => {
      if (loaded.has(file)) return;
      loaded.add(file);
      const code = readFileSync(file, 'utf8');
      for (const [, spec] of code.matchAll(/^import\s[^;]*?from\s*"(\.[^"]+)"|^import\s*"(\.[^"]+)"/gm))
        if (spec) visit(join(dirname(file), spec));
    };
    visit(join(out, 'main.js'));
    const staticImports = [...loaded].flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/^import\s[^;]*?from\s*"([^".][^"]*)"/gm)].map((m) => m[1]),
    );
    expect(staticImports).toContain('fastify');
    expect(staticImports).not.toContain('ccxt');
    // Neither are the PostgreSQL driver (only with DATABASE_URL) and the QR code renderer (2FA enrolment).
    expect(staticImports).not.toContain('pg');
    expect(staticImports).not.toContain('drizzle-orm/node-postgres');
    expect(staticImports).not.toContain('qrcode');
    // Nor the Redis client and adapter (only with REDIS_URL) and web-push (only to send): server/lazy-package.ts.
    expect(staticImports).not.toContain('ioredis');
    expect(staticImports).not.toContain('@socket.io/redis-adapter');
    expect(staticImports).not.toContain('web-push');
    // Nor node-tar (backups and restores only), nor grammY (only with TELEGRAM_BOT_TOKEN).
    expect(staticImports).not.toContain('tar');
    expect(staticImports).not.toContain('grammy');
    // rate-limiter-flexible's index (every store it supports): its memory store and answer type come from their files.
    expect(staticImports).not.toContain('rate-limiter-flexible');
    // The bundled packages are in the bundle, not imported from node_modules.
    for (const name of BUNDLED_PACKAGES)
      expect(staticImports.filter((spec) => spec === name || spec?.startsWith(`${name}/`))).toEqual([]);
    // …but it is in the build, for a live market.
    expect(
      readdirSync(join(out, 'chunks')).some((name) =>
        readFileSync(join(out, 'chunks', name), 'utf8').includes('from "ccxt"'),
      ),
    ).toBe(true);
  });

  it('gives a compiled backtest worker that answers what the replay computes', async () => {
    const worker = new Worker(new URL(pathToFileURL(join(out, 'replay-worker.js')).href));
    try {
      const answer = await new Promise((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
        worker.postMessage(job());
      });
      expect(answer).toEqual({ ok: true, result: runBacktest(job()) });
    } finally {
      await worker.terminate();
    }
  }, 30_000);
});

describe('npm start (server/launch.js)', () => {
  it('compiles when needed, serves the API from the compiled server and shuts down cleanly', async () => {
    const dataDir = tempDir('arb-launch-');
    const child = spawn(process.execPath, ['server/launch.js'], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        PORT: '0',
        DATA_DIR: dataDir,
        SKIP_CLIENT_BUILD: '1',
        ENGINE: 'off',
        LOG_LEVEL: 'warn',
        ADMIN_EMAIL: 'admin@launch.test',
        ADMIN_PASSWORD: 'Launch-password-1',
      },
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', () => {
          const match = /listening on (http:\/\/\S+)/.exec(out);
          if (match) resolve(match[1]!);
        });
        void exited.then((code) => reject(new Error(`exited with ${code}: ${out}`)));
      });
      // Reaching the API means the bundle found the migrations and created the database from the project's root.
      const res = await fetch(`${url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin@launch.test', password: 'Launch-password-1' }),
      });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { success: boolean }).success).toBe(true);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 180_000);
});
