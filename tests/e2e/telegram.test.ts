// Profile → Connect Telegram in real Chromium, on a server of its own whose bot talks to the fake Bot API in this
// process: the card shows a one-time code and its t.me link, the chat sends `/start <code>`, the card shows the linked
// chat, and Unlink removes it. Looked at (screenshots) and checked with axe at 390 and 1440 px, light and dark, with
// no sideways scrolling on the phone.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeTelegram, type FakeTelegram } from '../fakes/telegram/server';
import { colourTransitionsEnded, DESKTOP, launch, PHONE, screenshot, textOf, toast, visible } from './helpers';
import { startOwnServer, type OwnServer } from './own-server';

const ADMIN = { email: 'admin@telegram-e2e.test', password: 'Telegram-e2e-admin-1' };
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let tg: FakeTelegram;
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

async function profilePage(viewport = DESKTOP) {
  const context = await browser.newContext({
    viewport,
    baseURL: base,
    serviceWorkers: 'block',
    timezoneId: 'Asia/Tokyo',
    locale: 'de-DE',
  });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  await page.goto('/login');
  await page.getByLabel('Email').fill(ADMIN.email);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/(dashboard|settings)$/);
  await page.goto('/profile');
  await visible(page.getByTestId('telegram'));
  return { context, page };
}

/** Screenshots and axe in both schemes at this width; no sideways scrolling. */

async function lookAt(name: string, viewport: typeof DESKTOP) {
  const { context, page } = await profilePage(viewport);
  await page.getByTestId('telegram').scrollIntoViewIfNeeded();
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await colourTransitionsEnded(page);
    await screenshot(page, `${name}-${scheme}`);
    expect(await axeViolations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
  }
  await context.close();
}

beforeAll(async () => {
  tg = await startFakeTelegram({ username: 'arb_e2e_bot' });
  own = await startOwnServer('telegram', {
    MARKET: 'sim',
    SIM_SEED: '42',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    TELEGRAM_BOT_TOKEN: tg.token,
    TELEGRAM_API_URL: tg.apiUrl,
  });
  base = own.url;
  // The bot is ready (and polling) once it asked Telegram for updates.
  await tg.waitForCall('getUpdates');
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
  await own?.stop();
  await tg?.close();
});

describe('Profile → Connect Telegram in Chromium, against the fake Bot API', () => {
  it('shows a code and its t.me link, links the chat that sends it, and unlinks it', async () => {
    await lookAt('telegram-unlinked', PHONE);
    const { context, page } = await profilePage();
    const card = page.getByTestId('telegram');
    expect(await textOf(card.getByText('not linked'))).toBe('not linked');
    await card.getByRole('button', { name: 'Connect Telegram' }).click();
    const command = await textOf(card.getByTestId('telegram-code'));
    const code = /^\/start ([a-z0-9]{10})$/.exec(command)?.[1] as string;
    expect(code).toBeDefined();
    expect(await card.getByRole('link', { name: 'Open Telegram' }).getAttribute('href')).toBe(
      `https://t.me/arb_e2e_bot?start=${code}`,
    );
    await screenshot(page, 'telegram-code');

    const chat = { id: 777_001, firstName: 'Ada', username: 'ada_trades' };
    tg.userSends(chat, `/start ${code}`);
    await tg.waitForMessage(chat.id, (m) => m.text.startsWith('This chat is now linked'));
    await card.getByRole('button', { name: 'I have sent it' }).click();
    expect(await textOf(card.getByTestId('telegram-chat'))).toBe('@ada_trades');
    await context.close();

    await lookAt('telegram-linked', PHONE);
    await lookAt('telegram-linked', DESKTOP);

    // The linked chat is answered.
    tg.userSends(chat, '/status');
    const status = await tg.waitForMessage(chat.id, (m) => m.text.startsWith('Automated trading:'));
    expect(status.text).toContain('Today: ');

    const again = await profilePage(PHONE);
    await again.page.getByTestId('telegram').getByRole('button', { name: 'Unlink Telegram' }).click();
    await visible(toast(again.page, 'Telegram chat unlinked'));
    await visible(again.page.getByTestId('telegram').getByRole('button', { name: 'Connect Telegram' }));
    await tg.waitForMessage(chat.id, (m) => m.text.startsWith('This chat was unlinked'));
    await again.context.close();
  });
});
