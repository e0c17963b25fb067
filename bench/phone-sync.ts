// A user with 2,000 trades on a phone's connection: the API bytes of a first start on a new device (empty IndexedDB)
// and of a returning user's cold start (IndexedDB from the first visit, HTTP cache emptied, no service worker), and the
// time to the first row on /trades (the server holding a day of spread history), over Chromium's slow-4G emulation (562.5 ms RTT, 1.44 Mbit/s down, 675 kbit/s up).
// Each visit stays until the API has been quiet for QUIET_MS (the history sync included). Every visit runs twice in one
// session: with compression (the browser's own Accept-Encoding) and with `Accept-Encoding: identity` (no compression),
// interleaved. It also counts the GET /api/snapshot calls of a cold start of every signed-in screen.
// Run: npx tsx bench/phone-sync.ts   → prints the figures and writes bench/results/phone-sync.json
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, CDPSession } from 'playwright-core';
import type { LoginResponse } from '../contract/api';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../server/db/client';
import { launchBrowser } from '../tools/pwa-browser';
import { seedTrades } from './lib/seed';
import { ADMIN, startPwaServer } from './pwa-server';

const TRADES = Number(process.env.BENCH_TRADES ?? 2000);
/** Hours of one-second spread history recorded before the visits (both symbols), as a server that ran a day has. */
const SPREAD_HOURS = Number(process.env.BENCH_SPREAD_HOURS ?? 24);
const QUIET_MS = Number(process.env.BENCH_QUIET_MS ?? 4000);
/** Chromium DevTools' "Slow 4G" preset (formerly "Fast 3G"). */
const SLOW_4G = { offline: false, latency: 562.5, downloadThroughput: 180_000, uploadThroughput: 84_375 };
const FIRST_ROW = `!!document.querySelector('[data-testid="trades-table"] tbody tr')`;
// The page's CSP forbids evaluating strings: an init script notes the wall-clock time of the first animation frame in
// which the condition holds (as bench/cold-start.ts does).
const paintProbe = (condition: string) => `
  window.addEventListener('DOMContentLoaded', () => {
    const frame = () => {
      if (${condition}) window.__painted = performance.timeOrigin + performance.now();
      else requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  }, { once: true });
`;
const SCREENS = ['/dashboard', '/trades', '/balances', '/settings', '/profile', '/admin/users', '/admin/audit'];

interface Visit {
  apiBytes: number;
  apiCalls: Array<{ call: string; bytes: number; encoding: string }>;
  firstRowMs: number | null;
}

async function signIn(base: string): Promise<LoginResponse> {
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: ADMIN.email, password: ADMIN.password }),
  });
  if (!res.ok) throw new Error(`sign-in failed: ${res.status}`);
  return (await res.json()) as LoginResponse;
}

/** API answers as transferred (headers and body as on the wire), until the API has been quiet for QUIET_MS. */
async function recordApi(cdp: CDPSession, base: string, run: () => Promise<void>) {
  const calls = new Map<string, { call: string; encoding: string; bytes: number; done: boolean }>();
  let lastActivity = Date.now();
  cdp.on('Network.requestWillBeSent', (e) => {
    const url = new URL(e.request.url);
    if (!e.request.url.startsWith(base) || !url.pathname.startsWith('/api/')) return;
    calls.set(e.requestId, {
      call: `${e.request.method} ${url.pathname}${url.search}`,
      encoding: '',
      bytes: 0,
      done: false,
    });
    lastActivity = Date.now();
  });
  cdp.on('Network.responseReceived', (e) => {
    const c = calls.get(e.requestId);
    if (c) c.encoding = e.response.headers['content-encoding'] ?? e.response.headers['Content-Encoding'] ?? 'identity';
  });
  const finish = (e: { requestId: string; encodedDataLength?: number }) => {
    const c = calls.get(e.requestId);
    if (!c) return;
    c.bytes = e.encodedDataLength ?? 0;
    c.done = true;
    lastActivity = Date.now();
  };
  cdp.on('Network.loadingFinished', finish);
  cdp.on('Network.loadingFailed', finish);
  await run();
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    const busy = [...calls.values()].some((c) => !c.done);
    if (!busy && Date.now() - lastActivity >= QUIET_MS) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  return [...calls.values()];
}

