// The Trading engine card on User Management in real Chromium against the real server: the instance answering is
// listed as this server, with its engine trading (one engine, no shards, on the suite's embedded database); at phone
// width in the dark scheme and at desktop width in the light one, without sideways scrolling.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, launch, newPage, PHONE, screenshot, signIn, textOf, visible } from './helpers';

describe('admin: engine instances', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows the server instances and what their engines trade', async () => {
    for (const viewport of [PHONE, undefined]) {
      const { page, context } = await newPage(browser, viewport);
      await page.emulateMedia({ colorScheme: viewport ? 'dark' : 'light' });
      await signIn(page, ADMIN().email, ADMIN().password);
      await page.goto('/admin/users');
      const card = page.getByTestId('engine-instances');
      await visible(card.getByText('this server'));
      const text = await textOf(card);
      expect(text).toContain('One engine trades every user');
      expect(text).toContain('Trading');
      const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(scrollWidth).toBeLessThanOrEqual(page.viewportSize()?.width ?? 0);
      await card.scrollIntoViewIfNeeded();
      await screenshot(page, 'admin-engine');
      await context.close();
    }
  }, 120_000);
});
