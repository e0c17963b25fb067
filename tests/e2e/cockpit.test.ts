// The trader's cockpit end to end, in real Chromium against the real server, at 1440 and 390 px in light and dark:
// the spread chart drawn with data, an opportunity listed with the engine's outcome, an open position closed from its
// panel, the equity curve, a trade's detail; and offline, the chart and the opportunities again from IndexedDB.
// Only playwright-core through tools/pwa-browser is loaded here: the service-worker network switch needs it first.
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, networkSwitch, signIn, waitForServiceWorker } from '../../tools/pwa-browser';
import { api, textOf, waitGone, waitVisible } from './offline-support';
import { expectNoSidewaysScroll } from './helpers';
import { e2eServer } from './offline-server';

const server = e2eServer();
const SHOTS = join(import.meta.dirname, '..', '..', 'test-results', 'screenshots');
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

let counter = 0;
async function newTrader(): Promise<{ email: string; password: string; token: string }> {
  const admin = await api<{ token: string }>(server.url, 'POST', '/auth/login', {
    username: server.adminEmail,
    password: server.adminPassword,
  });
  const username = `cockpit${process.pid % 1000}${Date.now() % 100000}${counter++}`;
  const email = `${username}@e2e.test`;
  const password = 'Cockpit-password-1';
  await api(server.url, 'POST', '/admin/users', { username, email, password, role: 'user' }, admin.token);
  const { token, user } = await api<{ token: string; user: { _id: string } }>(server.url, 'POST', '/auth/login', {
    username: email,
    password,
  });
  await api(
    server.url,
    'PUT',
    `/users/${user._id}/api-keys`,
    { binanceApiKey: 'e2eKey1234', binanceSecretKey: 'e2eSecret5678', derivToken: 'e2eToken9012', derivAppId: '1089' },
    token,
  );
  return { email, password, token };
}

/** A manual trade on the first pair that takes it (the engine allows one open trade per user and pair). */
async function openTrade(token: string): Promise<{ _id: string; tradeId: string; symbol: string }> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    for (const symbol of ['BTC/USDT', 'ETH/USDT']) {
      const res = await fetch(`${server.url}/api/trades`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ symbol, totalAmount: 50 }),
      });
      const json = (await res.json()) as { trade?: { _id: string; tradeId: string; symbol: string } };
      if (res.status === 201 && json.trade) return json.trade;
      if (res.status !== 409) throw new Error(`manual trade refused: ${res.status} ${JSON.stringify(json)}`);
    }
    if (Date.now() > deadline) throw new Error('no pair took a manual trade');
    // A quote was momentarily stale or apart in time: the next tick (250 ms) trades.
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function shoot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  const { width } = page.viewportSize() ?? DESKTOP;
  await page.screenshot({ path: join(SHOTS, `${name}-${width}.png`), fullPage: true });
}

/** The scheme is applied and every colour transition it started has ended (axe and screenshots read final colours). */
async function themeSettled(page: Page, colorScheme: 'light' | 'dark'): Promise<void> {
  await page.emulateMedia({ colorScheme });
  await page.waitForFunction(
    (dark) => matchMedia('(prefers-color-scheme: dark)').matches === dark,
    colorScheme === 'dark',
  );
  // The theme's colour transitions start only with the next style pass: wait two frames, then for them to end.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  await page.waitForFunction(() => document.getAnimations().every((a) => !(a instanceof CSSTransition)));
}

