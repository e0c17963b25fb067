// The guard features in real Chromium against the real server: the audit screen and a user's recent activity,
// at phone and desktop widths.
import { Secret, TOTP } from 'otpauth';
import type { Browser } from 'playwright-core';
import type { TradeStatus } from '../../contract/domain';
import { tradeLifeOf } from '../../contract/trade-life';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  api,
  apiLogin,
  createUser,
  gone,
  launch,
  newPage,
  PHONE,
  screenshot,
  signIn,
  textOf,
  toast,
  visible,
} from './helpers';

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

  // Racy on a loaded machine (the demo market may close the trade while the screen shows it): skipped in CI until
  // the trade can be held open deterministically.
  it.skipIf(process.env.CI)(
    'kill switches: a user stops and flattens in two taps; the admin halt shows a banner to everyone until resumed',
    async () => {
      const u = await createUser({ prefix: 'flat' });
      const { page, context } = await newPage(browser, PHONE);
      await page.emulateMedia({ colorScheme: 'dark' });
      await signIn(page, u.email, u.password);
      await page.goto('/dashboard');
      // An open trade to flatten: it holds both legs, so it ends "Closed — flattened" with its realised P&L (issue 20).
      const opened = await api<{ trade?: { _id: string } }>('POST', '/trades', {
        token: u.token,
        body: { symbol: 'BTC/USDT', totalAmount: 20 },
      });
      expect(opened.status, JSON.stringify(opened.json)).toBe(201);
      // Shown as open, unless the simulated spread converged first and the engine already closed it.
      let settled = false;
      const openShown = visible(page.getByTestId('open-positions').getByText('BTC/USDT')).then(
        () => 'shown' as const,
        () => 'not shown' as const,
      );
      const closed = (async () => {
        while (!settled) {
          const read = await api<{ trade: { status: TradeStatus } }>('GET', `/trades/${opened.json.trade?._id}`, {
            token: u.token,
          });
          if (read.json.trade.status !== 'pending') return 'closed' as const;
          await new Promise((r) => setTimeout(r, 250));
        }
        return 'closed' as const;
      })();
      expect(await Promise.race([openShown, closed])).not.toBe('not shown');
      settled = true;
      // Tap 1: the button; tap 2: Confirm.
      await page.getByTestId('kill-switch').getByRole('button', { name: 'Stop & flatten' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
      // Closed within the wait, or still closing when it ended (the engine finishes it either way).
      await visible(page.getByRole('dialog').getByText(/Closed — flattened|Closing|stopped/));
      await page.getByRole('dialog').getByRole('button', { name: 'Done' }).click();
      const flattened = await api<{ trade: { status: TradeStatus; actualProfit: number; reason: string } }>(
        'GET',
        `/trades/${opened.json.trade?._id}`,
        { token: u.token },
      );
      // Stop & flatten closes it unless the engine closed it first (the simulated spread may converge within a
      // second): either way it held both legs, so it reads "Closed — …" with how, never "Cancelled".
      expect(flattened.json.trade.status).toBe('completed');
      const label = tradeLifeOf({ ...flattened.json.trade, status: 'completed', legs: [] }).label;
      expect(label).toMatch(/^Closed — (flattened|converged|time limit|stop)$/);
      const recent = page.getByTestId('recent-trades');
      await visible(recent.getByText(label));
      expect(await recent.getByText(/cancelled/i).count()).toBe(0);
      // The realised result beside it, a loss in red (▼) when the fees outweighed the move, as they usually do.
      const shown = await textOf(recent.getByTestId('trade-profit'));
      expect(shown.startsWith(flattened.json.trade.actualProfit < 0 ? '▼' : '▲')).toBe(true);
      await screenshot(page, 'kill-switch');

      // The admin halts through the API: the banner arrives over the socket, without a reload.
      const admin = await apiLogin(ADMIN().email, ADMIN().password);
      const refused = await api('POST', '/admin/trading/halt', { token: u.token, body: {} });
      expect(refused.status).toBe(403);
      const halted = await api('POST', '/admin/trading/halt', { token: admin.token, body: { reason: 'e2e drill' } });
      expect(halted.status).toBe(200);
      try {
        await visible(page.getByTestId('halt-banner'));
        expect(await textOf(page.getByTestId('halt-banner'))).toContain('e2e drill');
        // Nothing says running under the banner: the risk strip and the greeting name the halt (issue 20, finding 1).
        await visible(page.getByTestId('risk-engine').getByText('Halted by an admin'));
        expect(await textOf(page.getByTestId('dashboard-greeting'))).toContain('Trading is halted by an admin');
        const manual = await api<{ message: string }>('POST', '/trades', {
          token: u.token,
          body: { symbol: 'BTC/USDT', totalAmount: 20 },
        });
        expect(manual.status).toBe(409);
        // After a reload it comes from GET /meta.
        await page.reload();
        await visible(page.getByTestId('halt-banner'));
        const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
        expect(scrollWidth).toBeLessThanOrEqual(390);
        await screenshot(page, 'halt-banner');
        const wide = await newPage(browser);
        await signIn(wide.page, u.email, u.password);
        await wide.page.goto('/dashboard');
        await visible(wide.page.getByTestId('risk-engine').getByText('Halted by an admin'));
        expect(await textOf(wide.page.getByTestId('dashboard-greeting'))).not.toMatch(/running|enabled/i);
        await visible(wide.page.getByTestId('recent-trades').getByText(label));
        await screenshot(wide.page, 'halt-desktop');
        await wide.context.close();

        // Only an admin resumes, from User Management.
        const adminPage = await newPage(browser);
        await signIn(adminPage.page, ADMIN().email, ADMIN().password);
        await adminPage.page.goto('/admin/users');
        await visible(
          adminPage.page.getByTestId('global-halt').getByText('Trading is halted for every user', { exact: false }),
        );
        await screenshot(adminPage.page, 'global-halt');
        await adminPage.page.getByTestId('global-halt').getByRole('button', { name: 'Resume trading' }).click();
        await adminPage.page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
        await visible(toast(adminPage.page, 'Trading resumed for every user.'));
        await adminPage.context.close();
        await gone(page.getByTestId('halt-banner'));
      } finally {
        await api('POST', '/admin/trading/resume', { token: admin.token });
      }
      await context.close();
    },
  );

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
