import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  createUser,
  makeClosedTrades,
  launch,
  newPage,
  PHONE,
  screenshot,
  signIn,
  textOf,
  toast,
  visible,
} from './helpers';

describe('settings, live dashboard, trades, balances', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('saves keys and token, enables trading (toasts), then sees prices move and a trade arrive live with its toast', async () => {
    const u = await createUser();
    const { page, context } = await newPage(browser);
    await signIn(page, u.email, u.password);
    await page.waitForURL(/\/settings$/);
    await page.getByLabel('Binance API Key').fill('e2eBinanceKey1234');
    await page.getByLabel('Binance Secret Key').fill('e2eBinanceSecret5678');
    await page.getByRole('button', { name: 'Save Keys' }).click();
    await visible(toast(page, 'API keys updated successfully'));
    await page.getByLabel('Deriv Token').fill('e2eDerivToken9012');
    await page.getByLabel('Deriv App ID').fill('1089');
    await page.getByRole('button', { name: 'Save Token' }).click();
    await visible(page.locator('text=Saved (').nth(2));
    await screenshot(page, 'settings-keys');

    await page.getByRole('tab', { name: 'Trading' }).click();
    expect(await page.getByLabel('Min Spread (%)').inputValue()).toBe('0.2');
    await page.getByLabel('Enable Automated Trading').check();
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await visible(toast(page, 'Trading settings updated and user added to trading'));
    await screenshot(page, 'settings-trading');
    const saved = await api<{ user: { tradingEnabled: boolean; minSpread: number } }>('GET', '/auth/profile', {
      token: (await page.evaluate(() => localStorage.getItem('token'))) ?? '',
    });
    expect(saved.json.user).toMatchObject({ tradingEnabled: true, minSpread: 0.002 });

    await page.getByRole('link', { name: 'Dashboard' }).first().click();
    const btc = page.getByTestId('price-BTC/USDT').getByTestId('price-binance');
    const first = await textOf(btc);
    expect(first).toMatch(/^\$[\d,]+\.\d{2}$/);
    // Prices tick several times a second in the simulated market.
    await page.waitForFunction(
      (before) =>
        document.querySelector('[data-testid="price-BTC/USDT"] [data-testid="price-binance"]')?.textContent !== before,
      first,
    );

    const token = (await page.evaluate(() => localStorage.getItem('token'))) ?? '';
    // Trading is on, so the engine may already hold an automated trade on a symbol (one open trade per user and
    // symbol, 409 otherwise): place the manual trade on the first symbol that takes it.
    let placed: string | null = null;
    for (const symbol of ['ETH/USDT', 'BTC/USDT']) {
      const created = await api<{ trade: { _id: string }; message?: string }>('POST', '/trades', {
        token,
        body: { symbol, totalAmount: 25 },
      });
      if (created.status < 300) {
        placed = symbol;
        break;
      }
      expect(created.status, JSON.stringify(created.json)).toBe(409);
    }
    if (placed) {
      await visible(toast(page, `Trade ${placed}: Open`));
      await visible(page.getByTestId('recent-trades').getByText(placed).first());
    } else {
      // Both symbols already hold automated trades: they reached this new user's dashboard live.
      await visible(page.getByTestId('recent-trades').getByText('Open').first());
    }
    await screenshot(page, 'dashboard');
    await context.close();
  });

  it('trades: filters reset to page 1, sorting toggles, pagination text', async () => {
    const u = await createUser({ keys: true });
    await makeClosedTrades(
      u.token,
      Array.from({ length: 12 }, (_, i) => (i % 3 === 0 ? 'ETH/USDT' : 'BTC/USDT')),
    );
    const { page, context } = await newPage(browser);
    await signIn(page, u.email, u.password);
    await page.getByRole('link', { name: 'Trades' }).first().click();
    await page.getByLabel('Page size').selectOption('10');
    expect(await textOf(page.getByTestId('pagination-text'))).toBe('Showing 1 to 10 of 12 trades');
    expect(await page.getByTestId('trade-row').count()).toBe(10);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Showing 11 to 12 of 12 trades').waitFor();
    expect(await page.getByTestId('trade-row').count()).toBe(2);

    // A filter change goes back to page 1; with 4 ETH trades there is a single page and no pagination.
    await page.getByLabel('Pair', { exact: true }).selectOption('ETH/USDT');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="trade-row"]').length === 4);
    expect(await page.getByTestId('pagination-text').count()).toBe(0);
    const pairs = await page.getByTestId('trade-row').locator('td:first-child').allTextContents();
    expect(new Set(pairs)).toEqual(new Set(['ETH/USDT']));
    await page.getByLabel('Pair', { exact: true }).selectOption('');

    // Sorting: descending first, then toggles.
    const amountHeader = page.locator('th', { hasText: 'Amount' });
    await amountHeader.getByRole('button').click();
    expect(await amountHeader.getAttribute('aria-sort')).toBe('descending');
    const amounts = async () =>
      (await page.getByTestId('trade-row').locator('td:nth-child(3)').allTextContents()).map((t) =>
        Number(t.replace(/[$,]/g, '')),
      );
    const desc = await amounts();
    expect(desc).toEqual([...desc].sort((a, b) => b - a));
    await amountHeader.getByRole('button').click();
    expect(await amountHeader.getAttribute('aria-sort')).toBe('ascending');
    const asc = await amounts();
    expect(asc).toEqual([...asc].sort((a, b) => a - b));

    await page.getByLabel('Status', { exact: true }).selectOption('cancelled');
    await page.getByText('No trades found').or(page.getByTestId('trade-row').first()).waitFor();
    await page.getByLabel('Status', { exact: true }).selectOption('');
    await screenshot(page, 'trades');
    await context.close();

    const phone = await newPage(browser, PHONE);
    await signIn(phone.page, u.email, u.password);
    await phone.page.getByRole('button', { name: 'Menu', exact: true }).click();
    await phone.page.locator('#mobile-menu').getByRole('link', { name: 'Trades' }).click();
    await phone.page.getByTestId('trade-row').first().waitFor();
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await screenshot(phone.page, 'trades');
    await phone.context.close();
  });

  it('balances: loads on open, Refresh syncs then reloads', async () => {
    const u = await createUser({ keys: true });
    for (const viewport of [undefined, PHONE]) {
      const { page, context } = await newPage(browser, viewport);
      await signIn(page, u.email, u.password);
      await page.goto('/balances');
      await visible(page.getByTestId('venue-binance').getByText('USDT'));
      expect(await textOf(page.getByTestId('balance-total'))).toMatch(/\$[\d,]+\.\d{2}/);
      expect(await textOf(page.getByTestId('venue-binance'))).toMatch(/\d+\.\d{6} BTC/);
      await page.getByRole('button', { name: 'Refresh' }).click();
      await visible(toast(page, 'Balances synced successfully'));
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await screenshot(page, 'balances');
      await context.close();
    }
  });
});
