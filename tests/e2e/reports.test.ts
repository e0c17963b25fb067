import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createUser,
  DESKTOP,
  expectNoSidewaysScroll,
  launch,
  makeClosedTrades,
  newPage,
  PHONE,
  screenshot,
  signIn,
  textOf,
  visible,
} from './helpers';

describe('P&L report and trade fees', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('reports finished trades by period and pair with their fees, without sideways scroll at 390 or 1440 px', async () => {
    const u = await createUser({ keys: true, prefix: 'report' });
    await makeClosedTrades(u.token, ['BTC/USDT', 'ETH/USDT']);
    for (const viewport of [PHONE, DESKTOP]) {
      for (const scheme of ['light', 'dark'] as const) {
        const { page, context } = await newPage(browser, viewport);
        await page.emulateMedia({ colorScheme: scheme });
        await signIn(page, u.email, u.password);
        await page.goto('/trades');
        const report = page.getByTestId('pnl-report');
        const total = report.getByTestId('report-periods-row').last();
        expect(await textOf(total)).toMatch(/^Total2/);
        const pairs = report.getByTestId('report-pairs-row');
        await visible(pairs.last());
        expect(await pairs.count()).toBe(3);
        // Each trade's fees are shown in the list, as dollars.
        for (const fees of await page.getByTestId('trade-fees').all()) expect(await fees.innerText()).toMatch(/\$\d/);
        await page.getByRole('button', { name: 'Week' }).click();
        await visible(report.getByText(/^Week of /));
        await visible(report.getByTestId('report-canvas'));
        await expectNoSidewaysScroll(page);
        // Nor inside the card: both report tables fit their box (no table that scrolls on its own).
        for (const id of ['report-periods', 'report-pairs'])
          expect(await report.getByTestId(id).evaluate((t) => t.scrollWidth <= t.parentElement!.clientWidth)).toBe(
            true,
          );
        await report.scrollIntoViewIfNeeded();
        await screenshot(page, `report-trades-${scheme}`);
        await context.close();
      }
    }
  });
});
