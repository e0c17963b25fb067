// Phone-ready two-factor enrolment and the phone layouts of Settings and User Management, in real Chromium at 390
// and 1440 px, light and dark: every Settings tab in sight, no word-per-line "Last login", an uncut search
// placeholder, Reset 2FA only beside users who have it, and no sideways scrolling.
import { readFile } from 'node:fs/promises';
import { Secret, TOTP } from 'otpauth';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  api,
  colourTransitionsEnded,
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

/**
 * Each scheme's picture once its colour transitions have ended (not every animation: a toast's progress bar runs for
 * its whole life).
 */
async function bothSchemes(page: Page, name: string) {
  await page.emulateMedia({ colorScheme: 'light' });
  await colourTransitionsEnded(page);
  await screenshot(page, `${name}-light`);
  await page.emulateMedia({ colorScheme: 'dark' });
  await colourTransitionsEnded(page);
  await screenshot(page, `${name}-dark`);
  await page.emulateMedia({ colorScheme: 'light' });
}

describe.each([
  ['phone', PHONE],
  ['desktop', DESKTOP],
] as const)('phone polish at %s width', (_label, viewport) => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('offers Add to authenticator (otpauth://), Copy secret, and Copy and Download .txt for the recovery codes', async () => {
    const u = await createUser();
    const { page, context } = await newPage(browser, viewport);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await signIn(page, u.email, u.password);
    await page.goto('/profile');
    await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    const link = page.getByRole('link', { name: 'Add to authenticator' });
    await visible(link);
    expect(await link.getAttribute('href')).toMatch(/^otpauth:\/\/totp\/ArbiTrade:/);
    await page.getByRole('button', { name: 'Copy secret' }).click();
    await visible(page.getByText('Secret copied'));
    const secret = (await page.getByTestId('totp-secret').textContent())?.trim();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await page.getByTestId('totp-secret').scrollIntoViewIfNeeded();
    await bothSchemes(page, 'two-factor-enrol');
    await expectNoSidewaysScroll(page);

    // Confirm with a code from the same library the server uses; then the recovery codes copy and download.
    const code = new TOTP({ secret: Secret.fromBase32(secret ?? ''), digits: 6, period: 30 }).generate();
    await page.getByLabel('Code from the app').fill(code);
    await page.getByRole('button', { name: 'Confirm' }).click();
    const list = page.getByTestId('recovery-codes');
    await visible(list);
    const codes = (await list.locator('li').allTextContents()).map((c) => c.trim());
    expect(codes).toHaveLength(10);
    await page.getByRole('button', { name: 'Copy codes' }).click();
    await visible(page.getByText('Recovery codes copied'));
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(codes.join('\n'));
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download .txt' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('arbitrade-recovery-codes.txt');
    const saved = await readFile((await download.path()) ?? '', 'utf8');
    for (const c of codes) expect(saved).toContain(`\n${c}\n`);
    await list.scrollIntoViewIfNeeded();
    await bothSchemes(page, 'two-factor-codes');
    await expectNoSidewaysScroll(page);
    await context.close();
  });

  it('shows every Settings tab without scrolling the bar', async () => {
    const u = await createUser();
    const { page, context } = await newPage(browser, viewport);
    await signIn(page, u.email, u.password);
    await page.goto('/settings');
    const tabs = page.getByRole('tab');
    await visible(tabs);
    const width = viewport.width;
    for (const name of ['API Keys', 'Trading', 'Notifications', 'Backtest']) {
      const box = await page.getByRole('tab', { name }).boundingBox();
      expect(box, name).not.toBeNull();
      expect(box!.x, name).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width, name).toBeLessThanOrEqual(width);
    }
    // No tab list that scrolls sideways (the hidden Backtest tab of before).
    expect(await page.getByRole('tablist').evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    await bothSchemes(page, 'settings-tabs');
    await expectNoSidewaysScroll(page);
    await context.close();
  });

  it('User Management: last login on one line, the whole search placeholder, Reset 2FA only for 2FA users', async () => {
    const plain = await createUser({ prefix: 'plain' });
    const { page, context } = await newPage(browser, viewport);
    await signIn(page, ADMIN().email, ADMIN().password);
    await api('POST', '/auth/login', { body: { username: plain.email, password: plain.password } });
    await page.goto('/admin/users');
    const search = page.getByLabel('Search');
    await search.fill(plain.username);
    const row = page.locator(`[data-testid="user-row"][data-username="${plain.username}"]`);
    await visible(row);
    await visible(row.getByRole('button', { name: `Delete ${plain.username}` }));
    expect(await row.getByRole('button', { name: /Reset 2FA/ }).count()).toBe(0);

    // The last-login text sits on a single line: its height is one line of its font.
    const lines = await row.locator('td[data-label="Last login"]').evaluate((td) => {
      const range = document.createRange();
      range.selectNodeContents(td);
      const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      return tops.size;
    });
    expect(lines).toBe(1);

    // The placeholder fits the search box.
    await search.fill('');
    const fits = await search.evaluate((input: HTMLInputElement) => {
      const ctx = document.createElement('canvas').getContext('2d')!;
      const cs = getComputedStyle(input);
      ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
      const room = input.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
      return ctx.measureText(input.placeholder).width <= room;
    });
    expect(fits).toBe(true);
    await visible(page.getByTestId('users-table'));
    await bothSchemes(page, 'admin-users-polish');
    await expectNoSidewaysScroll(page);
    await context.close();
  });
});
