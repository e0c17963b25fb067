// Trade toasts in real Chromium against the shared server: one toast per trade, updated in place from Open to its
// result with the P&L, and never over the top bar, the navigation menu (the sidebar, or the phone's menu when open) or
// the open user menu, at 390 and 1440 px. Boxes are measured from the rendered page.
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createUser, DESKTOP, launch, newPage, PHONE, signIn } from './helpers';

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
const intersects = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** Answers that say "not now": the pair's previous trade is still closing (409), or the engine was busy (503). */
const NOT_NOW = new Set([409, 503]);

/** Opens a manual trade (the engine takes one open trade per pair: retried until the pair is free). */
async function openTrade(token: string, symbol: 'BTC/USDT' | 'ETH/USDT'): Promise<string> {
  for (let tries = 0; ; tries++) {
    const r = await api<{ trade?: { _id: string } }>('POST', '/trades', { token, body: { symbol, totalAmount: 25 } });
    if (r.status < 300 && r.json.trade) return r.json.trade._id;
    if (!NOT_NOW.has(r.status) || tries > 200)
      throw new Error(`manual trade refused: ${r.status} ${JSON.stringify(r.json)}`);
    await new Promise((res) => setTimeout(res, 100));
  }
}

/**
 * Closes it as the user's Close does; a busy server may answer 409 or 503 for a moment (ask again), and the engine may
 * have closed it first (then there is nothing to close).
 */
async function closeTrade(token: string, id: string): Promise<void> {
  for (let tries = 0; ; tries++) {
    const r = await api('PUT', `/trades/${id}/status`, { token, body: { status: 'cancelled', actualProfit: 0 } });
    if (!NOT_NOW.has(r.status)) return;
    if (tries > 300) throw new Error(`the trade could not be closed: ${r.status} ${JSON.stringify(r.json)}`);
    await new Promise((res) => setTimeout(res, 200));
  }
}

/** The boxes a toast must stay clear of, of what is on screen now. */
async function chrome(page: Page): Promise<Array<{ name: string; box: Box }>> {
  const parts: Array<[string, string]> = [
    ['top bar', 'header'],
    ['sidebar', 'aside[aria-label="Sidebar"]'],
    ['phone menu', '#mobile-menu'],
    ['user menu', '[role="menu"][aria-label="User menu"]'],
  ];
  const found: Array<{ name: string; box: Box }> = [];
  for (const [name, selector] of parts) {
    const el = page.locator(selector).first();
    if ((await el.count()) === 0 || !(await el.isVisible())) continue;
    const box = await el.boundingBox();
    if (box && box.width > 0 && box.height > 0) found.push({ name, box });
  }
  return found;
}

/** The trade's toast, once its entrance animation has finished (its box is where it stays). */
async function settledToast(page: Page, text: RegExp) {
  const t = page.locator('.Toastify__toast').filter({ hasText: text });
  await t.first().waitFor({ state: 'visible', timeout: 30_000 });
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => !(a as CSSAnimation).animationName?.startsWith('Toastify__bounceIn')),
  );
  return t;
}

async function expectClear(page: Page, toast: Locator, menu: string): Promise<void> {
  const box = await toast.first().boundingBox();
  // It may have just left (a result's 5 s): then there is nothing on screen to cover anything.
  if (!box) return;
  const parts = await chrome(page);
  // What was opened is on screen, so the check below covers it.
  expect(parts.map((p) => p.name)).toContain(menu);
  for (const part of parts)
    expect(intersects(box, part.box), `toast ${JSON.stringify(box)} over the ${part.name}`).toBe(false);
}

/**
 * Records, in the page, every change of the toasts that name the pair: their texts, and how many there were at once.
 * The market decides when a trade ends (the engine may close it before the test's own close, and its 5 s result may be
 * gone before the test looks), so the test reads the toast's whole life from this record.
 */
async function recordToasts(page: Page, pair: string): Promise<void> {
  await page.evaluate((name) => {
    const w = window as unknown as { toastRecord: Array<{ texts: string[] }> };
    w.toastRecord = [];
    const note = () => {
      const texts = Array.from(document.querySelectorAll('.Toastify__toast'))
        .map((t) => t.textContent ?? '')
        .filter((t) => t.includes(name));
      const last = w.toastRecord.at(-1);
      if (JSON.stringify(last?.texts) !== JSON.stringify(texts)) w.toastRecord.push({ texts });
    };
    new MutationObserver(note).observe(document.body, { subtree: true, childList: true, characterData: true });
  }, pair);
}

const toastRecord = (page: Page) =>
  page.evaluate(() => (window as unknown as { toastRecord: Array<{ texts: string[] }> }).toastRecord);

const OPEN = 'Trade BTC/USDT: Open';
const RESULT = /^Trade BTC\/USDT: Closed[^·]* · -?\$\d+\.\d{2}$/;

// The two widths at once, each with a trader of its own: most of each run is waiting for the engine and for the toast
// to leave by its own timer.
describe.concurrent.each([
  ['phone', PHONE, ['phone menu', 'user menu']],
  ['desktop', DESKTOP, ['user menu', 'sidebar']],
] as const)('trade toasts on a %s', (_name, viewport, menus) => {
  it('one toast per trade, from Open to its result with the P&L, clear of the top bar and every menu', async () => {
    const trader = await createUser({ keys: true, prefix: 'toasts' });
    const { context, page } = await newPage(browser, viewport);
    try {
      await signIn(page, trader.email, trader.password);
      await page.goto('/dashboard');
      await page.getByTestId('live-prices').waitFor();

      for (const menu of menus) {
        if (menu === 'phone menu') await page.getByRole('button', { name: 'Menu', exact: true }).click();
        if (menu === 'user menu') await page.getByRole('button', { name: `User menu for ${trader.username}` }).click();

        await recordToasts(page, 'BTC/USDT');
        const id = await openTrade(trader.token, 'BTC/USDT');
        const toast = await settledToast(page, /Trade BTC\/USDT/);
        await expectClear(page, toast, menu);
        await closeTrade(trader.token, id);
        // The same toast says how the trade ended (by you, or the engine's own close if it came first), ending with
        // its realised P&L, and stays clear of everything while it says so.
        await page.waitForFunction(
          (pattern) =>
            (window as unknown as { toastRecord: Array<{ texts: string[] }> }).toastRecord.some((r) =>
              r.texts.some((t) => new RegExp(pattern).test(t)),
            ),
          RESULT.source,
          { timeout: 30_000 },
        );
        await expectClear(page, toast, menu);
        await toast.first().waitFor({ state: 'detached', timeout: 15_000 });

        // Its whole life: never two toasts for the trade, Open first, then its result, and never Open again (a
        // closed trade's toast said "Open" while it animated out).
        const record = await toastRecord(page);
        expect(Math.max(...record.map((r) => r.texts.length))).toBe(1);
        const said = record.flatMap((r) => r.texts).filter((t, i, all) => t !== all[i - 1]);
        expect(said[0]).toBe(OPEN);
        expect(said.slice(1).length).toBeGreaterThan(0);
        for (const t of said.slice(1)) expect(t).toMatch(RESULT);

        // Close the menu before the next round.
        if (menu === 'user menu') await page.keyboard.press('Escape');
        if (menu === 'phone menu') await page.getByRole('button', { name: 'Menu', exact: true }).click();
      }
    } finally {
      await context.close();
    }
    // Two trades opened and closed on a shared, busy server: the engine may ask to wait a while.
  }, 180_000);
});
