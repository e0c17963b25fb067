// Shared parts of the end-to-end files: Chromium, the API of the one shared server, sign-in, screenshots.
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import type { PublicUser } from '../../contract/entities';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../tools/chromium';

export const BASE = () => inject('baseUrl');
export const ADMIN = () => ({ email: inject('adminEmail'), password: inject('adminPassword') });

/** playwright-core has no assertion library: these wait for the page state (auto-retrying) or time out. */
export const visible = (l: Locator) => l.first().waitFor({ state: 'visible' });
export const gone = (l: Locator) => l.first().waitFor({ state: 'detached' });
export async function textOf(l: Locator): Promise<string> {
  await visible(l);
  return (await l.first().textContent()) ?? '';
}

/** TESTING.md: the flags that keep Chromium quiet and working as root on these machines. */

export function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

/** Fails when the page scrolls sideways: its content is wider than the window (the phone rule of every screen). */
export async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const wide = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  expect(wide[0], `the page is ${wide[0]} px wide in a ${wide[1]} px window`).toBeLessThanOrEqual(wide[1]!);
}

export const DESKTOP = { width: 1440, height: 900 };
export const PHONE = { width: 390, height: 844 };

/** Every signed-in screen an admin reaches from the menu, with what shows once it has loaded. */
export const ADMIN_SCREENS = [
  ['/dashboard', '[data-testid="live-prices"]'],
  ['/trades', 'text=Trade History'],
  ['/balances', '[data-testid="venue-deriv"]'],
  ['/settings', 'text=Save Keys'],
  ['/profile', 'text=Personal Details'],
  ['/admin/users', '[data-testid="users-table"]'],
] as const;

export async function newPage(browser: Browser, viewport = DESKTOP): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport, baseURL: BASE(), serviceWorkers: 'block' });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return { context, page };
}

const SHOTS = join(import.meta.dirname, '..', '..', 'test-results', 'screenshots');
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  const { width } = page.viewportSize() ?? DESKTOP;
  await page.screenshot({ path: join(SHOTS, `${name}-${width}.png`), fullPage: true });
}

export async function api<T = Record<string, unknown>>(
  method: string,
  path: string,
  opts: { token?: string; body?: unknown } = {},
): Promise<{ status: number; json: T }> {
  const res = await fetch(`${BASE()}/api${path}`, {
    method,
    headers: {
      ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
      ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  return { status: res.status, json: (await res.json()) as T };
}

export async function apiLogin(email: string, password: string): Promise<{ token: string; user: PublicUser }> {
  const r = await api<{ token: string; user: PublicUser }>('POST', '/auth/login', {
    body: { username: email, password },
  });
  if (r.status !== 200) throw new Error(`login failed for ${email}: ${JSON.stringify(r.json)}`);
  return r.json;
}

let counter = 0;
/** A fresh user made by the admin through the API; with `keys`, the venue credentials are saved too. */
export async function createUser(
  opts: { keys?: boolean; prefix?: string } = {},
): Promise<{ email: string; password: string; username: string; token: string; user: PublicUser }> {
  const admin = await apiLogin(ADMIN().email, ADMIN().password);
  const username = `${opts.prefix ?? 'trader'}${process.pid % 1000}${Date.now() % 100000}${counter++}`;
  const email = `${username}@e2e.test`;
  const password = 'Trader-password-1';
  const created = await api('POST', '/admin/users', {
    token: admin.token,
    body: { username, email, password, role: 'user' },
  });
  if (created.status >= 300) throw new Error(`create user failed: ${JSON.stringify(created.json)}`);
  const { token, user } = await apiLogin(email, password);
  if (opts.keys) {
    const saved = await api<{ user: PublicUser }>('PUT', `/users/${user._id}/api-keys`, {
      token,
      body: {
        binanceApiKey: 'e2eKey1234',
        binanceSecretKey: 'e2eSecret5678',
        derivToken: 'e2eToken9012',
        derivAppId: '1089',
      },
    });
    return { email, password, username, token, user: saved.json.user };
  }
  return { email, password, username, token, user };
}

export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/(dashboard|settings)$/);
}

export const toast = (page: Page, text: string | RegExp) => page.locator('.Toastify').getByText(text).first();

/**
 * Closed trades for a user: the engine allows one open trade per symbol, so each manual trade is opened and then
 * cancelled, and the next waits (polling the API) until the previous one on that symbol has closed.
 */
export async function makeClosedTrades(token: string, symbols: readonly ('BTC/USDT' | 'ETH/USDT')[]): Promise<void> {
  for (const [i, symbol] of symbols.entries()) {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const r = await api<{ trade?: { _id: string }; message?: string }>('POST', '/trades', {
        token,
        body: { symbol, totalAmount: 10 + i },
      });
      if (r.status < 300 && r.json.trade) {
        await api('PUT', `/trades/${r.json.trade._id}/status`, {
          token,
          body: { status: 'cancelled', actualProfit: 0 },
        });
        break;
      }
      if (r.status !== 409 || Date.now() > deadline)
        throw new Error(`manual trade refused: ${r.status} ${JSON.stringify(r.json)}`);
      await new Promise((res) => setTimeout(res, 100));
    }
  }
}

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** A colour-scheme switch starts colour transitions with the next style pass: two frames, then their end. */
export async function colourTransitionsEnded(page: Page): Promise<void> {
  await page.evaluate(async () => {
    for (let i = 0; i < 2; i++) await new Promise(requestAnimationFrame);
    await Promise.all(
      document
        .getAnimations()
        .filter((a) => a instanceof CSSTransition)
        .map((a) => a.finished.catch(() => undefined)),
    );
  });
}

/** axe-core's violations inside `selector`, in the current colour scheme, once colour transitions have finished. */
export async function axeViolations(page: Page, selector: string): Promise<string[]> {
  await colourTransitionsEnded(page);
  // Through the DevTools protocol: the app's CSP (script-src 'self') rightly refuses an injected <script>.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(readFileSync(AXE, 'utf8'));
  return page.evaluate(async (include) => {
    const { axe } = window as unknown as {
      axe: {
        run(
          c: string,
        ): Promise<{ violations: Array<{ id: string; nodes: Array<{ target: unknown; failureSummary?: string }> }> }>;
      };
    };
    const result = await axe.run(include);
    return result.violations.map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => [n.target, n.failureSummary]))}`);
  }, selector);
}
