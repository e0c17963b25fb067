// Bundle budget of the first load of /login: build the client, open /login in Chromium against the built files and
// sum the gzip size of every JavaScript file the page fetched until the network went idle (service worker blocked,
// so only what the page asks for itself). Split in two: what was requested before the Sign in button was painted
// (the critical path) and what after (the service worker's registration, which waits for load and an idle moment).
// Target (issue 14): ≤ 100 KB gzip in all. BENCH_DIST=<dir> measures a build made elsewhere (main's, the floor app's).
// Prints the figures and writes bench/results/bundle.json.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { SIGN_IN_PAINTED } from '../src/lib/paintMark';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../tools/chromium';

const ROOT = join(import.meta.dirname, '..');
// A private build directory: dist/ is shared with the running server and other suites that rebuild it.
const PREBUILT = process.env.BENCH_DIST ?? (process.argv.includes('--no-build') ? join(ROOT, 'dist') : null);
const DIST = PREBUILT ?? mkdtempSync(join(tmpdir(), 'bench-dist-'));
const BUDGET_KB = 100;
const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.html': 'text/html',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.webmanifest': 'application/manifest+json',
};

const gzipBytes = (file: string) => gzipSync(readFileSync(file), { level: 9 }).length;

if (!PREBUILT) {
  const r = spawnSync(
    process.execPath,
    [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn', '--outDir', DIST, '--emptyOutDir'],
    { cwd: ROOT, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } },
  );
  if (r.status !== 0) throw new Error('vite build failed');
}

// A static server for dist/ with the SPA fallback, as the app server serves it.
const server = createServer((req, res) => {
  const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
  let file = join(DIST, path);
  if (!file.startsWith(DIST) || !existsSync(file) || statSync(file).isDirectory()) file = join(DIST, 'index.html');
  if (path.startsWith('/api/')) {
    res.writeHead(401, { 'content-type': 'application/json' }).end('{"success":false,"message":"No token"}');
    return;
  }
  res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
const context = await browser.newContext({ serviceWorkers: 'block' });
const page = await context.newPage();
const scripts = new Set<string>();
const styles = new Set<string>();
page.on('request', (req) => {
  const url = new URL(req.url());
  if (url.origin !== base) return;
  if (req.resourceType() === 'script' || url.pathname.endsWith('.js')) scripts.add(url.pathname);
  if (req.resourceType() === 'stylesheet') styles.add(url.pathname);
});
await page.goto(`${base}/login`, { waitUntil: 'networkidle' });
await page.getByRole('button', { name: 'Sign in' }).waitFor();
// When each file was asked for, against the Sign in button's first paint (the 'sign-in-painted' mark of
// src/lib/paintMark.ts, which the floor app sets too); without the mark every file counts as critical.
const timing = await page.evaluate(
  (mark) => ({
    painted: performance.getEntriesByName(mark, 'mark')[0]?.startTime ?? Infinity,
    requested: performance.getEntriesByType('resource').map((r) => [new URL(r.name).pathname, r.startTime] as const),
  }),
  SIGN_IN_PAINTED,
);
const requestedAt = new Map(timing.requested);
await browser.close();
server.close();

const files = [...scripts]
  .map((p) => ({
    path: p,
    when: (requestedAt.get(p) ?? 0) <= timing.painted ? 'critical' : 'after',
    gzipBytes: gzipBytes(join(DIST, p)),
  }))
  .sort((a, b) => b.gzipBytes - a.gzipBytes);
const cssFiles = [...styles].map((p) => ({ path: p, gzipBytes: gzipBytes(join(DIST, p)) }));
const totalJs = files.reduce((s, f) => s + f.gzipBytes, 0);
const criticalJs = files.filter((f) => f.when === 'critical').reduce((s, f) => s + f.gzipBytes, 0);
const totalCss = cssFiles.reduce((s, f) => s + f.gzipBytes, 0);
const result = {
  route: '/login',
  budgetKB: BUDGET_KB,
  dist: PREBUILT ?? 'built from this tree',
  jsGzipKB: +(totalJs / 1024).toFixed(1),
  criticalJsGzipKB: +(criticalJs / 1024).toFixed(1),
  cssGzipKB: +(totalCss / 1024).toFixed(1),
  withinBudget: totalJs / 1024 <= BUDGET_KB,
  jsFiles: files,
  cssFiles,
  measuredAt: new Date().toISOString(),
};
for (const f of files) console.log(`${(f.gzipBytes / 1024).toFixed(1).padStart(7)} KB  ${f.when.padEnd(8)} ${f.path}`);
console.log(
  `First load of /login: ${result.jsGzipKB} KB gzip JS in ${files.length} files (budget ${BUDGET_KB} KB), ${result.criticalJsGzipKB} KB of it before the Sign in button was painted; + ${result.cssGzipKB} KB gzip CSS → ${result.withinBudget ? 'within budget' : 'OVER BUDGET'}`,
);
mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
// A build made elsewhere is measured for comparison only: the result file keeps this tree's figures.
if (!process.env.BENCH_DIST)
  writeFileSync(join(ROOT, 'bench/results/bundle.json'), `${JSON.stringify(result, null, 2)}\n`);