/** Both themes of the current screen, as screenshots; the app follows the system colour scheme. */
async function shootThemes(page: Page, name: string): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await themeSettled(page, colorScheme);
    await shoot(page, `${name}-${colorScheme}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** The chart canvases inside a container have painted something (lightweight-charts draws on several canvases). */
function paintedPixels(page: Page, testId: string): Promise<number> {
  return page.evaluate((id) => {
    let painted = 0;
    for (const canvas of document.querySelectorAll<HTMLCanvasElement>(`[data-testid="${id}"] canvas`)) {
      if (canvas.width === 0 || canvas.height === 0) continue;
      const data = canvas.getContext('2d')?.getImageData(0, 0, canvas.width, canvas.height).data;
      if (data) for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) painted++;
    }
    return painted;
  }, testId);
}

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
/** axe-core's violations inside the cockpit's own panels (the rest of each screen is checked by the screens suite). */
async function axeViolations(page: Page, selectors: string[]): Promise<string[]> {
  await page.addScriptTag({ content: AXE });
  return page.evaluate(async (include) => {
    const present = include.filter((s) => document.querySelector(s));
    const axe = (
      window as unknown as {
        axe: {
          run: (ctx: unknown, opts: unknown) => Promise<{ violations: { id: string; nodes: { target: unknown }[] }[] }>;
        };
      }
    ).axe;
    const result = await axe.run({ include: present.map((s) => [s]) }, { resultTypes: ['violations'] });
    return result.violations.map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`);
  }, selectors);
}
const COCKPIT_PANELS = [
  '[data-testid="risk-strip"]',
  '[data-testid="open-positions"]',
  '[data-testid="spread-chart"]',
  '[data-testid="equity-chart"]',
  '[data-testid="opportunities"]',
];

