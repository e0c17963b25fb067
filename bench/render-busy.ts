// Main-thread busy time of the live Dashboard on a slow phone: Chromium at 4× CPU slowdown, the built app fed about 8
// price messages a second (both pairs, as the engine sends them) over Socket.IO, with a day of spread history behind
// the chart. Busy = the renderer's main-thread task time (DevTools Performance.getMetrics TaskDuration) per second of
// wall time, for: the Dashboard in view; the same tab hidden (document.hidden, visibilitychange); and, as the floor in the same
// run, bench/render-plain.html, which writes every message to the DOM with no framework. Phases interleave, rounds
// rotate their order.
//   npx tsx bench/render-busy.ts                  # builds the client into a private directory, 3 rounds of 10 s
//   BUSY_ROUNDS=5 BUSY_SECONDS=15 npx tsx bench/render-busy.ts --no-build   # serve dist/ (or BENCH_DIST) as it is
// Prints medians and writes bench/results/render-busy.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../tools/chromium';
import { benchUser, clientBuild, startDashboardDouble } from './lib/dashboard-double';

const ROOT = join(import.meta.dirname, '..');
const DIST = clientBuild('bench-busy-');
const ROUNDS = Number(process.env.BUSY_ROUNDS ?? 3);
const SECONDS = Number(process.env.BUSY_SECONDS ?? 10);
const MESSAGES_PER_SECOND = 8;
const CPU_SLOWDOWN = 4;
const user = benchUser('00000000-0000-4000-8000-00000000b002', 'busy');
const BASE = { 'BTC/USDT': 50_000, 'ETH/USDT': 3_000 } as const;
type Pair = keyof typeof BASE;

/** A day of one-minute spread points for a pair, ending now. */
function spreadDay(symbol: Pair, to: number) {
  const points = [];
  for (let t = to - 86_400_000; t <= to; t += 60_000) {
    const binance = BASE[symbol] * (1 + 0.002 * Math.sin(t / 3_600_000));
    const spread = 0.0004 * Math.sin(t / 600_000);
    points.push({
      t,
      binance,
      deriv: binance * (1 + spread),
      spread,
      spreadLow: spread - 1e-5,
      spreadHigh: spread + 1e-5,
    });
  }
  return {
    symbol,
    from: new Date(to - 86_400_000).toISOString(),
    to: new Date(to).toISOString(),
    resolutionSeconds: 60,
    points,
  };
}

const { io, origin, close } = await startDashboardDouble({
  dist: DIST,
  user,
  answer: (url) =>
    url.pathname.startsWith('/api/exchanges/spreads')
      ? { success: true, series: spreadDay((url.searchParams.get('symbol') ?? 'BTC/USDT') as Pair, Date.now()) }
      : undefined,
});

/** Price messages as the engine sends them, alternating pairs, MESSAGES_PER_SECOND; returns a stop function. */
function feed(): () => void {
  let seq = 0;
  const timer = setInterval(() => {
    seq++;
    const symbol: Pair = seq % 2 === 0 ? 'BTC/USDT' : 'ETH/USDT';
    const binance = +(BASE[symbol] * (1 + 0.0001 * Math.sin(seq / 7))).toFixed(2);
    const deriv = +(binance * (1 + 0.0003 * Math.sin(seq / 5))).toFixed(2);
    io.emit('priceUpdate', {
      symbol,
      binance,
      deriv,
      spread: (deriv - binance) / binance,
      arbitrage: { profitable: false },
      timestamp: new Date().toISOString(),
      ageMs: { binance: 120, deriv: 180 },
    });
  }, 1000 / MESSAGES_PER_SECOND);
  return () => clearInterval(timer);
}

type Phase = 'visible' | 'hidden' | 'plain';

const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });

/** Main-thread task ms per wall second of `page` over SECONDS while the feed runs. */
async function busyPerSecond(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  const taskSeconds = async () =>
    (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'TaskDuration')?.value ?? NaN;
  // Settle: the first messages after a load (charts created, caches written) are not the steady state.
  await new Promise((r) => setTimeout(r, 2000));
  const before = await taskSeconds();
  const started = performance.now();
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  const busy = (await taskSeconds()) - before;
  const wall = (performance.now() - started) / 1000;
  await cdp.detach();
  return (busy * 1000) / wall;
}

async function measure(phase: Phase): Promise<number> {
  const context = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 390, height: 844 } });
  // tsx (esbuild keepNames) wraps inner functions in __name(...); functions evaluated in the page have no __name.
  await context.addInitScript({ content: 'window.__name = (f) => f;' });
  if (phase !== 'plain') {
    await context.addInitScript((u) => {
      localStorage.setItem('token', 'bench-token');
      localStorage.setItem('user', JSON.stringify(u));
    }, user);
  }
  const stop = feed();
  try {
    const page = await context.newPage();
    await page.goto(phase === 'plain' ? `${origin}/plain` : `${origin}/dashboard`);
    await page.waitForFunction(() => document.readyState === 'complete');
    if (phase !== 'plain') await page.locator('[data-testid="price-BTC/USDT"]').waitFor();
    // Headless Chromium keeps every tab visible (another tab brought to the front changes nothing), so the page is
    // told it is hidden as a browser tells it; the browser's own throttling of hidden tabs (animation frames, timers)
    // does not happen here, so this measures only what the app itself stops doing.
    if (phase === 'hidden')
      await page.evaluate(() => {
        Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
        Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
        document.dispatchEvent(new Event('visibilitychange'));
      });
    return await busyPerSecond(page);
  } finally {
    stop();
    await context.close();
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

const phases: Phase[] = ['visible', 'hidden', 'plain'];
const runs: Record<Phase, number[]> = { visible: [], hidden: [], plain: [] };
for (let round = 0; round < ROUNDS; round++) {
  for (let i = 0; i < phases.length; i++) {
    const phase = phases[(round + i) % phases.length]!;
    const ms = await measure(phase);
    runs[phase].push(ms);
    console.log(`  round ${round + 1} ${phase.padEnd(8)} ${ms.toFixed(0).padStart(5)} ms busy per second`);
  }
}
await browser.close();
close();

const medians = Object.fromEntries(phases.map((p) => [p, Math.round(median(runs[p]))])) as Record<Phase, number>;
console.log(
  `\nMain-thread busy time per second at ${CPU_SLOWDOWN}x CPU slowdown, ${MESSAGES_PER_SECOND} price messages a second, medians of ${ROUNDS} x ${SECONDS} s (390 px):`,
);
console.log(
  `  Dashboard in view   ${String(medians.visible).padStart(5)} ms/s  (${(medians.visible / medians.plain).toFixed(2)}x the floor)`,
);
console.log(`  Dashboard hidden    ${String(medians.hidden).padStart(5)} ms/s`);
console.log(`  floor: plain DOM    ${String(medians.plain).padStart(5)} ms/s  (bench/render-plain.html)`);
mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
writeFileSync(
  join(ROOT, 'bench/results/render-busy.json'),
  `${JSON.stringify({ cpuSlowdown: CPU_SLOWDOWN, messagesPerSecond: MESSAGES_PER_SECOND, seconds: SECONDS, rounds: ROUNDS, medians, runs, measuredAt: new Date().toISOString() }, null, 2)}\n`,
);
