// The guard features in real Chromium against the real server: the audit screen and a user's recent activity,
// at phone and desktop widths. The kill switches (Stop & flatten, the admin's global halt) are in kill-switch.test.ts,
// on a server of its own whose market holds still, so the trade they close is never closed by the market first.
import { Secret, TOTP } from 'otpauth';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, api, createUser, launch, newPage, PHONE, screenshot, signIn, textOf, visible } from './helpers';

/** What an authenticator app shows for this secret, `steps` periods from now (the server's own library). */
const codeFor = (secret: string, steps = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({
    timestamp: Date.now() + steps * 30_000,
  });

describe('guard: audit log, kill switches, two-factor sign-in', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('admin reads the audit log with filters; a user sees their own activity in Profile', async () => {
    const u = await createUser({ prefix: 'audited' });
    const wrong = await api('POST', '/auth/login', { body: { username: u.email, password: 'not-the-password' } });
    expect(wrong.status).toBe(401);

    for (const viewport of [undefined, PHONE]) {
      const { page, context } = await newPage(browser, viewport);
      // Phone in dark, desktop in light: both schemes get a screenshot.
      await page.emulateMedia({ colorScheme: viewport ? 'dark' : 'light' });
      await signIn(page, ADMIN().email, ADMIN().password);
      await page.goto('/admin/audit');
      await visible(page.getByTestId('audit-row'));
      await page.getByLabel('User', { exact: true }).fill(u.username);
      await page.getByLabel('Action').selectOption('sign_in_failed');
      // The list follows the filters after a short debounce: wait for the filtered answer.
      await visible(page.locator('[data-testid="audit-total"]', { hasText: /^1 event$/ }));
      await visible(page.locator('[data-testid="audit-row"][data-action="sign_in_failed"]'));
      expect(await textOf(page.getByTestId('audit-list'))).toContain('wrong password');
      const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(scrollWidth).toBeLessThanOrEqual(page.viewportSize()?.width ?? 0);
      await screenshot(page, 'audit-log');
      await context.close();
    }

    const { page, context } = await newPage(browser, PHONE);
    await signIn(page, u.email, u.password);
    await page.goto('/profile');
    const activity = page.getByTestId('recent-activity');
    await visible(activity.locator('[data-action="sign_in"]'));
    await visible(activity.locator('[data-action="sign_in_failed"]'));
    // A user is not let into the admin screen.
    await page.goto('/admin/audit');
    await visible(page.getByText('Access Denied'));
    await context.close();
  });

  it('two-factor: enrol from Profile with the QR code and a code, then sign in with the password and a code', async () => {
    const u = await createUser({ prefix: 'totp' });
    const { page, context } = await newPage(browser, PHONE);
    await page.emulateMedia({ colorScheme: 'dark' });
    await signIn(page, u.email, u.password);
    await page.goto('/profile');
    const card = page.getByTestId('two-factor');
    await card.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    await visible(card.getByRole('img', { name: 'QR code for your authenticator app' }));
    const secret = (await textOf(card.getByTestId('totp-secret'))).trim();
    // A wrong code is answered in the user's words.
    await card.getByLabel('Code from the app').fill(codeFor(secret, 5));
    await card.getByRole('button', { name: 'Confirm' }).click();
    await visible(card.getByText('That code is not right.', { exact: false }));
    await card.getByLabel('Code from the app').fill(codeFor(secret));
    await card.getByRole('button', { name: 'Confirm' }).click();
    await visible(card.getByTestId('recovery-codes'));
    const recovery = await card.getByTestId('recovery-codes').locator('li').allTextContents();
    expect(recovery).toHaveLength(10);
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(scrollWidth).toBeLessThanOrEqual(390);
    await screenshot(page, 'two-factor-codes');
    await card.getByRole('button', { name: 'I have saved them' }).click();
    await visible(card.getByText('Recovery codes left: 10', { exact: false }));
    await context.close();

    for (const viewport of [undefined, PHONE]) {
      const second = await newPage(browser, viewport);
      await second.page.goto('/login');
      await second.page.getByLabel('Email').fill(u.email);
      await second.page.getByLabel('Password', { exact: true }).fill(u.password);
      await second.page.getByRole('button', { name: 'Sign in' }).click();
      const field = second.page.getByLabel('Authentication code');
      await visible(field);
      await screenshot(second.page, 'two-factor-sign-in');
      await field.fill('000000' === codeFor(secret, 8) ? '111111' : codeFor(secret, 8));
      await second.page.getByRole('button', { name: 'Verify' }).click();
      await visible(second.page.getByText('That code is not right.', { exact: false }));
      // Each code is accepted once: the desktop run uses the app's next code, the phone run a recovery code.
      await field.fill(viewport ? (recovery[0] ?? '') : codeFor(secret, 1));
      await second.page.getByRole('button', { name: 'Verify' }).click();
      await second.page.waitForURL(/\/(dashboard|settings)$/);
      await second.context.close();
    }
  });
});