describe.each([
  { name: 'desktop', viewport: DESKTOP },
  { name: 'phone', viewport: PHONE },
])('the cockpit on a $name', ({ viewport }) => {
  let context: BrowserContext;
  let page: Page;
  let trader: { email: string; password: string; token: string };

  beforeAll(async () => {
    trader = await newTrader();
    // bypassCSP: axe-core is injected as an inline script, which the app's strict CSP refuses.
    context = await browser.newContext({ viewport, serviceWorkers: 'block', bypassCSP: true });
    page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await signIn(page, server.url, trader.email, trader.password);
    await page.goto(`${server.url}/dashboard`);
  });
  afterAll(async () => {
    await context?.close();
  });

  it('draws the spread history with data, with its summary in words, and shows the risk strip', async () => {
    await expect
      .poll(() => textOf(page.getByTestId('spread-summary')), { timeout: 30_000 })
      .toMatch(
        /^BTC\/USDT: Latest: Deriv (\d+\.\d\d% (above|below) Binance|level with Binance)\. Over the last 1 h the spread ranged from /,
      );
    await expect.poll(() => paintedPixels(page, 'spread-chart'), { timeout: 15_000 }).toBeGreaterThan(100);
    await page.getByRole('button', { name: 'Show venue prices' }).click();
    await page.getByRole('button', { name: '15 min' }).click();
    await expect
      .poll(() => textOf(page.getByTestId('spread-summary')), { timeout: 10_000 })
      .toMatch(/Over the last 15 min/);
    expect(await textOf(page.getByTestId('risk-engine'))).toMatch(/Off/);
    await expect
      .poll(() => textOf(page.getByTestId('risk-exposure')), { timeout: 10_000 })
      .toMatch(/\$0\.00 of \$1,000\.00/);
    expect(await textOf(page.getByTestId('price-BTC/USDT'))).toMatch(
      /Deriv (\d+\.\d\d% (above|below) Binance|level with Binance)/,
    );
    await expectNoSidewaysScroll(page);
  });

  it('lists the opened trade as a taken opportunity, shows it as a position with its P&L, and closes it from the panel', async () => {
    // The calibrated market converges within a second or two, so the position may be on screen only that long: what
    // it says is read in one step in the frame it shows (watched from before the trade opens), and the engine may close
    // it before the panel's Close (then the server says the trade is no longer open). A deterministic close is in
    // src/routes/cockpit.test.tsx.
    const positionShown = page
      .waitForFunction(
        () => {
          const card = document.querySelector<HTMLElement>('[data-testid="open-position"]');
          const part = (id: string) => card?.querySelector(`[data-testid="${id}"]`)?.textContent ?? '';
          const [pnl, timeLeft] = [part('position-pnl'), part('position-time-left')];
          return card && pnl && timeLeft ? { text: card.textContent ?? '', pnl, timeLeft } : null;
        },
        undefined,
        { timeout: 30_000, polling: 'raf' },
      )
      .then((handle) => handle.jsonValue());
    const trade = await openTrade(trader.token);
    const taken = page.getByTestId('opportunity').filter({ hasText: trade.symbol }).filter({ hasText: 'Taken' });
    await waitVisible(taken);
    expect(await textOf(taken)).toMatch(/Deriv (\d+\.\d\d% (above|below) Binance|level with Binance)/);

    const shown = await positionShown;
    if (!shown) throw new Error('the position was never shown');
    expect(shown.text).toContain(trade.symbol);
    expect(shown.text).toMatch(/Binance (long|short) · [\s\S]*Deriv (long|short) · /);
    expect(shown.pnl).toMatch(/^(P&L —|[+-]\$[\d,]+\.\d\d)$/);
    expect(shown.timeLeft).toMatch(/^Closes in \d:\d\d at the latest$/);
    const position = page.getByTestId('open-position').filter({ hasText: trade.symbol });
    await shootThemes(page, 'cockpit-open-position');
    await expectNoSidewaysScroll(page);
    for (const colorScheme of ['light', 'dark'] as const) {
      await themeSettled(page, colorScheme);
      expect(await axeViolations(page, COCKPIT_PANELS), colorScheme).toEqual([]);
    }
    await page.emulateMedia({ colorScheme: 'light' });
    const closeButton = position.getByRole('button', { name: `Close trade ${trade.tradeId}` });
    const clicked = await closeButton.click({ timeout: 2_000 }).then(
      () => true,
      () => false,
    );
    if (clicked)
      await waitVisible(
        page
          .locator('.Toastify')
          .getByText(
            new RegExp(
              `^Closing ${trade.symbol.replace('/', '\\/')}: both legs$|open trade can be cancelled|not open|already`,
            ),
          ),
      );
    await waitGone(position);
    const closed = await api<{ trade: { status: string; reason: string | null } }>(
      server.url,
      'GET',
      `/trades/${trade._id}`,
      undefined,
      trader.token,
    );
    expect(closed.trade.status).not.toBe('pending');
    expect(closed.trade.reason).toBeTruthy();
    // Closed and realised: the equity curve starts with it.
    await expect
      .poll(() => textOf(page.getByTestId('equity-summary')), { timeout: 20_000 })
      .toMatch(/^Realised P&L after 1 finished trade: -?\$\d+\.\d\d/);
    await expect.poll(() => paintedPixels(page, 'equity-chart'), { timeout: 15_000 }).toBeGreaterThan(100);
    await shootThemes(page, 'cockpit-closed');
  });

  it("opens a trade's detail from the recent trades: legs, fills, fees, slippage, exit reason", async () => {
    await page.getByTestId('recent-trade').first().getByTestId('trade-link').click();
    await page.waitForURL(/\/trades\/[0-9a-f-]{36}$/);
    const detail = page.getByTestId('trade-detail');
    await waitVisible(detail);
    await expect.poll(() => page.getByTestId('detail-leg').count(), { timeout: 10_000 }).toBe(2);
    await expect.poll(() => textOf(page.getByTestId('detail-reason')), { timeout: 10_000 }).not.toBe('still open');
    expect(await textOf(page.getByTestId('detail-slippage'))).toMatch(
      /^(\d+\.\d\d bp (of the edge lost|better than decided|exactly as decided)|—)$/,
    );
    expect(await textOf(detail)).toMatch(/Open fill[\s\S]*at \$[\d,]+\.\d\d · fee \$/);
    // Each leg's fill against the quote the engine decided on: a buy against the ask, a sell against the bid.
    for (const text of await page.getByTestId('detail-leg-slippage').allTextContents())
      expect(text).toMatch(/^(Ask|Bid) \$[\d,]+\.\d\d · \d+\.\d\d bp (worse|better|exactly at it)$/);
    await expectNoSidewaysScroll(page);
    await shootThemes(page, 'cockpit-trade-detail');
    for (const colorScheme of ['light', 'dark'] as const) {
      await themeSettled(page, colorScheme);
      expect(await axeViolations(page, ['[data-testid="trade-detail"]']), colorScheme).toEqual([]);
    }
    await page.emulateMedia({ colorScheme: 'light' });
    // The equity curve on Balances too.
    await page.goto(`${server.url}/balances`);
    await expect
      .poll(() => textOf(page.getByTestId('equity-summary')), { timeout: 10_000 })
      .toMatch(/^Realised P&L after 1 finished trade: -?\$\d+\.\d\d/);
    await expect.poll(() => paintedPixels(page, 'equity-chart'), { timeout: 15_000 }).toBeGreaterThan(100);
    await expectNoSidewaysScroll(page);
    // And from the Trades list.
    await page.goto(`${server.url}/trades`);
    await page.getByTestId('trade-link').first().click();
    await page.waitForURL(/\/trades\/[0-9a-f-]{36}$/);
    await waitVisible(page.getByTestId('trade-detail'));
  });
});

