import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  ADMIN_SCREENS,
  api,
  apiLogin,
  createUser,
  DESKTOP,
  launch,
  makeClosedTrades,
  newPage,
  PHONE,
  screenshot,
  signIn,
} from './helpers';

// Every screen at phone and desktop width: rendered, no horizontal scroll, saved as screenshots for review.
describe('screens at 390×844 and 1440×900', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('every route renders without horizontal scrolling, in light and dark', async () => {
    const u = await createUser({ keys: true, prefix: 'shots' });
    await makeClosedTrades(u.token, ['BTC/USDT', 'ETH/USDT', 'BTC/USDT']);
    const admin = await apiLogin(ADMIN().email, ADMIN().password);
    await api('PUT', `/users/${admin.user._id}/api-keys`, {
      token: admin.token,
      body: { binanceApiKey: 'adminKey1234', binanceSecretKey: 'adminSecret1234', derivToken: 'adminToken1234' },
    });
    for (const [viewport, scheme] of [
      [PHONE, 'dark'],
      [DESKTOP, 'light'],
    ] as const) {
      const { page, context } = await newPage(browser, viewport);
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto('/login');
      await screenshot(page, 'login');
      await page.goto('/register');
      await page.getByText('contact an admin', { exact: false }).waitFor();
      await signIn(page, ADMIN().email, ADMIN().password);
      for (const [path, ready] of [...ADMIN_SCREENS, ['/admin/audit', '[data-testid="audit-row"]'] as const]) {
        await page.goto(path);
        await page.locator(ready).first().waitFor();
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), path).toBe(true);
        await screenshot(page, `screen${path.replaceAll('/', '-')}`);
      }
      if (viewport === PHONE) {
        await page.getByRole('button', { name: 'Menu', exact: true }).click();
        await page.locator('#mobile-menu').waitFor();
        await screenshot(page, 'mobile-menu');
      }
      await context.close();
    }
    const user = await newPage(browser, PHONE);
    await signIn(user.page, u.email, u.password);
    await user.page.getByTestId('recent-trade').first().waitFor();
    await screenshot(user.page, 'dashboard-with-trades');
    await user.context.close();
  });
});
