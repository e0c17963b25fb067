// Time from navigation to the dashboard painted with prices, offline (shell from the service worker, prices from
// IndexedDB) beside online (same, with the network up), median of 10 navigations each, in one run on one machine.
// Run: npx tsx bench/offline.ts   → prints the figures and writes bench/results/offline.json
import { mkdirSync, writeFileSync } from 'node:fs';
import { launchPersistent, networkSwitch, signIn, waitForServiceWorker } from '../tools/pwa-browser';
import { ADMIN, median, startPwaServer } from './pwa-server';

const RUNS = 10;

// Set in every document before the app runs: the time (ms since navigation start) of the first animation frame in
// which the BTC/USDT Binance price shows a dollar figure. A string, not a function: the TypeScript runner wraps named
// functions in a helper (__name) that does not exist in the page.
const PRICE_PAINT_PROBE = `
  window.addEventListener('DOMContentLoaded', () => {
    const frame = (now) => {
      const cell = document.querySelector('[data-testid="price-BTC/USDT"] [data-testid="price-binance"]');
      if (cell && cell.textContent.includes('$')) window.__pricePaint = now;
      else requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  }, { once: true });
`;

const server = await startPwaServer();
const browser = await launchPersistent({ width: 390, height: 844 });
try {
  const page = browser.context.pages()[0] ?? (await browser.context.newPage());
  await page.addInitScript({ content: PRICE_PAINT_PROBE });
  const network = await networkSwitch(browser.context);
  await signIn(page, server.url, ADMIN.email, ADMIN.password);
  await page.goto(`${server.url}/dashboard`);
  await waitForServiceWorker(page);
  await page.waitForFunction(() => ((window as unknown as { __pricePaint?: number }).__pricePaint ?? 0) > 0, null, {
    timeout: 60_000,
  });
  await page.waitForTimeout(2500); // the cache writes prices at most once a second

  const measure = async () => {
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      await page.goto(`${server.url}/dashboard`);
      await page.waitForFunction(() => ((window as unknown as { __pricePaint?: number }).__pricePaint ?? 0) > 0, null, {
        timeout: 30_000,
      });
      times.push(await page.evaluate(() => (window as unknown as { __pricePaint: number }).__pricePaint));
    }
    return times;
  };

  const online = await measure();
  await network.set(false);
  const offline = await measure();
  await network.set(true);

  const result = {
    benchmark: 'offline',
    what: 'navigation start → first frame with the dashboard showing BTC/USDT prices (ms), 390×844 viewport',
    runs: RUNS,
    online: { medianMs: Math.round(median(online)), samplesMs: online.map(Math.round) },
    offline: { medianMs: Math.round(median(offline)), samplesMs: offline.map(Math.round) },
    offlineToOnlineRatio: Number((median(offline) / median(online)).toFixed(2)),
    at: new Date().toISOString(),
  };
  console.log(
    `dashboard with prices, median of ${RUNS}: online ${result.online.medianMs} ms, offline ${result.offline.medianMs} ms (offline/online ${result.offlineToOnlineRatio})`,
  );
  mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
  writeFileSync(new URL('./results/offline.json', import.meta.url), `${JSON.stringify(result, null, 2)}\n`);
} finally {
  await browser.close();
  await server.stop();
}
