// The kill switches in real Chromium, on a server of its own in the live market against the fake venues (issue 20),
// at 390 and 1440 px. The fakes quote a market that holds still: Deriv a steady 1 % above Binance, no price moves and
// no dislocations. So a trade opened on it stays open until someone closes it (the spread never comes back inside the
// close band, never widens to the stop, and the hold limit is an hour), and the test decides every step instead of
// racing the market's own closes. At unchanged prices a round trip pays both venues' spreads and fees: the trade that
// Stop & flatten closes loses money, and must read "Closed — flattened" with its loss, never "Cancelled". Then an
// admin's global halt: every screen says halted, nothing says running.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Trade } from '../../contract/entities';
import { CLOSED_LABELS, CLOSE_REASONS, OPEN_LABEL, CANCELLED_LABEL } from '../../contract/trade-life';
import { ENGINE_STATUS_LABELS, engineStatusOf } from '../../contract/trading-state';
import { simParams } from '../../server/venues/sim/params';
import { formatUsd } from '../../src/lib/format';
import { startFakeVenues, type FakeVenues } from '../fakes/venues';
import { DESKTOP, expectNoSidewaysScroll, gone, launch, PHONE, screenshot, textOf, toast, visible } from './helpers';
import { startOwnServer, type OwnServer } from './own-server';

const ADMIN = { email: 'admin@kill-switch-e2e.test', password: 'Kill-switch-e2e-admin-1' };
const TRADER = { username: 'flattener', email: 'flattener@kill-switch-e2e.test', password: 'Trader-password-1' };
const BINANCE_KEY = 'K'.repeat(60) + 'FLAT';
const BINANCE_SECRET = 's'.repeat(64);
const DERIV_TOKEN = 'a1-FlattenTrader';
const FLATTENED = CLOSED_LABELS.flattened;

/** A market that holds still: flat prices, Deriv 1 % above Binance, no noise, no dislocations. */
const STILL_MARKET = simParams({
  symbols: { 'BTC/USDT': { annualVolatility: 0 }, 'ETH/USDT': { annualVolatility: 0 } },
  venues: { binance: { noise: 0 }, deriv: { noise: 0 } },
  basis: { mean: 0.01, sd: 0 },
  dislocation: { perMinute: 0 },
});

let fakes: FakeVenues;
let own: OwnServer;
let base: string;
let browser: Browser;
let trader: { id: string; token: string };

