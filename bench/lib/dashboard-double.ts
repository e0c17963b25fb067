// The built client served beside a stand-in for the API and Socket.IO, for the render benchmarks (bench/render.ts,
// bench/render-busy.ts): a signed-in user's Dashboard with no server behind it, fed whatever price messages the bench
// sends, and bench/render-plain.html at /plain as the floor in the same run.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { Server } from 'socket.io';
import { emptyStats } from '../../src/services/reconcile';

const ROOT = join(import.meta.dirname, '..', '..');
const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.html': 'text/html',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.webmanifest': 'application/manifest+json',
};

/** The signed-in user the Dashboard shows (put in localStorage by the bench). */
export function benchUser(id: string, username: string) {
  return {
    _id: id,
    username,
    email: `${username}@example.com`,
    role: 'user',
    isActive: true,
    firstName: '',
    lastName: '',
    phone: '',
    bio: '',
    createdAt: new Date().toISOString(),
    lastLogin: null,
    binanceApiKey: '••••1234',
    binanceSecretKey: '••••1234',
    derivToken: '••••1234',
    derivAppId: '1089',
    hasBinanceApiKey: true,
    hasBinanceSecretKey: true,
    hasDerivToken: true,
    maxExposure: 1000,
    minSpread: 0.002,
    maxLoss: 100,
    tradingEnabled: false,
  };
}

const stats = emptyStats();

/**
 * The client build the bench serves: `--no-build` serves BENCH_DIST (default dist/) as it is; otherwise a private
 * directory, since dist/ is shared with a running server and suites that rebuild it.
 */
export function clientBuild(prefix: string): string {
  if (process.argv.includes('--no-build')) return process.env.BENCH_DIST ?? join(ROOT, 'dist');
  const dist = mkdtempSync(join(tmpdir(), prefix));
  const r = spawnSync(
    process.execPath,
    [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn', '--outDir', dist, '--emptyOutDir'],
    { cwd: ROOT, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } },
  );
  if (r.status !== 0) throw new Error('vite build failed');
  return dist;
}

export interface DashboardDouble {
  io: Server;
  origin: string;
  close(): void;
}

/**
 * Serves `dist` and answers the REST calls the Dashboard makes for `user`: `answer` first (undefined passes on),
 * then empty trades, stats and balances; everything else not found.
 */
export async function startDashboardDouble(options: {
  dist: string;
  user: ReturnType<typeof benchUser>;
  answer?: (url: URL) => unknown;
}): Promise<DashboardDouble> {
  const { dist, user } = options;
  const apiAnswer = (url: URL): unknown => {
    const own = options.answer?.(url);
    if (own !== undefined) return own;
    const path = url.pathname;
    if (path.startsWith('/api/auth/profile')) return { success: true, user };
    if (path.startsWith('/api/trades/stats') || path.startsWith('/api/balances/stats')) return { success: true, stats };
    if (path.startsWith('/api/trades'))
      return { success: true, trades: [], pagination: { current: 1, pages: 1, total: 0 } };
    if (path.startsWith('/api/balances')) return { success: true, balance: null };
    if (path.startsWith('/api/exchanges/prices')) return { success: true, prices: {} };
    return { success: false, message: 'Not found' };
  };
  const serve = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const path = normalize(decodeURIComponent(url.pathname)).replace(/^(\.\.[/\\])+/, '');
    if (path.startsWith('/api/')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(apiAnswer(url)));
      return;
    }
    if (path === '/plain') {
      res.writeHead(200, { 'content-type': 'text/html' }).end(readFileSync(join(ROOT, 'bench/render-plain.html')));
      return;
    }
    let file = join(dist, path);
    if (!file.startsWith(dist) || !existsSync(file) || statSync(file).isDirectory()) file = join(dist, 'index.html');
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
  };
  const http = createServer(serve);
  // Socket.IO serves its client script too: the plain page loads it from /socket.io/socket.io.js.
  const io = new Server(http);
  io.on('connection', (socket) => socket.on('join_room', (room: string) => void socket.join(room)));
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  return {
    io,
    origin: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    close: () => {
      io.close();
      http.close();
    },
  };
}
