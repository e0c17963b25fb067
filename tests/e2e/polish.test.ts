// Phone first and polish (issue 11): trade and user cards at 390 px with the profit in sight, one toast per trade
// through its lifecycle, and axe-core with no violations on every screen in both themes at both widths.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  ADMIN_SCREENS,
  api,
  apiLogin,
  colourTransitionsEnded,
  createUser,
  DESKTOP,
  expectNoSidewaysScroll,
  launch,
  makeClosedTrades,
  newPage,
  PHONE,
  screenshot,
  signIn,
  toast,
  visible,
} from './helpers';

/** Evaluated through the DevTools protocol: the app's CSP (script-src 'self') rightly refuses an injected script tag. */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

async function axeViolations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: AxeViolation[] }> } }
    ).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 5).map((n) => ({ target: n.target, failureSummary: n.failureSummary })),
    }));
  });
}

/** Opens a trade on the first symbol that takes one (one open trade per user and symbol). */
async function openTrade(token: string): Promise<{ _id: string; symbol: string }> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    for (const symbol of ['BTC/USDT', 'ETH/USDT']) {
      const r = await api<{ trade?: { _id: string; symbol: string } }>('POST', '/trades', {
        token,
        body: { symbol, totalAmount: 20 },
      });
      if (r.status < 300 && r.json.trade) return r.json.trade;
    }
    if (Date.now() > deadline) throw new Error('no symbol took a manual trade');
    await new Promise((res) => setTimeout(res, 200));
  }
}

