// Twelve pairs (SYMBOLS naming every pair the product knows) in real Chromium, on a server of its own: the Dashboard's
// Live Prices lists all twelve as rows, the user's own pairs first, without sideways scrolling at 390 px; Settings
// picks the pairs a user trades and the choice is saved. Looked at (screenshots) at 390 and 1440 px, light and dark.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAIR_CATALOGUE } from '../../contract/pairs';
import { DESKTOP, expectNoSidewaysScroll, launch, PHONE, screenshot, visible } from './helpers';
import { startOwnServer, type OwnServer } from './own-server';

const ADMIN = { email: 'admin@pairs-e2e.test', password: 'Pairs-e2e-admin-1' };
const ALL = PAIR_CATALOGUE.map((p) => p.symbol);

let own: OwnServer;
let base: string;
let browser: Browser;

async function signedIn(viewport: typeof DESKTOP, colorScheme: 'light' | 'dark' = 'light') {
  const context = await browser.newContext({ viewport, baseURL: base, serviceWorkers: 'block', colorScheme });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  await page.goto('/login');
  await page.getByLabel('Email').fill(ADMIN.email);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/(dashboard|settings)$/);
  return { context, page };
}

beforeAll(async () => {
  own = await startOwnServer('pairs', {
    MARKET: 'sim',
    SIM_SEED: '42',
    SYMBOLS: ALL.join(','),
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
  });
  base = own.url;
  browser = await launch();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await own?.stop();
});

describe('twelve pairs in Chromium', () => {
  it('picks the pairs to trade in Settings, and the Dashboard lists those first', async () => {
    const { context, page } = await signedIn(DESKTOP);
    await page.goto('/settings');
    await page.getByRole('tab', { name: 'Trading' }).click();
    const picker = page.getByTestId('pair-picker');
    await visible(picker);
    expect(await picker.getByRole('checkbox').count()).toBe(12);
    // Trade only Litecoin and Dogecoin.
    for (const symbol of ALL.filter((s) => s !== 'LTC/USDT' && s !== 'DOGE/USDT'))
      await picker.getByLabel(new RegExp(`^${symbol.replace('/', '\\/')}`)).uncheck();
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await visible(page.getByText('Trading settings updated').first());
    await page.goto('/dashboard');
    const rows = page.getByRole('list', { name: /Pairs by spread/ }).getByRole('listitem');
    await expect.poll(() => rows.count()).toBe(12);
    // Read in one go: the list re-sorts by spread as prices tick, so two separate reads can see the same row twice.
    const firstTwo = await rows.evaluateAll((items) => items.slice(0, 2).map((item) => item.dataset.testid));
    expect(firstTwo.sort()).toEqual(['price-DOGE/USDT', 'price-LTC/USDT']);
    expect(await rows.nth(2).textContent()).toMatch(/not traded by you/);
    await context.close();
  }, 90_000);

  for (const viewport of [PHONE, DESKTOP])
    for (const scheme of ['light', 'dark'] as const)
      it(`shows twelve pairs at ${viewport.width} px (${scheme}) without sideways scrolling`, async () => {
        const { context, page } = await signedIn(viewport, scheme);
        await page.goto('/dashboard');
        const list = page.getByRole('list', { name: /Pairs by spread/ });
        await visible(list);
        // Wait for every pair's first price.
        await expect.poll(() => list.getByText('N/A').count(), { timeout: 20_000 }).toBe(0);
        await screenshot(page, `many-pairs-dashboard-${scheme}`);
        await expectNoSidewaysScroll(page);
        await page.goto('/settings');
        await page.getByRole('tab', { name: 'Trading' }).click();
        await visible(page.getByTestId('pair-picker'));
        await screenshot(page, `many-pairs-settings-${scheme}`);
        await expectNoSidewaysScroll(page);
        await context.close();
      }, 90_000);

  it("hears every pair's prices on the Dashboard and none on Trades (the socket watches the pairs on screen)", async () => {
    const { context, page } = await signedIn(PHONE);
    // Each priceUpdate the page's socket receives, by pair.
    const heard: Array<{ at: number; symbol: string }> = [];
    page.on('websocket', (ws) =>
      ws.on('framereceived', ({ payload }) => {
        const text = String(payload);
        const m = /^42\["priceUpdate",\{"symbol":"([A-Z]+\/USDT)"/.exec(text);
        if (m) heard.push({ at: Date.now(), symbol: m[1]! });
      }),
    );
    await page.goto('/dashboard');
    const list = page.getByRole('list', { name: /Pairs by spread/ });
    await expect.poll(() => list.getByText('N/A').count(), { timeout: 20_000 }).toBe(0);
    /** The pairs heard over the next `ms`, and how many messages. */
    const listen = async (ms: number) => {
      const from = Date.now();
      await page.waitForTimeout(ms);
      const window = heard.filter((h) => h.at >= from);
      return { messages: window.length, pairs: new Set(window.map((h) => h.symbol)).size };
    };
    const onDashboard = await listen(2000);
    expect(onDashboard.pairs).toBe(12);

    // Trades shows no prices: once the server has heard so (the next frame after the change), nothing comes.
    await page.getByRole('button', { name: 'Menu', exact: true }).click();
    await page.getByRole('link', { name: 'Trades' }).first().click();
    await page.waitForURL(/\/trades$/);
    await page.waitForTimeout(500);
    const onTrades = await listen(2000);
    expect(onTrades.messages).toBe(0);

    // Back on the Dashboard every pair comes again, without a reload.
    await page.getByRole('button', { name: 'Menu', exact: true }).click();
    await page.getByRole('link', { name: 'Dashboard' }).first().click();
    await page.waitForURL(/\/dashboard$/);
    await expect.poll(async () => (await listen(1000)).pairs, { timeout: 10_000 }).toBe(12);
    await context.close();
  }, 90_000);
});
