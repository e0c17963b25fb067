// Limits the balances cannot fund (issue 20, finding 9), in Chromium: saving a max exposure above what the paper
// balances fund shows the size the engine will trade, at phone and desktop width, in both colour schemes.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
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

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe('Settings: what the balances fund', () => {
  for (const [viewport, scheme] of [
    [PHONE, 'light'],
    [DESKTOP, 'dark'],
  ] as const) {
    it(`says after a save the size the engine will trade (${viewport.width} px, ${scheme})`, async () => {
      const trader = await createUser({ prefix: 'funding' });
      const { context, page } = await newPage(browser, viewport);
      try {
        await page.emulateMedia({ colorScheme: scheme });
        await signIn(page, trader.email, trader.password);
        await page.goto('/settings');
        await visible(page.getByRole('tab', { name: 'Trading' }));
        await page.getByRole('tab', { name: 'Trading' }).click();
        await page.getByLabel('Max Exposure (USDT)').fill('50000');
        await page.getByRole('button', { name: 'Save Settings' }).click();
        const warning = page.getByText(/^Your balances fund about/);
        await visible(warning);
        expect(await warning.textContent()).toMatch(
          /^Your balances fund about 9,990 USDT of open trades, less than your max exposure of 50,000 USDT: the engine will trade 9,990 USDT a trade, not the 12,500 your limits ask for\.$/,
        );
        await expectNoSidewaysScroll(page);
        await screenshot(page, `settings-funding-${scheme}`);
      } finally {
        await context.close();
      }
    });
  }
});