async function visit(
  context: BrowserContext,
  base: string,
  route: string,
  plain: boolean,
  paint: string | null,
): Promise<Visit> {
  const page = await context.newPage();
  if (paint) await page.addInitScript({ content: paintProbe(paint) });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.clearBrowserCache');
  await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
  if (plain) await cdp.send('Network.setExtraHTTPHeaders', { headers: { 'Accept-Encoding': 'identity' } });
  let firstRowMs: number | null = null;
  const calls = await recordApi(cdp, base, async () => {
    const start = Date.now();
    await page.goto(`${base}${route}`);
    if (paint) {
      const painted = () => (window as unknown as { __painted?: number }).__painted ?? 0;
      await page.waitForFunction(painted, null, { timeout: 120_000 });
      firstRowMs = Math.round((await page.evaluate(painted)) - start);
    }
  });
  await page.close();
  return {
    apiBytes: calls.reduce((s, c) => s + c.bytes, 0),
    apiCalls: calls.map(({ call, bytes, encoding }) => ({ call, bytes, encoding })),
    firstRowMs,
  };
}

async function newDevice(browser: Browser, session: LoginResponse): Promise<BrowserContext> {
  const context = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 390, height: 844 } });
  await context.addInitScript({
    content: `if (!localStorage.getItem('token')) { localStorage.setItem('token', ${JSON.stringify(session.token)}); localStorage.setItem('user', ${JSON.stringify(JSON.stringify(session.user))}); }`,
  });
  return context;
}

const kb = (b: number) => `${(b / 1024).toFixed(1)} KB`;

const dataDir = mkdtempSync(join(tmpdir(), 'bench-phone-'));
let server = await startPwaServer({ dataDir });
const session = await signIn(server.url);
await server.stop();
const database = await openDatabase({ dataDir, databaseUrl: undefined });
await seedTrades(database.db, [session.user._id], TRADES);
await database.db.execute(sql`
  INSERT INTO spread_samples (symbol, at, binance, deriv, spread)
  SELECT sym, date_trunc('second', now()) - make_interval(secs => g),
         base + 5 * sin(g / 300.0), base * (1.002 + 0.001 * sin(g / 977.0)) + 5 * sin(g / 300.0),
         0.002 + 0.001 * sin(g / 977.0)
  FROM generate_series(1, ${SPREAD_HOURS * 3600}) AS g,
       (VALUES ('BTC/USDT', 60000.0), ('ETH/USDT', 3000.0)) AS s(sym, base)
  ON CONFLICT DO NOTHING`);
await database.close();
server = await startPwaServer({ dataDir, build: false });
const browser = await launchBrowser();
try {
  const results: Record<string, { first: Visit; returning: Visit }> = {};
  for (const mode of ['compressed', 'plain'] as const) {
    const context = await newDevice(browser, session);
    const first = await visit(context, server.url, '/trades', mode === 'plain', FIRST_ROW);
    const returning = await visit(context, server.url, '/trades', mode === 'plain', FIRST_ROW);
    await context.close();
    results[mode] = { first, returning };
    for (const [name, v] of Object.entries({ 'first start': first, 'returning cold start': returning })) {
      console.log(
        `${mode}, ${name}: ${kb(v.apiBytes)} of API answers in ${v.apiCalls.length} calls, first row after ${v.firstRowMs} ms`,
      );
      console.log(`    ${v.apiCalls.map((c) => `${c.call} ${kb(c.bytes)} ${c.encoding}`).join('\n    ')}`);
    }
  }
  // Snapshot calls of a cold start of every signed-in screen (fresh device each, no throttling).
  const snapshots: Record<string, number> = {};
  for (const route of SCREENS) {
    const context = await newDevice(browser, session);
    const page = await context.newPage();
    let n = 0;
    page.on('request', (r) => void (new URL(r.url()).pathname === '/api/snapshot' && n++));
    await page.goto(`${server.url}${route}`);
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(QUIET_MS);
    snapshots[route] = n;
    await context.close();
  }
  console.log(
    `GET /api/snapshot per cold start: ${Object.entries(snapshots)
      .map(([r, n]) => `${r} ${n}`)
      .join(', ')}`,
  );
  const targets = { firstStartKB: 150, returningKB: 30, snapshotsPerScreen: 1 };
  console.log(
    `targets: first start ≤ ${targets.firstStartKB} KB (${kb(results.compressed!.first.apiBytes)}), returning ≤ ${targets.returningKB} KB (${kb(results.compressed!.returning.apiBytes)}), one snapshot per screen`,
  );
  mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
  writeFileSync(
    new URL('./results/phone-sync.json', import.meta.url),
    `${JSON.stringify({ trades: TRADES, network: SLOW_4G, quietMs: QUIET_MS, targets, results, snapshots, at: new Date().toISOString() }, null, 2)}\n`,
  );
} finally {
  await browser.close();
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