describe('phone first and polish', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('trades and admin users are cards at 390 px with the profit in sight, and a table at 1440 px', async () => {
    const u = await createUser({ keys: true, prefix: 'cards' });
    await makeClosedTrades(u.token, ['BTC/USDT', 'ETH/USDT']);
    for (const scheme of ['light', 'dark'] as const) {
      const { page, context } = await newPage(browser, PHONE);
      await page.emulateMedia({ colorScheme: scheme });
      await signIn(page, u.email, u.password);
      await page.goto('/trades');
      const row = page.getByTestId('trade-row').first();
      await visible(row);
      expect(await row.evaluate((el) => getComputedStyle(el).display)).toBe('grid');
      // Every card shows its profit (or '—' while open), its amount, spread, fees and date inside the screen.
      for (const card of await page.getByTestId('trade-row').all()) {
        for (const cell of [
          card.getByTestId('trade-profit'),
          card.locator('td').nth(2),
          card.locator('td').nth(3),
          card.getByTestId('trade-fees'),
          card.locator('td').nth(6),
        ]) {
          const box = await cell.boundingBox();
          expect(box, await card.innerText()).not.toBeNull();
          expect(box!.x).toBeGreaterThanOrEqual(0);
          expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
        }
      }
      await expectNoSidewaysScroll(page);
      await screenshot(page, `polish-trade-cards-${scheme}`);
      await context.close();
    }

    const desktop = await newPage(browser, DESKTOP);
    await signIn(desktop.page, u.email, u.password);
    await desktop.page.goto('/trades');
    await visible(desktop.page.getByTestId('trade-row'));
    expect(
      await desktop.page
        .getByTestId('trade-row')
        .first()
        .evaluate((el) => getComputedStyle(el).display),
    ).toBe('table-row');
    await screenshot(desktop.page, 'polish-trade-table-light');
    await desktop.page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(desktop.page, 'polish-trade-table-dark');
    await desktop.context.close();

    const admin = await newPage(browser, PHONE);
    await signIn(admin.page, ADMIN().email, ADMIN().password);
    await admin.page.goto('/admin/users');
    const userRow = admin.page.locator(`[data-testid="user-row"][data-username="${u.username}"]`);
    await visible(userRow);
    expect(await userRow.evaluate((el) => getComputedStyle(el).display)).toBe('grid');
    for (const name of [`Deactivate ${u.username}`, `Delete ${u.username}`]) {
      const box = await userRow.getByRole('button', { name }).boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
    }
    await expectNoSidewaysScroll(admin.page);
    await screenshot(admin.page, 'polish-user-cards');
    await admin.context.close();
  });

  it('one toast per trade: opened, then updated in place when it closes', async () => {
    const u = await createUser({ keys: true, prefix: 'toast' });
    const { page, context } = await newPage(browser, PHONE);
    await signIn(page, u.email, u.password);
    await page.goto('/dashboard');
    await visible(page.getByTestId('live-prices'));
    // The realtime connection is up once prices tick.
    const first = await page.getByTestId('price-BTC/USDT').getByTestId('price-binance').textContent();
    await page.waitForFunction(
      (before) =>
        document.querySelector('[data-testid="price-BTC/USDT"] [data-testid="price-binance"]')?.textContent !== before,
      first,
    );

    const trade = await openTrade(u.token);
    await visible(toast(page, `Trade ${trade.symbol}: Open`));
    // Cancel it; the engine may have closed it first (completed), which ends the lifecycle just as well.
    // A busy server may answer 409 for a moment ('realised profit and loss is being updated'): ask again.
    for (
      const deadline = Date.now() + 20_000;
      Date.now() < deadline;
      await new Promise((res) => setTimeout(res, 200))
    ) {
      const r = await api('PUT', `/trades/${trade._id}/status`, {
        token: u.token,
        body: { status: 'cancelled', actualProfit: 0 },
      });
      if (r.status !== 409) break;
    }
    const ended = new RegExp(`^Trade ${trade.symbol.replace('/', '\\/')}: (Closed|Failed|Cancelled)`);
    await visible(toast(page, ended));
    expect(await page.locator('.Toastify__toast').filter({ hasText: trade.symbol }).count()).toBe(1);
    // On a phone the toast starts below the top bar: menu button, title and user menu stay uncovered.
    const toastBox = await page.locator('.Toastify__toast').first().boundingBox();
    const barBox = await page.locator('header').first().boundingBox();
    expect(toastBox!.y).toBeGreaterThanOrEqual(barBox!.y + barBox!.height);
    await screenshot(page, 'polish-trade-toast');
    await context.close();
  });

  it('a deactivated user with the app open is told so and sent to /login without doing anything', async () => {
    const u = await createUser({ keys: true, prefix: 'gone' });
    const { page, context } = await newPage(browser, PHONE);
    await signIn(page, u.email, u.password);
    await visible(page.getByTestId('live-prices'));
    // The realtime link is up (the top bar says Live).
    await visible(page.locator('header').getByText('Live', { exact: true }));
    const admin = await apiLogin(ADMIN().email, ADMIN().password);
    const off = await api<{ user: { isActive: boolean } }>('PUT', `/admin/users/${u.user._id}/toggle-active`, {
      token: admin.token,
      body: {},
    });
    expect(off.json.user.isActive).toBe(false);
    // The server drops the live link; the app asks once and learns why.
    await visible(toast(page, 'Your account has been deactivated. Contact an admin.'));
    await page.waitForURL(/\/login/);
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await screenshot(page, 'polish-deactivated');
    await context.close();
  });

  it('axe-core finds no violations on any screen, light and dark, at 390 and 1440 px', async () => {
    const u = await createUser({ keys: true, prefix: 'axe' });
    await makeClosedTrades(u.token, ['BTC/USDT']);
    const admin = await apiLogin(ADMIN().email, ADMIN().password);
    expect(admin.user.role).toBe('admin');
    const found: string[] = [];
    for (const viewport of [PHONE, DESKTOP]) {
      // One page per width: each screen is opened once and checked in both schemes, switched in place.
      const { page, context } = await newPage(browser, viewport);
      const check = async (name: string) => {
        for (const scheme of ['light', 'dark'] as const) {
          await page.emulateMedia({ colorScheme: scheme });
          await colourTransitionsEnded(page);
          for (const v of await axeViolations(page))
            found.push(
              `${name} ${viewport.width} ${scheme}: ${v.id} (${v.impact}) ${v.help} → ${JSON.stringify(v.nodes)}`,
            );
        }
      };
      await page.goto('/login');
      await visible(page.getByRole('button', { name: 'Sign in' }));
      await check('/login');
      await signIn(page, ADMIN().email, ADMIN().password);
      for (const [path, ready] of ADMIN_SCREENS) {
        await page.goto(path);
        await page.locator(ready).first().waitFor();
        await check(path);
      }
      await page.goto('/settings');
      await page.getByRole('tab', { name: 'Trading' }).click();
      await visible(page.getByLabel('Min Spread (%)'));
      await check('/settings trading');
      await page
        .getByRole('button', { name: 'User menu' })
        .or(page.getByRole('button', { name: /account menu/i }))
        .first()
        .click();
      await check('user menu open');
      await context.close();
    }
    expect(found, found.join('\n')).toEqual([]);
  }, 240_000);
});
