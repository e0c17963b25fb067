// The admin's backup download in real Chromium against the real server: the card on User Management, the file the
// browser saves (the server's gzip-compressed copy of its database), the toast, and the audit record; at phone width
// in the dark scheme and at desktop width in the light one. On PostgreSQL the server answers that pg_dump is the way.
import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, api, apiLogin, launch, newPage, PHONE, screenshot, signIn, textOf, toast, visible } from './helpers';

describe('admin: database backup download', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('downloads a backup from User Management, and the server records it', async () => {
    const { token } = await apiLogin(ADMIN().email, ADMIN().password);
    const before = await api<{ pagination: { total: number } }>('GET', '/admin/audit?action=backup_downloaded', {
      token,
    });
    const embedded = !process.env.DATABASE_URL;
    for (const viewport of [PHONE, undefined]) {
      const { page, context } = await newPage(browser, viewport);
      await page.emulateMedia({ colorScheme: viewport ? 'dark' : 'light' });
      await signIn(page, ADMIN().email, ADMIN().password);
      await page.goto('/admin/users');
      const card = page.getByTestId('backup');
      expect(await textOf(card)).toContain('credential-encryption.key');
      const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(scrollWidth).toBeLessThanOrEqual(page.viewportSize()?.width ?? 0);
      await card.scrollIntoViewIfNeeded();
      await screenshot(page, 'admin-backup');
      if (embedded) {
        const download = page.waitForEvent('download');
        await card.getByRole('button', { name: 'Download backup' }).click();
        const file = await download;
        expect(file.suggestedFilename()).toMatch(/^arbitrage-backup-\d{8}T\d{6}Z\.tar\.gz$/);
        const bytes = readFileSync((await file.path())!);
        expect([...bytes.subarray(0, 2)]).toEqual([0x1f, 0x8b]);
        expect(bytes.length).toBeGreaterThan(1_000_000);
        await visible(toast(page, /^Backup downloaded/));
      } else {
        await card.getByRole('button', { name: 'Download backup' }).click();
        await visible(toast(page, /back it up with pg_dump/));
      }
      await context.close();
    }
    const after = await api<{ pagination: { total: number } }>('GET', '/admin/audit?action=backup_downloaded', {
      token,
    });
    expect(after.json.pagination.total - before.json.pagination.total).toBe(embedded ? 2 : 0);
  }, 120_000);
});
