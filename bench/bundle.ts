// Bundle budget of the first load of /login: build the client, open /login in Chromium against the built files and
// sum the gzip size of every JavaScript file the page fetched (service worker blocked, so only what the page needs).
// Target: ≤ 130 KB gzip. Prints the figures and writes bench/results/bundle.json.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../tools/chromium';

const ROOT = join(import.meta.dirname, '..');
// A private build directory: dist/ is shared with the running server and other suites that rebuild it.
const DIST = process.argv.includes('--no-build') ? join(ROOT, 'dist') : mkdtempSync(join(tmpdir(), 'bench-dist-'));
const BUDGET_KB = 130;
const TYPES: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css', '.html': 'text/html', '.svg': 'image/svg+xml', '.png': 'image/png', '.webmanifest': 'application/manifest+json' };

const gzipBytes = (file: string) => gzipSync(readFileSync(file), { level: 9 }).length;

if (!process.argv.includes('--no-build')) {
  const r = spawnSync(process.execPath, [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn', '--outDir', DIST, '--emptyOutDir'], { cwd: ROOT, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
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
await browser.close();
server.close();

const files = [...scripts].map((p) => ({ path: p, gzipBytes: gzipBytes(join(DIST, p)) })).sort((a, b) => b.gzipBytes - a.gzipBytes);
const cssFiles = [...styles].map((p) => ({ path: p, gzipBytes: gzipBytes(join(DIST, p)) }));
const totalJs = files.reduce((s, f) => s + f.gzipBytes, 0);
const totalCss = cssFiles.reduce((s, f) => s + f.gzipBytes, 0);
const result = {
  route: '/login',
  budgetKB: BUDGET_KB,
  jsGzipKB: +(totalJs / 1024).toFixed(1),
  cssGzipKB: +(totalCss / 1024).toFixed(1),
  withinBudget: totalJs / 1024 <= BUDGET_KB,
  jsFiles: files,
  cssFiles,
  measuredAt: new Date().toISOString(),
};
for (const f of files) console.log(`${(f.gzipBytes / 1024).toFixed(1).padStart(7)} KB  ${f.path}`);
console.log(`First load of /login: ${result.jsGzipKB} KB gzip JS in ${files.length} files (budget ${BUDGET_KB} KB) + ${result.cssGzipKB} KB gzip CSS → ${result.withinBudget ? 'within budget' : 'OVER BUDGET'}`);
mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
writeFileSync(join(ROOT, 'bench/results/bundle.json'), `${JSON.stringify(result, null, 2)}\n`);
