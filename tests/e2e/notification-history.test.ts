// The notifications history end to end, in real Chromium against the shared server: what the server sends a user
// (here a closed trade's notification and the user's Stop & flatten) shows live on the top bar's bell and in the list
// reached from the user menu, in the words sent; Mark all as read; and the list reads offline from the device's copy.
// Screenshots at 390 and 1440 px, light and dark.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, networkSwitch, signIn, waitForServiceWorker } from '../../tools/pwa-browser';
import {
  api,
  axeViolations,
  BASE,
  createUser,
  DESKTOP,
  expectNoSidewaysScroll,
  makeClosedTrades,
  PHONE,
  screenshot,
  textOf,
  visible,
} from './helpers';

let browser: Browser;
let context: BrowserContext;
let page: Page;
let network: Awaited<ReturnType<typeof networkSwitch>>;
let trader: Awaited<ReturnType<typeof createUser>>;

const bellLabel = () => page.getByTestId('notification-bell').getAttribute('aria-label');
const items = () => page.getByTestId('notification-list').getByRole('listitem');

beforeAll(async () => {
  trader = await createUser({ keys: true, prefix: 'notes' });
  browser = await launchBrowser();
  context = await browser.newContext({ serviceWorkers: 'allow', viewport: DESKTOP, baseURL: BASE() });
  network = await networkSwitch(context);
  page = await context.newPage();
  page.setDefaultTimeout(15_000);
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
});

describe('notifications history', () => {
  it('shows what the server sends as it is sent: the bell counts it, the list says it', async () => {
    await signIn(page, BASE(), trader.email, trader.password);
    await page.goto('/dashboard');
    await waitForServiceWorker(page);
    await visible(page.getByTestId('notification-bell'));
    expect(await bellLabel()).toBe('Notifications');

    // A manual trade closed: its notification ("Closed by you: BTC/USDT −0.0500 USDT") reaches the open app.
    await makeClosedTrades(trader.token, ['BTC/USDT']);
    await expect.poll(bellLabel, { timeout: 30_000 }).toBe('Notifications: 1 unread');
    const flatten = await api('POST', '/exchanges/trading/stop-and-flatten', { token: trader.token });
    expect(flatten.status).toBeLessThan(300);
    await expect.poll(bellLabel, { timeout: 30_000 }).toBe('Notifications: 2 unread');

    await page.getByRole('button', { name: `User menu for ${trader.username}` }).click();
    await page.getByRole('menuitem', { name: 'Notifications' }).click();
    await page.waitForURL(/\/notifications$/);
    await expect.poll(() => items().count()).toBe(2);
    const newest = await textOf(items().first());
    expect(newest).toContain('Stop & flatten done');
    expect(newest).toContain('Automated trading is off (by you).');
    // Closed by the user, or by the engine if the spread converged first.
    expect(await textOf(items().nth(1))).toMatch(/Closed[^:]*: BTC\/USDT [+−]?\d+\.\d{2,4} USDT/);
    expect(await textOf(page.getByTestId('unread-count'))).toBe('2 unread');

    for (const viewport of [PHONE, DESKTOP]) {
      await page.setViewportSize(viewport);
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme });
        await screenshot(page, `notifications-${colorScheme}`);
        // The list, and the top bar with its bell (the toast container is react-toastify's own).
        expect(await axeViolations(page, 'main')).toEqual([]);
        expect(await axeViolations(page, 'header')).toEqual([]);
      }
      // Nothing scrolls sideways on a phone.
      await expectNoSidewaysScroll(page);
    }
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('marks all read on the server: a reload still says so', async () => {
    await page.getByRole('button', { name: 'Mark all as read' }).click();
    await expect.poll(() => textOf(page.getByTestId('unread-count'))).toBe('All read');
    expect(await bellLabel()).toBe('Notifications');
    const listed = await api<{ unread: number }>('GET', '/notifications', { token: trader.token });
    expect(listed.json.unread).toBe(0);
    await page.reload();
    await expect.poll(() => textOf(page.getByTestId('unread-count'))).toBe('All read');
  });

  it('reads offline from the copy on this device', async () => {
    await network.set(false);
    try {
      await page.reload();
      await visible(page.getByTestId('offline-banner'));
      await expect.poll(() => items().count()).toBe(2);
      expect(await textOf(items().first())).toContain('Stop & flatten done');
      await visible(page.getByText("Shown from this device's copy"));
    } finally {
      await network.set(true);
    }
  });
});
