// Render bench: 200 priceUpdate messages a second for 10 s into the dashboard of the built app, in Chromium, and the
// same messages into a plain-DOM page (bench/render-plain.html) in the same run. Measures message-to-paint latency per
// message (arrival on the WebSocket → first paint showing that value or a newer one) and long tasks (> 50 ms).
// Prints the figures and writes bench/results/render.json. Figures are compared as ratios: this machine is shared.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../tools/chromium';
import { benchUser, clientBuild, startDashboardDouble } from './lib/dashboard-double';
import { installProbe, type ProbeData } from './render-probe';

const ROOT = join(import.meta.dirname, '..');
const DIST = clientBuild('bench-dist-');
const RATE = 200;
const SECONDS = Number(process.env.RENDER_SECONDS ?? 10);
const BASE_PRICE = 50_000;
const STEP = 0.01;
const SELECTOR = '[data-testid="price-BTC/USDT"] [data-testid="price-binance"]';
const user = benchUser('00000000-0000-4000-8000-00000000b001', 'bench');

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

function analyse(d: ProbeData, windowStart: number) {
  const paints = [...d.paints].sort((a, b) => a[1] - b[1]);
  const latencies: number[] = [];
  let unpainted = 0;
  for (const [seq, at] of d.arrivals) {
    const paint = paints.find(([s, t]) => t >= at && s >= seq);
    if (paint) latencies.push(paint[1] - at);
    else unpainted++;
  }
  latencies.sort((a, b) => a - b);
  const longTasks = d.longTasks.filter(([start]) => start >= windowStart);
  return {
    messages: d.arrivals.length,
    paints: d.paints.length,
    unpainted,
    latencyMs: {
      p50: +percentile(latencies, 50).toFixed(1),
      p95: +percentile(latencies, 95).toFixed(1),
      p99: +percentile(latencies, 99).toFixed(1),
      max: +(latencies.at(-1) ?? NaN).toFixed(1),
    },
    longTasks: {
      count: longTasks.length,
      totalMs: +longTasks.reduce((s, [, dur]) => s + dur, 0).toFixed(0),
      maxMs: +Math.max(0, ...longTasks.map(([, dur]) => dur)).toFixed(0),
    },
  };
}

const { io, origin: base, close } = await startDashboardDouble({ dist: DIST, user });

/** Sends RATE messages a second for SECONDS, catching up when the timer fires late. */
async function blast(): Promise<number> {
  let seq = 0;
  const total = RATE * SECONDS;
  const started = performance.now();
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * RATE));
      while (seq < due) {
        seq++;
        io.emit('priceUpdate', {
          symbol: 'BTC/USDT',
          binance: +(BASE_PRICE + seq * STEP).toFixed(2),
          deriv: BASE_PRICE + 10,
          spread: 0.0002,
          arbitrage: { profitable: false },
          timestamp: new Date().toISOString(),
        });
      }
      if (seq >= total) {
        clearInterval(timer);
        resolve();
      }
    }, 2);
  });
  return seq;
}

const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
async function measure(kind: 'app' | 'plain') {
  const context = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 1440, height: 900 } });
  // tsx (esbuild keepNames) wraps inner functions in __name(...); the probe runs in the page, which has no __name.
  await context.addInitScript({ content: 'window.__name = (f) => f;' });
  await context.addInitScript(installProbe, { base: BASE_PRICE, step: STEP, selector: SELECTOR });
  if (kind === 'app') {
    await context.addInitScript((u) => {
      localStorage.setItem('token', 'bench-token');
      localStorage.setItem('user', JSON.stringify(u));
    }, user);
  }
  const page = await context.newPage();
  await page.goto(kind === 'app' ? `${base}/dashboard` : `${base}/plain`);
  await page.locator(SELECTOR).waitFor();
  // Wait until the page's socket has joined (the app) or connected (plain) before sending.
  await page.waitForFunction(() => document.readyState === 'complete');
  while (io.sockets.sockets.size === 0) await new Promise((r) => setTimeout(r, 50));
  const windowStart = await page.evaluate(() => performance.now());
  const sent = await blast();
  await page.waitForFunction((n) => (window as unknown as { __probe: ProbeData }).__probe.arrivals.length >= n, sent, {
    timeout: 30_000,
  });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const data = await page.evaluate(() => (window as unknown as { __probe: ProbeData }).__probe);
  await context.close();
  while (io.sockets.sockets.size > 0) await new Promise((r) => setTimeout(r, 20));
  return { sent, ...analyse(data, windowStart) };
}

const app = await measure('app');
const plain = await measure('plain');
await browser.close();
close();

const result = {
  rate: RATE,
  seconds: SECONDS,
  app,
  plain,
  ratios: {
    p99: +(app.latencyMs.p99 / plain.latencyMs.p99).toFixed(2),
    p50: +(app.latencyMs.p50 / plain.latencyMs.p50).toFixed(2),
  },
  note: 'Latency = WebSocket arrival → first paint showing that value or a newer one. The app coalesces price updates to one render per animation frame; the plain page writes every message to the DOM.',
  measuredAt: new Date().toISOString(),
};
const line = (name: string, r: typeof app) =>
  `${name.padEnd(6)} sent ${r.sent}, seen ${r.messages}, paints ${r.paints}, latency p50 ${r.latencyMs.p50} ms, p95 ${r.latencyMs.p95} ms, p99 ${r.latencyMs.p99} ms, max ${r.latencyMs.max} ms; long tasks ${r.longTasks.count} (${r.longTasks.totalMs} ms, max ${r.longTasks.maxMs} ms)`;
console.log(line('app', app));
console.log(line('plain', plain));
console.log(`app/plain p99 latency ratio ${result.ratios.p99}, p50 ratio ${result.ratios.p50}`);
mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
writeFileSync(join(ROOT, 'bench/results/render.json'), `${JSON.stringify(result, null, 2)}\n`);
