// Settings → Backtest against the shared e2e server: the server has been recording the simulated market's prices
// since it started; a trader replays the last hour with edited limits, sees the figures beside the current settings
// and the equity curve (its charting library loaded on demand), applies the limits, and offline the button says it
// needs a connection. Phone and desktop, light and dark.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  createUser,
  DESKTOP,
  expectNoSidewaysScroll,
  launch,
  newPage,
  PHONE,
  screenshot,
  signIn,
  visible,
} from './helpers';

/** The recorder writes its one-second samples every few seconds: wait until the last hour holds some. */
async function recordedPrices(token: string): Promise<void> {
  const now = Date.now();
  const query = `symbol=BTC%2FUSDT&from=${new Date(now - 3_600_000).toISOString()}&to=${new Date(now + 60_000).toISOString()}`;
  for (let attempt = 0; attempt < 60; attempt += 1) {
    const res = await api<{ series: { points: unknown[] } }>('GET', `/exchanges/spreads?${query}`, { token });
    if (res.json.series?.points.length > 0) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('the server recorded no prices in 30 s');
}

describe('backtest', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('runs a backtest of the last hour with edited limits, draws the equity curve and applies the limits', async () => {
    const u = await createUser();
    await recordedPrices(u.token);
    const { page, context } = await newPage(browser, PHONE);
    const charts: string[] = [];
    page.on('request', (r) => {
      if (/lightweight-charts|EquityChart/i.test(r.url())) charts.push(r.url());
    });
    await signIn(page, u.email, u.password);
    await page.waitForURL(/\/settings$/);
    await page.getByRole('tab', { name: 'Backtest' }).click();
    // Prefilled with the current settings.
    expect(await page.getByLabel('Min Spread (%)').inputValue()).toBe('0.2');
    expect(await page.getByLabel('Max Exposure (USDT)').inputValue()).toBe('1000');
    await page.getByText('Last hour').click();
    await page.getByLabel('Max Exposure (USDT)').fill('2500');
    await page.getByLabel('Max Loss (USDT)').fill('40');
    await page.getByRole('button', { name: 'Run backtest' }).click();

    const results = page.getByRole('region', { name: 'Backtest results' });
    await visible(results);
    await visible(results.getByText(/Replayed the [\d,]+ price ticks the engine decided on/));
    const cell = (row: string, column: number) =>
      results
        .getByRole('row', { name: new RegExp(`^${row}`) })
        .getByRole('cell')
        .nth(column);
    expect(await cell('Max exposure', 0).textContent()).toBe('$2,500.00');
    expect(await cell('Max exposure', 1).textContent()).toBe('$1,000.00');
    expect(await cell('Trades', 0).textContent()).toMatch(/^\d[\d,]*$/);
    // The equity curve is drawn by the charting library, fetched when the results first appear.
    await visible(page.locator('[aria-label^="Equity curve"] canvas'));
    expect(charts.length).toBeGreaterThan(0);
    await screenshot(page, 'backtest-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'backtest-dark');
    // No sideways scrolling on a phone.
    await expectNoSidewaysScroll(page);

    await page.getByRole('button', { name: 'Apply these limits' }).click();
    await visible(page.getByRole('button', { name: 'These are your limits' }));
    const profile = await api<{ user: { maxExposure: number; maxLoss: number; minSpread: number } }>(
      'GET',
      '/auth/profile',
      { token: (await page.evaluate(() => localStorage.getItem('token'))) ?? '' },
    );
    expect(profile.json.user).toMatchObject({ maxExposure: 2500, maxLoss: 40, minSpread: 0.002 });
    await page.getByRole('tab', { name: 'Trading' }).click();
    expect(await page.getByLabel('Max Exposure (USDT)').inputValue()).toBe('2500');

    await page.getByRole('tab', { name: 'Backtest' }).click();
    await context.setOffline(true);
    const offline = page.getByRole('button', { name: 'Backtest needs a connection' });
    await visible(offline);
    expect(await offline.isDisabled()).toBe(true);
    await context.close();
  });

  it('lays the tab out at desktop width in both colour schemes', async () => {
    const u = await createUser();
    const { page, context } = await newPage(browser, DESKTOP);
    await signIn(page, u.email, u.password);
    await page.waitForURL(/\/settings$/);
    await page.getByRole('tab', { name: 'Backtest' }).click();
    await page.getByText('Last hour').click();
    await page.getByRole('button', { name: 'Run backtest' }).click();
    await visible(page.locator('[aria-label^="Equity curve"] canvas'));
    await screenshot(page, 'backtest-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'backtest-dark');
    await context.close();
  });
});
