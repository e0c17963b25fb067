// The whole product as production runs it, for the PWA benchmarks: the client built with NODE_ENV=production, then
// `tsx server/main.ts` (compressed static files, API, Socket.IO, simulated market) on a free port with a temp DATA_DIR.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const ADMIN = { email: 'admin@bench.test', password: 'Bench-admin-password-1' };

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

/**
 * `dataDir`: a data directory of the caller's (kept on stop, so it can be seeded between two starts); `build: false`
 * reuses the client build of an earlier start.
 */
export async function startPwaServer(
  options: { dataDir?: string; build?: boolean } = {},
): Promise<{ url: string; stop(): Promise<void> }> {
  const env = { ...process.env, NODE_ENV: 'production' };
  if (options.build !== false) {
    const build = spawnSync(
      process.execPath,
      [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'],
      { cwd: ROOT, stdio: 'inherit', env },
    );
    if (build.status !== 0) throw new Error('vite build failed');
  }
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'bench-pwa-'));
  const port = await freePort();
  const child = spawn(process.execPath, [join(ROOT, 'node_modules/tsx/dist/cli.mjs'), 'bench/pwa-entry.ts'], {
    cwd: ROOT,
    env: {
      ...env,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      MARKET: 'sim',
      SIM_SEED: '42',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      REDIS_URL: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group: a Ctrl-C meant for another job on the terminal does not reach it.
    detached: true,
  });
  let out = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (b: Buffer) => {
      out += b.toString();
      if (/listening/i.test(out) && out.includes(`:${port}`)) resolve();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (b: Buffer) => (out += b.toString()));
    child.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${out}`)));
  });
  let stopping = false;
  child.once('exit', (code, signal) => {
    if (!stopping) console.error(`bench server exited (${code ?? signal}):\n${out.slice(-3000)}`);
  });
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      stopping = true;
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}
