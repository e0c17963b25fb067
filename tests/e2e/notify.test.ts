// Web push and the CSV export end to end, in real Chromium against the real server: a push delivered to the real
// service worker through the DevTools protocol (ServiceWorker.deliverPushMessage) shows its notification; Settings
// saves notification choices; Trades exports a CSV online (streamed by the server) and offline (from IndexedDB).
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { TRADES_CSV_COLUMNS } from '../../contract/csv';
import type { PushMessage } from '../../contract/notifications';
import { launchBrowser, networkSwitch, signIn, waitForServiceWorker } from '../../tools/pwa-browser';
import { api, cacheContents, textOf, waitVisible } from './offline-support';
import { e2eServer } from './offline-server';
import { axeViolations, expectNoSidewaysScroll, screenshot } from './helpers';

const server = e2eServer();
let browser: Browser;
let context: BrowserContext;
let page: Page;
let cdp: CDPSession;
let network: Awaited<ReturnType<typeof networkSwitch>>;
let token: string;
const stamp = `${process.pid % 1000}${Date.now() % 100000}`;
const user = { username: `notify${stamp}`, email: `notify${stamp}@example.com`, password: 'notify-pass-1' };

beforeAll(async () => {
  const admin = await api<{ token: string }>(server.url, 'POST', '/auth/login', {
    username: server.adminEmail,
    password: server.adminPassword,
  });
  await api(server.url, 'POST', '/admin/users', { ...user, role: 'user' }, admin.token);
  token = (
    await api<{ token: string }>(server.url, 'POST', '/auth/login', { username: user.email, password: user.password })
  ).token;
  // Two trades to export (one open trade per pair at a time, hence one each).
  for (const [symbol, totalAmount] of [
    ['BTC/USDT', 100],
    ['ETH/USDT', 120],
  ] as const) {
    // The engine answers 409 while it refreshes the user's realised P&L after the previous trade: ask again shortly.
    for (let attempt = 0; ; attempt++) {
      try {
        await api(server.url, 'POST', '/trades', { symbol, totalAmount }, token);
        break;
      } catch (error) {
        if (attempt >= 150 || !String(error).includes('409')) throw error;
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  }
  browser = await launchBrowser();
  context = await browser.newContext({
    serviceWorkers: 'allow',
    viewport: { width: 1280, height: 800 },
    acceptDownloads: true,
  });
  await context.grantPermissions(['notifications'], { origin: server.url });
  network = await networkSwitch(context);
  page = await context.newPage();
  await signIn(page, server.url, user.email, user.password);
  await waitForServiceWorker(page);
  cdp = await context.newCDPSession(page);
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
});

/** The id the DevTools protocol knows the app's service worker registration by. */
async function registrationId(): Promise<string> {
  const found = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const ours = registrations.find((r) => !r.isDeleted && r.scopeURL === `${server.url}/`);
      if (ours) resolve(ours.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  return found;
}

const shownNotifications = () =>
  page.evaluate(async () =>
    (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({
      title: n.title,
      body: n.body,
      tag: n.tag,
      data: n.data as unknown,
    })),
  );

describe('web push in the browser', () => {
  it('shows the notification a push carries, replacing the one with the same tag', async () => {
    const id = await registrationId();
    const message = (over: Partial<PushMessage>): PushMessage => ({
      kind: 'tradeCompleted',
      title: 'Trade completed: BTC/USDT +1.25 USDT',
      body: 'T-1 · 100 USDT automated trade · closed: converged',
      url: '/trades',
      tag: 'trade-1',
      at: new Date().toISOString(),
      ...over,
    });
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: server.url,
      registrationId: id,
      data: JSON.stringify(message({})),
    });
    await expect.poll(shownNotifications, { timeout: 15_000 }).toEqual([
      {
        title: 'Trade completed: BTC/USDT +1.25 USDT',
        body: 'T-1 · 100 USDT automated trade · closed: converged',
        tag: 'trade-1',
        data: { url: '/trades', kind: 'tradeCompleted' },
      },
    ]);
    const halt = message({
      kind: 'maxLoss',
      title: 'Trading halted: max loss reached',
      body: 'Max loss reached.',
      url: '/settings',
      tag: 'trading-state',
    });
    const shown = async () => (await shownNotifications()).map((n) => `${n.tag}: ${n.body}`).sort();
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: server.url,
      registrationId: id,
      data: JSON.stringify(halt),
    });
    await expect
      .poll(shown, { timeout: 15_000 })
      .toEqual(['trade-1: T-1 · 100 USDT automated trade · closed: converged', 'trading-state: Max loss reached.']);
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: server.url,
      registrationId: id,
      data: JSON.stringify({ ...halt, body: 'Max loss reached again.' }),
    });
    await expect
      .poll(shown, { timeout: 15_000 })
      .toEqual([
        'trade-1: T-1 · 100 USDT automated trade · closed: converged',
        'trading-state: Max loss reached again.',
      ]);
  });

  it('a click on a notification takes the open app to the screen it is about', async () => {
    await page.goto(`${server.url}/dashboard`);
    const worker = context.serviceWorkers()[0];
    if (!worker) throw new Error('no service worker');
    // The click a user would make, dispatched in the worker on the halt notification shown above.
    await worker.evaluate(async () => {
      const scope = self as unknown as { registration: ServiceWorkerRegistration; dispatchEvent(e: Event): boolean };
      const [halt] = await scope.registration.getNotifications({ tag: 'trading-state' });
      if (!halt) throw new Error('the halt notification is not shown');
      const Click = (
        globalThis as unknown as {
          NotificationEvent: new (type: string, init: { notification: Notification }) => Event;
        }
      ).NotificationEvent;
      scope.dispatchEvent(new Click('notificationclick', { notification: halt }));
    });
    await page.waitForURL(`${server.url}/settings`, { timeout: 15_000 });
    // The click also closes the notification it was on.
    await expect.poll(async () => (await shownNotifications()).map((n) => n.tag)).toEqual(['trade-1']);
  });

  it('Settings → Notifications saves each choice for the account and answers the test button', async () => {
    await page.goto(`${server.url}/settings`);
    await page.getByRole('tab', { name: 'Notifications' }).click();
    await waitVisible(page.getByTestId('push-device-state'));
    await expect
      .poll(() => textOf(page.getByTestId('push-device-state')))
      .toMatch(/^Notifications are (off|on) for this device\./);
    await page.getByLabel('Trade completed').uncheck();
    await waitVisible(page.locator('.Toastify').getByText('Notification preferences saved'));
    const saved = await api<{ preferences: Record<string, boolean> }>(
      server.url,
      'GET',
      '/notifications/preferences',
      undefined,
      token,
    );
    expect(saved.preferences).toMatchObject({ tradeCompleted: false, tradeFailed: true });
    // No device of this user reached the server (a push service is out of reach here): the button says what to do.
    await page.getByRole('button', { name: 'Send a test notification' }).click();
    await waitVisible(
      page
        .locator('.Toastify')
        .getByText('No device of yours receives notifications yet. Turn notifications on for this device first.'),
    );
    // Settled: the buttons are enabled again once the screen has re-read the device and the preferences.
    await expect.poll(() => page.getByRole('button', { name: 'Send a test notification' }).isEnabled()).toBe(true);
    for (const width of [390, 1440]) {
      for (const scheme of ['light', 'dark'] as const) {
        await page.setViewportSize({ width, height: 900 });
        await page.emulateMedia({ colorScheme: scheme });
        await expectNoSidewaysScroll(page);
        expect(await axeViolations(page, '[role="tabpanel"]')).toEqual([]);
        await screenshot(page, `settings-notifications-${scheme}`);
      }
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.emulateMedia({ colorScheme: 'light' });
  });
});

