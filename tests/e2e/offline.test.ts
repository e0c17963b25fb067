// Offline end to end, in real Chromium against the real server: the last data stays readable offline on every
// screen, the app goes live again by itself, server actions are refused offline, and logout leaves nothing behind.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, networkSwitch, signIn, waitForServiceWorker } from '../../tools/pwa-browser';
import { api, cacheContents, storedTraces, textOf, waitGone, waitVisible } from './offline-support';
import { e2eServer } from './offline-server';

const server = e2eServer();
let browser: Browser;
let context: BrowserContext;
let page: Page;
let network: Awaited<ReturnType<typeof networkSwitch>>;
const user = {
  username: `offline${Date.now()}`,
  email: `offline${Date.now()}@example.com`,
  password: 'offline-pass-1',
};

beforeAll(async () => {
  const admin = await api<{ token: string }>(server.url, 'POST', '/auth/login', {
    username: server.adminEmail,
    password: server.adminPassword,
  });
  await api(server.url, 'POST', '/admin/users', { ...user, role: 'user' }, admin.token);
  const session = await api<{ token: string }>(server.url, 'POST', '/auth/login', {
    username: user.email,
    password: user.password,
  });
  // A history to read offline: manual trades take the engine's normal path and are stored at once (one open trade
  // per pair at a time, hence one each).
  await api(server.url, 'POST', '/trades', { symbol: 'BTC/USDT', totalAmount: 100 }, session.token);
  await api(server.url, 'POST', '/trades', { symbol: 'ETH/USDT', totalAmount: 120 }, session.token);
  browser = await launchBrowser();
  context = await browser.newContext({ serviceWorkers: 'allow', viewport: { width: 1280, height: 800 } });
  network = await networkSwitch(context);
  page = await context.newPage();
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
});

const banner = () => page.getByTestId('offline-banner');
const firstPrice = () => page.getByTestId('price-BTC/USDT').getByTestId('price-binance').textContent();

describe('offline', () => {
  it('signs in, lets live data arrive and the service worker take over', async () => {
    await signIn(page, server.url, user.email, user.password);
    await page.goto(`${server.url}/dashboard`);
    await waitForServiceWorker(page);
    await expect.poll(firstPrice, { timeout: 30_000 }).toMatch(/\$\d/);
    await expect.poll(() => page.getByTestId('recent-trade').count(), { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
    // Everything the offline screens need has reached IndexedDB: the trades (history sync) and the snapshots.
    await expect
      .poll(() => cacheContents(page), { timeout: 30_000 })
      .toMatchObject({ trades: 2, snapshots: expect.arrayContaining(['prices', 'balances', 'stats', 'recentTrades']) });
    expect(await banner().count()).toBe(0);
    // Nothing of the API or the socket is ever kept in Cache Storage; the shell is.
    const cached = await page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys())
        for (const req of await (await caches.open(name)).keys()) urls.push(new URL(req.url).pathname);
      return urls;
    });
    expect(cached).toContain('/index.html');
    expect(cached.filter((u) => u.startsWith('/api') || u.startsWith('/socket.io'))).toEqual([]);
  });

  it('offline, every route reloads into the shell with the last data and the banner', async () => {
    await network.set(false);
    await page.reload();
    await waitVisible(banner());
    await expect.poll(() => textOf(banner())).toMatch(/^Offline — showing data from [A-Z][a-z]{2} \d{2}, \d{2}:\d{2}$/);
    await expect.poll(firstPrice, { timeout: 10_000 }).toMatch(/\$\d/);
    await expect.poll(() => page.getByTestId('recent-trade').count()).toBe(2);

    await page.goto(`${server.url}/trades`);
    await waitVisible(banner());
    await expect.poll(() => page.getByTestId('trade-row').count()).toBe(2);
    await waitVisible(page.getByTestId('offline-coverage'));
    expect(await textOf(page.getByTestId('offline-coverage'))).toMatch(/^Offline copy: all 2 of your trades, back to /);
    // Filters work over the local copy.
    await page.getByLabel('Pair', { exact: true }).selectOption('ETH/USDT');
    await expect.poll(() => page.getByTestId('trade-row').count()).toBe(1);
    await page.getByLabel('Pair', { exact: true }).selectOption('');

    await page.goto(`${server.url}/balances`);
    await waitVisible(banner());
    await expect.poll(() => textOf(page.getByTestId('balance-total'))).toMatch(/\$[1-9]/);
    await waitVisible(page.getByTestId('venue-binance'));

    await page.goto(`${server.url}/settings`);
    await waitVisible(banner());
  });

  it('offline, saving settings is refused with a clear toast and the form keeps what was typed', async () => {
    await page.getByRole('tab', { name: 'Trading' }).click();
    const maxLoss = page.getByLabel(/max loss/i);
    await maxLoss.fill('350');
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await waitVisible(page.getByText("You're offline. This needs a connection to the server", { exact: false }));
    expect(await maxLoss.inputValue()).toBe('350');
  });

  it('back online, the app goes live again without a reload', async () => {
    await page.goto(`${server.url}/dashboard`);
    await waitVisible(banner());
    const marker = await page.evaluate(() => ((window as unknown as { __noReload: number }).__noReload = Date.now()));
    await network.set(true);
    await waitGone(banner());
    const before = await firstPrice();
    await expect.poll(firstPrice, { timeout: 30_000 }).not.toBe(before);
    expect(await page.evaluate(() => (window as unknown as { __noReload?: number }).__noReload)).toBe(marker);
  });

  it('after logout an offline reload shows the login page and nothing of the user', async () => {
    await page.getByRole('button', { name: `User menu for ${user.username}` }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL(/\/login/);
    await network.set(false);
    await page.goto(`${server.url}/dashboard`);
    await page.waitForURL(/\/login/);
    await waitVisible(page.getByRole('heading', { name: 'Sign in' }));
    const traces = await storedTraces(page);
    expect(traces.token).toBeNull();
    expect(traces.user).toBeNull();
    expect(traces.databases.filter((d) => d.startsWith('arbitrage-cache:'))).toEqual([]);
    expect(await page.content()).not.toContain(user.username);
    await network.set(true);
  });
});
