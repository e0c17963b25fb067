// Issue 24 at a glance in real Chromium, at 390 and 1440 px, light and dark: the Dashboard's venue connections (the
// simulated market says it has none, and offline the last report is shown as last known), and the Profile's time
// zone, saved on the server and used for the dates on screen.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublicUser } from '../../contract/entities';
import {
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

async function bothSchemes(page: Page, name: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await colourTransitionsEnded(page);
    await screenshot(page, `${name}-${scheme}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

describe.each([
  ['phone', PHONE],
  ['desktop', DESKTOP],
] as const)('venue health and time zone at %s width', (_label, viewport) => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows each venue of the simulated market as simulated, and as last known once offline', async () => {
    const u = await createUser();
    const { page, context } = await newPage(browser, viewport);
    await signIn(page, u.email, u.password);
    await page.goto('/dashboard');
    const card = page.getByTestId('venue-health');
    await visible(card.getByTestId('venue-health-deriv'));
    for (const venue of ['binance', 'deriv']) {
      const row = card.getByTestId(`venue-health-${venue}`);
      expect(await row.getAttribute('data-state')).toBe('simulated');
      await visible(row.getByText('Simulated — no connection'));
      expect(await row.getByTestId('venue-latency').textContent()).toMatch(/none, the simulated market/);
    }
    await card.scrollIntoViewIfNeeded();
    await bothSchemes(page, 'dashboard-venues');
    await expectNoSidewaysScroll(page);

    await context.setOffline(true);
    await visible(card.getByText('Unknown — offline'));
    expect(await card.getByTestId('venue-health-deriv').getAttribute('data-state')).toBe('unknown');
    expect(await card.getByTestId('venue-health-deriv').getByTestId('venue-state-line').textContent()).toMatch(
      /^Last known .*: simulated — no connection$/,
    );
    await context.setOffline(false);
    // Back online the live link returns, and with it the server's word.
    await visible(card.locator('[data-testid="venue-health-deriv"][data-state="simulated"]'));
    await context.close();
  });

  it('saves the time zone chosen in Profile on the server and shows the dates in it', async () => {
    const u = await createUser();
    const { page, context } = await newPage(browser, viewport);
    await signIn(page, u.email, u.password);
    await page.goto('/profile');
    const select = page.getByTestId('time-zone-select');
    await visible(select);
    expect(await select.inputValue()).toBe('');
    await select.selectOption('Pacific/Kiritimati');
    await visible(page.getByTestId('time-zone-now').getByText('(Pacific / Kiritimati)'));
    const saved = await api<{ user: PublicUser }>('GET', '/auth/profile', { token: u.token });
    expect(saved.json.user.timeZone).toBe('Pacific/Kiritimati');
    // The account's creation date in that zone (UTC+14), as the Profile header shows it.
    const created = new Date(u.user.createdAt);
    const inZone = new Intl.DateTimeFormat('en-US', {
      timeZone: 'Pacific/Kiritimati',
      month: 'short',
      day: 'numeric',
      year: 'numeric',
    }).format(created);
    await visible(page.getByText(`Member since ${inZone}`));
    // Another page load (another device would do the same) reads it from the account.
    await page.reload();
    await visible(page.getByTestId('time-zone-select'));
    expect(await page.getByTestId('time-zone-select').inputValue()).toBe('Pacific/Kiritimati');
    await page.getByTestId('time-zone-card').scrollIntoViewIfNeeded();
    await bothSchemes(page, 'profile-time-zone');
    await expectNoSidewaysScroll(page);
    await context.close();
  });
});