async function download(label: string): Promise<{ name: string; text: string }> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: label }).click()]);
  const path = await file.path();
  return { name: file.suggestedFilename(), text: readFileSync(path, 'utf8') };
}

describe('CSV export', () => {
  it('online, downloads the server’s streamed file for the filters and days chosen', async () => {
    await page.goto(`${server.url}/trades`);
    const all = await download('Export CSV');
    expect(all.name).toBe('trades-start-to-now.csv');
    const lines = all.text.trimEnd().split('\r\n');
    expect(lines[0]).toBe(TRADES_CSV_COLUMNS.join(','));
    expect(lines).toHaveLength(3);
    expect(lines.slice(1).every((l) => /,\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z,/.test(l))).toBe(true);
    await page.getByLabel('Pair', { exact: true }).selectOption('ETH/USDT');
    const eth = await download('Export CSV');
    expect(
      eth.text
        .trimEnd()
        .split('\r\n')
        .slice(1)
        .map((l) => l.split(',')[4]),
    ).toEqual(['ETH/USDT']);
    // A range that ends before it starts is refused before any request.
    await page.getByLabel('From (day)').fill('2026-03-02');
    await page.getByLabel('To (day)').fill('2026-03-01');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    await waitVisible(page.getByText('The start date must be on or before the end date'));
    for (const width of [390, 1440]) {
      for (const scheme of ['light', 'dark'] as const) {
        await page.setViewportSize({ width, height: 900 });
        await page.emulateMedia({ colorScheme: scheme });
        await expectNoSidewaysScroll(page);
        expect(await axeViolations(page, 'form[aria-label="Export trades as CSV"]')).toEqual([]);
        await screenshot(page, `trades-export-${scheme}`);
      }
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('offline, builds the same file from the trades kept on this device and says how far back they reach', async () => {
    await page.goto(`${server.url}/trades`);
    await expect.poll(() => cacheContents(page), { timeout: 30_000 }).toMatchObject({ trades: 2 });
    const online = await download('Export CSV');
    await network.set(false);
    try {
      await page.reload();
      await waitVisible(page.getByTestId('export-coverage'));
      expect(await textOf(page.getByTestId('export-coverage'))).toMatch(
        /^Offline, the file holds only the trades saved on this device\. Offline copy: all 2 of your trades, back to /,
      );
      await screenshot(page, 'trades-export-offline');
      const offline = await download('Export CSV (this device)');
      expect(offline.name).toBe('trades-start-to-now.csv');
      // Same columns and rows; only what changed since the download may differ (an open trade closing meanwhile).
      expect(offline.text.split('\r\n')[0]).toBe(online.text.split('\r\n')[0]);
      expect(
        offline.text
          .trimEnd()
          .split('\r\n')
          .map((l) => l.split(',')[0])
          .sort(),
      ).toEqual(
        online.text
          .trimEnd()
          .split('\r\n')
          .map((l) => l.split(',')[0])
          .sort(),
      );
    } finally {
      await network.set(true);
    }
  });
});
