// The usable sign-in form against the floor: Lighthouse 12.8.2, mobile (its default emulation: slow 4G, 4× CPU), on
// the product's /login and on a bare app on the same stack (bench/floor-app), built here and served alike (gzip, SPA
// fallback), runs interleaved. Prints the median time until the Sign in button is painted, TBT, and ours/floor.
// Run: npx tsx bench/login-vs-floor.ts   (BENCH_RUNS=5 by default; BENCH_OURS_DIST=<dir> measures a build made
// elsewhere, e.g. main's). Writes bench/results/login-vs-floor.json.
import { vanillaExtractPlugin } from '@vanilla-extract/vite-plugin';
import react from '@vitejs/plugin-react';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import { SIGN_IN_PAINTED } from '../src/lib/paintMark';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../tools/chromium';

const ROOT = join(import.meta.dirname, '..');
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 5));
const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.html': 'text/html',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.webmanifest': 'application/manifest+json',
};
const lighthouseBin = join(ROOT, 'node_modules/lighthouse/cli/index.js');

function buildOurs(): string {
  if (process.env.BENCH_OURS_DIST) return process.env.BENCH_OURS_DIST;
  const out = mkdtempSync(join(tmpdir(), 'bench-ours-'));
  const r = spawnSync(
    process.execPath,
    [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn', '--outDir', out, '--emptyOutDir'],
    { cwd: ROOT, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } },
  );
  if (r.status !== 0) throw new Error('vite build failed');
  return out;
}

async function buildFloor(): Promise<string> {
  const out = mkdtempSync(join(tmpdir(), 'bench-floor-'));
  await build({
    root: join(ROOT, 'bench/floor-app'),
    configFile: false,
    logLevel: 'warn',
    plugins: [vanillaExtractPlugin(), react()],
    build: { outDir: out, emptyOutDir: true, target: 'es2022' },
  });
  return out;
}

/** dist/ as production serves it: gzip (compressed once, kept), the SPA fallback, and a 401 for any API call. */
async function serve(dir: string): Promise<{ url: string; server: Server }> {
  const gz = new Map<string, Buffer>();
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(
      /^(\.\.[/\\])+/,
      '',
    );
    if (path.startsWith('/api/'))
      return void res
        .writeHead(401, { 'content-type': 'application/json' })
        .end('{"success":false,"message":"No token"}');
    let file = join(dir, path);
    if (!file.startsWith(dir) || !existsSync(file) || statSync(file).isDirectory()) file = join(dir, 'index.html');
    let body = gz.get(file);
    if (!body) gz.set(file, (body = gzipSync(readFileSync(file), { level: 9 })));
    res
      .writeHead(200, {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        'content-encoding': 'gzip',
        'cache-control': file.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
      })
      .end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

interface Run {
  signInPaintedMs: number | null;
  tbtMs: number;
  fcpMs: number;
  lcpMs: number;
}

interface Report {
  audits: Record<
    string,
    { numericValue?: number; details?: { items?: Array<{ name?: string; startTime?: number; timingType?: string }> } }
  >;
}

/**
 * One Lighthouse run. Throttling is applied (devtools method) with Lighthouse's own mobile slow-4G and 4× CPU figures,
 * so that the page's own user-timing mark is measured under that network and CPU: the default simulated method
 * reports only its modelled metrics and leaves user timings as observed on the unthrottled machine.
 */
async function lighthouse(url: string): Promise<Run> {
  // Asynchronous: the static servers answer from this process's event loop while Lighthouse runs.
  const child = spawn(
    process.execPath,
    [
      lighthouseBin,
      url,
      '--quiet',
      '--output=json',
      '--output-path=stdout',
      '--only-categories=performance',
      '--throttling-method=devtools',
      `--chrome-flags=--headless=new ${CHROMIUM_ARGS.join(' ')}`,
    ],
    { env: { ...process.env, CHROME_PATH: CHROMIUM_PATH } },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (status !== 0) throw new Error(`lighthouse failed (${status}): ${stderr.slice(-2000)}`);
  const report = JSON.parse(stdout) as Report;
  const mark = report.audits['user-timings']?.details?.items?.find(
    (i) => i.name === SIGN_IN_PAINTED && i.timingType === 'Mark',
  );
  const num = (id: string) => Math.round(report.audits[id]?.numericValue ?? NaN);
  return {
    signInPaintedMs: mark?.startTime !== undefined ? Math.round(mark.startTime) : null,
    tbtMs: num('total-blocking-time'),
    fcpMs: num('first-contentful-paint'),
    lcpMs: num('largest-contentful-paint'),
  };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length === 0 ? NaN : s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};

function summary(runs: Run[]) {
  const painted = runs.map((r) => r.signInPaintedMs).filter((v): v is number => v !== null);
  return {
    signInPaintedMs: median(painted),
    missingMarks: runs.length - painted.length,
    tbtMs: median(runs.map((r) => r.tbtMs)),
    fcpMs: median(runs.map((r) => r.fcpMs)),
    lcpMs: median(runs.map((r) => r.lcpMs)),
    runs,
  };
}

const [oursDir, floorDir] = [buildOurs(), await buildFloor()];
const ours = await serve(oursDir);
const floor = await serve(floorDir);
const runs: { ours: Run[]; floor: Run[] } = { ours: [], floor: [] };
try {
  for (let i = 0; i < RUNS; i++) {
    // Interleaved, the order swapped every run, so drift in the machine's load falls on both alike.
    const order = i % 2 === 0 ? (['ours', 'floor'] as const) : (['floor', 'ours'] as const);
    for (const which of order) {
      const run = await lighthouse(`${which === 'ours' ? ours.url : floor.url}/login`);
      runs[which].push(run);
      console.log(
        `run ${i + 1}/${RUNS} ${which.padEnd(5)} sign-in painted ${run.signInPaintedMs ?? 'n/a'} ms, TBT ${run.tbtMs} ms, FCP ${run.fcpMs} ms, LCP ${run.lcpMs} ms`,
      );
    }
  }
} finally {
  ours.server.close();
  floor.server.close();
}

const o = summary(runs.ours);
const f = summary(runs.floor);
const ratio = +(o.signInPaintedMs / f.signInPaintedMs).toFixed(2);
console.log(
  `\nmedian of ${RUNS}: Sign in button painted — ours ${o.signInPaintedMs} ms, floor ${f.signInPaintedMs} ms, ratio ${ratio} (target ≤ 1.0)`,
);
console.log(
  `                 TBT — ours ${o.tbtMs} ms, floor ${f.tbtMs} ms (target ≤ 50 ms); FCP ours ${o.fcpMs} / floor ${f.fcpMs} ms; LCP ours ${o.lcpMs} / floor ${f.lcpMs} ms`,
);
mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
writeFileSync(
  join(ROOT, 'bench/results/login-vs-floor.json'),
  `${JSON.stringify({ benchmark: 'login-vs-floor', lighthouse: '12.8.2', formFactor: 'mobile', throttling: 'devtools (slow 4G, 4x CPU)', runs: RUNS, oursDist: process.env.BENCH_OURS_DIST ?? 'built from this tree', ratio, ours: o, floor: f, at: new Date().toISOString() }, null, 2)}\n`,
);