describe('the cockpit offline', () => {
  it('draws the spread chart and lists the opportunities from IndexedDB after an offline reload', async () => {
    const trader = await newTrader();
    const context = await browser.newContext({ viewport: PHONE, serviceWorkers: 'allow' });
    const network = await networkSwitch(context);
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    try {
      await signIn(page, server.url, trader.email, trader.password);
      await page.goto(`${server.url}/dashboard`);
      await waitForServiceWorker(page);
      const trade = await openTrade(trader.token);
      await waitVisible(page.getByTestId('opportunity').filter({ hasText: 'Taken' }));
      await expect.poll(() => textOf(page.getByTestId('spread-summary')), { timeout: 30_000 }).toMatch(/Latest: Deriv/);
      // What the offline screen will read has reached IndexedDB: spread points and the outcomes with the trade taken
      // (they are written at most once a second: the list may be saved before the taken one arrives).
      const stored = () =>
        page.evaluate(async (symbol) => {
          const name = (await indexedDB.databases()).find((d) => d.name?.startsWith('arbitrage-cache:'))?.name;
          if (!name) return { spreads: 0, outcomes: false };
          const db = await new Promise<IDBDatabase>((resolve, reject) => {
            const open = indexedDB.open(name);
            open.onsuccess = () => resolve(open.result);
            open.onerror = () => reject(open.error);
          });
          const ask = <T>(req: IDBRequest<T>) =>
            new Promise<T>(
              (resolve, reject) => (
                (req.onsuccess = () => resolve(req.result)),
                (req.onerror = () => reject(req.error))
              ),
            );
          const tx = db.transaction(['spreads', 'snapshots']);
          const [spreads, outcomes] = await Promise.all([
            ask(tx.objectStore('spreads').count()),
            ask(tx.objectStore('snapshots').get('outcomes')),
          ]);
          db.close();
          const list = (outcomes as { data?: Array<{ symbol: string; outcome: string }> } | undefined)?.data ?? [];
          return { spreads, outcomes: list.some((o) => o.symbol === symbol && o.outcome === 'taken') };
        }, trade.symbol);
      // Live samples are written in batches every few seconds: wait for both, whichever comes last.
      await expect.poll(stored, { timeout: 30_000 }).toMatchObject({ outcomes: true });
      await expect.poll(async () => (await stored()).spreads, { timeout: 30_000 }).toBeGreaterThan(0);

      await network.set(false);
      await page.reload();
      await waitVisible(page.getByTestId('offline-banner'));
      await expect.poll(() => textOf(page.getByTestId('spread-summary')), { timeout: 15_000 }).toMatch(/Latest: Deriv/);
      await expect.poll(() => paintedPixels(page, 'spread-chart'), { timeout: 15_000 }).toBeGreaterThan(100);
      await waitVisible(page.getByTestId('opportunity').filter({ hasText: trade.symbol }).filter({ hasText: 'Taken' }));
      await shoot(page, 'cockpit-offline');
    } finally {
      await network.set(true).catch(() => undefined);
      await context.close();
    }
  });
});
