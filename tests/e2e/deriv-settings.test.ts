// Settings → API Keys for Deriv's two APIs in real Chromium, on a server of its own in the live market against the
// fake Deriv (issue 19): a malformed app ID gets its field message; a personal access token with its app ID is
// saved; Test Connection finds the new API and lists the token's two accounts without picking one; the user picks the
// real one and Settings says "Deriv: new API, real account …"; a legacy token shows "Deriv: legacy API, …". Looked at
// (screenshots) and checked with axe at 390 and 1440 px, light and dark.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeDeriv, type FakeDeriv } from '../fakes/deriv/server';
import { colourTransitionsEnded, DESKTOP, launch, PHONE, screenshot, toast, visible } from './helpers';
import { startOwnServer, type OwnServer } from './own-server';

const ADMIN = { email: 'admin@deriv-e2e.test', password: 'Deriv-e2e-admin-1' };
const APP_ID = 'Qx7Lm2Np9Rs4Tv6Wy8Za1';
const PAT = 'pat_E2eTrader000Kq3Vb8Hn5Jm2Kq3Vb8Hn5Jm2';
const LEGACY = 'a1-E2eLegacyToken';
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let fake: FakeDeriv;
let own: OwnServer;
let base: string;
let browser: Browser;

async function axeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run: (ctx: Document, o: object) => Promise<{ violations: { id: string; help: string }[] }> };
      }
    ).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => `${v.id}: ${v.help}`);
  });
}

async function signedInPage(viewport = DESKTOP) {
  const context = await browser.newContext({ viewport, baseURL: base, serviceWorkers: 'block' });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  await page.goto('/login');
  await page.getByLabel('Email').fill(ADMIN.email);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/(dashboard|settings)$/);
  if (!page.url().endsWith('/settings')) await page.goto('/settings');
  await visible(page.getByTestId('deriv-status'));
  return { context, page };
}

beforeAll(async () => {
  fake = await startFakeDeriv({
    accounts: [{ token: LEGACY, loginid: 'VRTC5001', balance: '10000' }],
    pats: [
      {
        token: PAT,
        appId: APP_ID,
        accounts: [
          { accountId: 'DOT5003', balance: '10000' },
          { accountId: 'ROT5004', type: 'real', balance: '1250.75' },
        ],
      },
    ],
  });
  own = await startOwnServer('deriv', {
    MARKET: 'live',
    BINANCE_REST_URL: 'http://127.0.0.1:9',
    BINANCE_WS_URL: 'ws://127.0.0.1:9',
    DERIV_WS_URL: fake.url,
    DERIV_PUBLIC_WS_URL: fake.publicUrl,
    DERIV_API_URL: fake.apiUrl,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
  });
  base = own.url;
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
  await own?.stop();
  await fake?.close();
});

describe('Settings → Deriv in Chromium, against the fake Deriv', () => {
  it('saves a personal access token, lists its accounts on Test Connection, and trades the one the user picks', async () => {
    const { context, page } = await signedInPage();
    await expect(page.getByTestId('deriv-status').textContent()).resolves.toBe(
      'Deriv: not checked yet. Save the token, then press Test Connection.',
    );
    await page.getByLabel('Deriv Token').fill(PAT);
    await page.getByLabel('Deriv App ID').fill('my-app');
    await page.getByRole('button', { name: 'Save Token' }).click();
    await visible(page.getByText('The Deriv app ID has only letters and digits'));
    await screenshot(page, 'deriv-field-message');
    await page.getByLabel('Deriv App ID').fill(APP_ID);
    await page.getByRole('button', { name: 'Save Token' }).click();
    await visible(toast(page, 'API keys updated successfully'));

    const deriv = page.getByRole('form', { name: 'Deriv keys' });
    await deriv.getByRole('button', { name: 'Test Connection' }).click();
    await visible(toast(page, 'Deriv: new API, 2 accounts: choose the one to trade below'));
    const radios = deriv.getByRole('radio');
    expect(await radios.count()).toBe(2);
    expect([await radios.nth(0).isChecked(), await radios.nth(1).isChecked()]).toEqual([false, false]);
    await screenshot(page, 'deriv-accounts');
    await deriv.getByRole('radio', { name: /ROT5004/ }).check();
    await deriv.getByRole('button', { name: 'Trade This Account' }).click();
    await visible(toast(page, 'Deriv account ROT5004 will be traded'));
    await page.waitForFunction(
      () =>
        document.querySelector('[data-testid="deriv-status"]')?.textContent ===
        'Deriv: new API, real account ROT5004, 1,250.75 USD',
    );
    // a reload shows what the server keeps
    await page.reload();
    await visible(page.getByText('Deriv: new API, real account ROT5004, 1,250.75 USD'));
    await context.close();
  });

  it('reads well and passes axe at 390 and 1440 px, light and dark', async () => {
    const found: string[] = [];
    for (const viewport of [PHONE, DESKTOP]) {
      // One page per width, looked at in both schemes switched in place.
      const { context, page } = await signedInPage(viewport);
      await visible(page.getByRole('radio', { name: /DOT5003/ }));
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await colourTransitionsEnded(page);
        // nothing wider than the screen
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${viewport.width} ${scheme}`).toBeLessThanOrEqual(0);
        await screenshot(page, `deriv-settings-${scheme}`);
        for (const v of await axeViolations(page)) found.push(`${viewport.width} ${scheme}: ${v}`);
      }
      await context.close();
    }
    expect(found).toEqual([]);
  });

  it('shows a legacy token as the legacy API with its own account', async () => {
    const { context, page } = await signedInPage(PHONE);
    await page.getByLabel('Deriv Token').fill(LEGACY);
    await page.getByLabel('Deriv App ID').fill('');
    await page.getByRole('button', { name: 'Save Token' }).click();
    await visible(toast(page, 'API keys updated successfully'));
    // On a phone the saved toast comes up across the bottom of the screen: the page scrolls the form's buttons above
    // it, so Test Connection takes a real tap (Playwright's click fails on a covered button).
    await page.getByRole('form', { name: 'Deriv keys' }).getByRole('button', { name: 'Test Connection' }).click();
    await visible(toast(page, /^Deriv: legacy API, demo account VRTC5001, 10,000\.00 USD/));
    await visible(page.getByText('Deriv: legacy API, demo account VRTC5001, 10,000.00 USD', { exact: true }));
    expect(await page.getByRole('radio').count()).toBe(0);
    await screenshot(page, 'deriv-legacy');
    await context.close();
  });
});