async function call<T = Record<string, unknown>>(
  method: string,
  path: string,
  opts: { token?: string; body?: unknown } = {},
): Promise<{ status: number; json: T }> {
  const res = await fetch(`${base}/api${path}`, {
    method,
    headers: {
      ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
      ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  return { status: res.status, json: (await res.json()) as T };
}

async function login(email: string, password: string): Promise<{ token: string; id: string }> {
  const r = await call<{ token: string; user: { _id: string } }>('POST', '/auth/login', {
    body: { username: email, password },
  });
  if (r.status !== 200) throw new Error(`login failed for ${email}: ${JSON.stringify(r.json)}`);
  return { token: r.json.token, id: r.json.user._id };
}

async function signedIn(viewport: typeof PHONE, who: { email: string; password: string }, scheme: 'light' | 'dark') {
  const context = await browser.newContext({ viewport, baseURL: base, serviceWorkers: 'block', colorScheme: scheme });
  const page = await context.newPage();
  // Generous: two cores shared by many processes can take a while to paint the Dashboard; nothing here races.
  page.setDefaultTimeout(45_000);
  await page.goto('/login');
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password', { exact: true }).fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/(dashboard|settings)$/);
  return { context, page };
}

/**
 * A manual trade through the API. The engine refuses one while a quote it needs is not yet fresh, or when it could
 * not send the order before Deriv's next tick (a loaded machine): asked again until it is placed.
 */

async function openManualTrade(token: string): Promise<Trade> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const r = await call<{ trade?: Trade; message?: string }>('POST', '/trades', {
      token,
      body: { symbol: 'BTC/USDT', totalAmount: 200 },
    });
    if (r.status === 201 && r.json.trade) return r.json.trade;
    if (![409, 503].includes(r.status) || Date.now() > deadline)
      throw new Error(`manual trade refused: ${r.status} ${JSON.stringify(r.json)}`);
    await new Promise((res) => setTimeout(res, 250));
  }
}

beforeAll(async () => {
  fakes = await startFakeVenues({
    simSeed: 20,
    simParams: STILL_MARKET,
    binanceAccounts: [{ apiKey: BINANCE_KEY, secret: BINANCE_SECRET, balances: { USDT: '10000', BTC: '0', ETH: '0' } }],
    derivAccounts: [{ token: DERIV_TOKEN, loginid: 'VRTC7020', balance: '10000' }],
  });
  own = await startOwnServer('kill-switch', {
    ...fakes.env,
    // No time limit within the test: only a person closes the trade.
    TRADE_MAX_HOLD_MS: String(3_600_000),
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
  });
  base = own.url;
  const admin = await login(ADMIN.email, ADMIN.password);
  const created = await call('POST', '/admin/users', {
    token: admin.token,
    body: { username: TRADER.username, email: TRADER.email, password: TRADER.password, role: 'user' },
  });
  expect(created.status, JSON.stringify(created.json)).toBeLessThan(300);
  trader = await login(TRADER.email, TRADER.password);
  const keys = await call('PUT', `/users/${trader.id}/api-keys`, {
    token: trader.token,
    body: {
      binanceApiKey: BINANCE_KEY,
      binanceSecretKey: BINANCE_SECRET,
      derivToken: DERIV_TOKEN,
      derivAppId: '1089',
    },
  });
  expect(keys.status, JSON.stringify(keys.json)).toBe(200);
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
  await own?.stop();
  await fakes?.close();
});

describe('kill switches against a market that holds still', () => {
  it('an open trade reads Open; Stop & flatten closes it: "Closed — flattened" with its loss on Dashboard, Trades and its detail, and the risk strip follows at once', async () => {
    const phone = await signedIn(PHONE, TRADER, 'dark');
    const desktop = await signedIn(DESKTOP, TRADER, 'light');
    await phone.page.goto('/dashboard');
    const opened = await openManualTrade(trader.token);

    // Open, with Close, on every screen that shows it, at both widths.
    for (const { page } of [phone, desktop]) {
      await page.goto('/dashboard');
      const position = page.getByTestId('open-position').filter({ hasText: 'BTC/USDT' });
      await visible(position.getByRole('button', { name: `Close trade ${opened.tradeId}` }));
      await visible(page.getByTestId('risk-exposure').getByText(`${formatUsd(200)} of`, { exact: false }));
      await page.goto('/trades');
      const row = page.getByTestId('trade-row').filter({ hasText: 'BTC/USDT' });
      expect(await textOf(row.getByTestId('trade-life'))).toBe(OPEN_LABEL);
      expect(await textOf(row.getByTestId('trade-profit'))).toBe('—');
      await page.goto(`/trades/${opened._id}`);
      expect(await textOf(page.getByTestId('trade-detail').getByTestId('trade-life'))).toBe(OPEN_LABEL);
      await visible(page.getByTestId('detail-close'));
      await expectNoSidewaysScroll(page);
      await screenshot(page, 'flatten-open-detail');
    }
    await phone.page.goto('/dashboard');
    await visible(phone.page.getByTestId('open-position'));
    await screenshot(phone.page, 'flatten-open-dashboard');

    // Two taps: the button, then Confirm.
    await phone.page.getByTestId('kill-switch').getByRole('button', { name: 'Stop & flatten' }).click();
    await phone.page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    // The answer lists the trade closed, or still closing when both legs took longer than the flatten waits (a
    // loaded machine); the engine finishes it either way, and the screens below are read once it has.
    const results = phone.page.getByRole('dialog').getByTestId('flatten-results');
    const answered = await textOf(results);
    expect(answered).toMatch(new RegExp(`${FLATTENED}|Closing`));
    await screenshot(phone.page, 'flatten-result');
    await phone.page.getByRole('dialog').getByRole('button', { name: 'Done' }).click();
    // Closed: the Dashboard hears it over the socket.
    await visible(phone.page.getByTestId('recent-trades').getByTestId('trade-life').getByText(FLATTENED));
    const closed = (await call<{ trade: Trade }>('GET', `/trades/${opened._id}`, { token: trader.token })).json.trade;
    expect(closed.status).toBe('completed');
    expect(closed.reason).toBe(CLOSE_REASONS.flattened);
    // Unchanged prices: the round trip paid both venues' spreads and the fees.
    expect(closed.actualProfit).toBeLessThan(0);
    const loss = formatUsd(closed.actualProfit);
    if (answered.includes(FLATTENED)) expect(answered).toContain(loss);

    // The risk strip follows the flatten at once, without waiting for another event or a reload.
    const off = engineStatusOf({ stop: 'flattened', globalHalt: false });
    const engine = phone.page.getByTestId('risk-engine');
    await visible(engine.getByText(off.sentence));
    expect(await textOf(engine.locator('[data-state]'))).toBe(ENGINE_STATUS_LABELS.off);
    await visible(phone.page.getByTestId('risk-exposure').getByText(`${formatUsd(0)} of`, { exact: false }));

    for (const { page } of [phone, desktop]) {
      await page.goto('/dashboard');
      const recent = page.getByTestId('recent-trades');
      const item = recent.getByTestId('recent-trade').filter({ hasText: 'BTC/USDT' });
      // Waited for: a screen may paint from this device's cache first, then from the server.
      await visible(item.getByTestId('trade-life').getByText(FLATTENED, { exact: true }));
      expect(await textOf(item.getByTestId('trade-profit'))).toBe(`▼ ${loss}`);
      expect(await recent.getByText(CANCELLED_LABEL).count()).toBe(0);
      await gone(page.getByTestId('open-position'));
      await expectNoSidewaysScroll(page);
      await screenshot(page, 'flatten-dashboard');

      await page.goto('/trades');
      const row = page.getByTestId('trade-row').filter({ hasText: 'BTC/USDT' });
      await visible(row.getByTestId('trade-life').getByText(FLATTENED, { exact: true }));
      expect(await textOf(row.getByTestId('trade-profit'))).toBe(`▼ ${loss}`);
      expect(await page.getByTestId('trades-table').getByText(CANCELLED_LABEL).count()).toBe(0);
      await expectNoSidewaysScroll(page);
      await screenshot(page, 'flatten-trades');

      await page.goto(`/trades/${opened._id}`);
      const detail = page.getByTestId('trade-detail');
      await visible(detail.getByTestId('trade-life').getByText(FLATTENED, { exact: true }));
      expect(await textOf(detail.getByTestId('detail-profit'))).toBe(`▼ ${loss}`);
      expect(await textOf(detail.getByTestId('detail-reason'))).toBe(CLOSE_REASONS.flattened);
      expect(await detail.getByTestId('detail-close').count()).toBe(0);
      await expectNoSidewaysScroll(page);
      await screenshot(page, 'flatten-detail');
    }
    await phone.context.close();
    await desktop.context.close();
  }, 240_000);

  it("an admin's global halt: halted on every screen, never running, until an admin resumes", async () => {
    // A trader watching the Dashboard gets the banner over the socket, without a reload.
    const watching = await signedIn(PHONE, TRADER, 'light');
    await watching.page.goto('/dashboard');
    await visible(watching.page.getByTestId('risk-engine').locator('[data-state="off"]'));
    const notAdmin = await call('POST', '/admin/trading/halt', { token: trader.token, body: {} });
    expect(notAdmin.status).toBe(403);
    const admin = await signedIn(DESKTOP, ADMIN, 'light');
    await admin.page.goto('/admin/users');
    const card = admin.page.getByTestId('global-halt');
    await card.getByLabel('Reason (optional)').fill('e2e drill');
    await card.getByRole('button', { name: 'Halt all trading' }).click();
    await admin.page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    const adminToken = (await login(ADMIN.email, ADMIN.password)).token;
    try {
      await visible(card.getByText('Trading is halted for every user', { exact: false }));
      await visible(card.getByRole('button', { name: 'Resume trading' }));
      await screenshot(admin.page, 'global-halt-admin');
      expect(await textOf(watching.page.getByTestId('halt-banner'))).toContain('e2e drill');
      await visible(watching.page.getByTestId('risk-engine').locator('[data-state="halted-admin"]'));
      // Nothing opens while halted, manual trades included.
      const refused = await call('POST', '/trades', {
        token: trader.token,
        body: { symbol: 'BTC/USDT', totalAmount: 200 },
      });
      expect(refused.status).toBe(409);

      const halted = engineStatusOf({ stop: 'flattened', globalHalt: true });
      for (const [viewport, scheme] of [
        [PHONE, 'dark'],
        [DESKTOP, 'light'],
      ] as const) {
        const { context, page } = await signedIn(viewport, TRADER, scheme);
        await page.goto('/dashboard');
        expect(await textOf(page.getByTestId('halt-banner'))).toContain('e2e drill');
        const engine = page.getByTestId('risk-engine');
        await visible(engine.locator('[data-state="halted-admin"]'));
        expect(await textOf(engine.locator('[data-state]'))).toBe(ENGINE_STATUS_LABELS['halted-admin']);
        await visible(engine.getByText(halted.sentence));
        await visible(page.getByTestId('dashboard-greeting').getByText(halted.sentence, { exact: false }));
        expect(await textOf(page.getByTestId('risk-strip'))).not.toMatch(/running/i);
        expect(await textOf(page.getByTestId('dashboard-greeting'))).not.toMatch(/running|enabled/i);
        await expectNoSidewaysScroll(page);
        await screenshot(page, 'global-halt-dashboard');
        await context.close();
      }

      // Only an admin resumes, from User Management; the trader's banner goes without a reload.
      await card.getByRole('button', { name: 'Resume trading' }).click();
      await admin.page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
      await visible(toast(admin.page, 'Trading resumed for every user.'));
      await gone(watching.page.getByTestId('halt-banner'));
      await visible(watching.page.getByTestId('risk-engine').locator('[data-state="off"]'));
      await watching.context.close();
    } finally {
      await call('POST', '/admin/trading/resume', { token: adminToken });
      await admin.context.close();
    }
  }, 240_000);
});
