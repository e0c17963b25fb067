// A returning user's cold start: the token already in localStorage, an empty HTTP cache and no service worker (blocked,
// as before it is installed), then /dashboard until the first live price is painted and /trades until its first page
// is painted. Every request the page makes is recorded: how many before that paint, how many are JS files or API
// calls, and which calls were made twice (same method + URL) in the whole visit (the paint plus a settling window).
// Run: npx tsx bench/cold-start.ts   → prints the figures and writes bench/results/cold-start.json
import { mkdirSync, writeFileSync } from 'node:fs';
import type { Browser, Request } from 'playwright-core';
import type { LoginResponse } from '../contract/api';
import { launchBrowser } from '../tools/pwa-browser';
import { ADMIN, startPwaServer } from './pwa-server';

/** After the paint, requests are still recorded this long: a duplicate made just after the paint is one too. */
const SETTLE_MS = Number(process.env.BENCH_SETTLE_MS ?? 3000);

// Set in every document before the app runs: the wall-clock time of the first animation frame in which the condition
// holds (the page's CSP forbids evaluating strings, so the condition cannot be polled from outside). A string, not a
// function: the TypeScript runner wraps named functions in a helper (__name) that does not exist in the page.
const paintProbe = (condition: string) => `
  window.addEventListener('DOMContentLoaded', () => {
    const frame = () => {
      if (${condition}) window.__painted = performance.timeOrigin + performance.now();
      else requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  }, { once: true });
`;
/** A dollar figure in the BTC/USDT Binance cell of the Dashboard's Live Prices. */
const PRICE_PAINTED = `(document.querySelector('[data-testid="price-BTC/USDT"] [data-testid="price-binance"]')?.textContent ?? '').includes('$')`;
/** The Trades page's first page answered: its table, or the empty state once loading ended. */
const TRADES_PAINTED = `!!document.querySelector('[data-testid="trades-table"]') || document.body.innerText.includes('No trades found')`;

interface Recorded {
  method: string;
  url: string;
  type: string;
  /** Wall-clock ms when the page issued it. */
  at: number;
}

export interface ColdStartFigures {
  route: string;
  paintMs: number;
  beforePaint: { requests: number; js: number; api: number; socket: number; apiCalls: string[]; jsFiles: string[] };
  wholeVisit: { requests: number; documents: number; js: number; api: number; apiCalls: string[] };
  duplicates: string[];
}

const isApi = (r: Recorded) => new URL(r.url).pathname.startsWith('/api/');
const isJs = (r: Recorded) => r.type === 'script' || /\.m?js(\?|$)/.test(new URL(r.url).pathname);
const isSocket = (r: Recorded) => new URL(r.url).pathname.startsWith('/socket.io/');
const callName = (r: Recorded) => {
  const u = new URL(r.url);
  return `${r.method} ${u.pathname}${u.search}`;
};

/** Calls made more than once (same method and URL), each with its count. */
export function duplicatesOf(calls: readonly string[]): string[] {
  const counts = new Map<string, number>();
  for (const c of calls) counts.set(c, (counts.get(c) ?? 0) + 1);
  return [...counts].filter(([, n]) => n > 1).map(([c, n]) => `${c} ×${n}`);
}

async function signInByApi(base: string): Promise<LoginResponse> {
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: ADMIN.email, password: ADMIN.password }),
  });
  if (!res.ok) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as LoginResponse;
}

async function coldStart(
  browser: Browser,
  base: string,
  session: LoginResponse,
  route: string,
  painted: string,
): Promise<ColdStartFigures> {
  // A fresh context: empty HTTP cache, no IndexedDB, no service worker; only the stored session, as a returning user's.
  const context = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 390, height: 844 } });
  await context.addInitScript({
    content: `localStorage.setItem('token', ${JSON.stringify(session.token)}); localStorage.setItem('user', ${JSON.stringify(JSON.stringify(session.user))});`,
  });
  const page = await context.newPage();
  await page.addInitScript({ content: paintProbe(painted) });
  const recorded: Recorded[] = [];
  page.on('request', (req: Request) =>
    recorded.push({ method: req.method(), url: req.url(), type: req.resourceType(), at: Date.now() }),
  );
  // Socket.IO opens a WebSocket first, which is no 'request' to Playwright: counted as one request all the same.
  page.on('websocket', (ws) =>
    recorded.push({ method: 'GET', url: ws.url().replace(/^ws/, 'http'), type: 'websocket', at: Date.now() }),
  );
  try {
    const start = Date.now();
    await page.goto(`${base}${route}`);
    await page.waitForFunction(() => ((window as unknown as { __painted?: number }).__painted ?? 0) > 0, null, {
      timeout: 60_000,
    });
    const paintedAt = await page.evaluate(() => (window as unknown as { __painted: number }).__painted);
    const paintMs = Math.round(paintedAt - start);
    await page.waitForTimeout(SETTLE_MS);

    const before = recorded.filter((r) => r.at <= paintedAt);
    const api = recorded.filter(isApi);
    return {
      route,
      paintMs,
      beforePaint: {
        requests: before.length,
        js: before.filter(isJs).length,
        api: before.filter(isApi).length,
        socket: before.filter(isSocket).length,
        apiCalls: before.filter(isApi).map(callName),
        jsFiles: before.filter(isJs).map((r) => new URL(r.url).pathname),
      },
      wholeVisit: {
        requests: recorded.length,
        documents: recorded.filter((r) => r.type === 'document').length,
        js: recorded.filter(isJs).length,
        api: api.length,
        apiCalls: api.map(callName),
      },
      duplicates: duplicatesOf(api.map(callName)),
    };
  } finally {
    await context.close();
  }
}

function print(f: ColdStartFigures): void {
  const b = f.beforePaint;
  console.log(
    `${f.route}: painted after ${f.paintMs} ms with ${b.requests} requests (${b.js} JS, ${b.api} API, ${b.socket} socket)`,
  );
  console.log(`  API before the paint: ${b.apiCalls.join(', ') || 'none'}`);
  console.log(
    `  whole visit (+${SETTLE_MS} ms): ${f.wholeVisit.requests} requests, ${f.wholeVisit.documents} documents, ${f.wholeVisit.js} JS, ${f.wholeVisit.api} API: ${f.wholeVisit.apiCalls.join(', ')}`,
  );
  console.log(`  duplicate calls: ${f.duplicates.join(', ') || 'none'}`);
}

const server = await startPwaServer();
const browser = await launchBrowser();
try {
  const session = await signInByApi(server.url);
  const dashboard = await coldStart(browser, server.url, session, '/dashboard', PRICE_PAINTED);
  const trades = await coldStart(browser, server.url, session, '/trades', TRADES_PAINTED);
  print(dashboard);
  print(trades);
  const target = { maxRequestsBeforePrice: 12, snapshotCallsBeforePrice: 1, duplicates: 0 };
  console.log(
    `target: ≤ ${target.maxRequestsBeforePrice} requests before the first price (${dashboard.beforePaint.requests}), one snapshot call (${dashboard.beforePaint.api} API calls), no duplicates (${dashboard.duplicates.length + trades.duplicates.length})`,
  );
  const result = {
    benchmark: 'cold-start',
    what: 'signed-in cold start, empty cache, no service worker, 390×844',
    settleMs: SETTLE_MS,
    target,
    dashboard,
    trades,
    at: new Date().toISOString(),
  };
  mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
  writeFileSync(new URL('./results/cold-start.json', import.meta.url), `${JSON.stringify(result, null, 2)}\n`);
} finally {
  await browser.close();
  await server.stop();
}
