// Profile → Connect Telegram in real Chromium, on a server of its own whose bot talks to the fake Bot API in this
// process: the card shows a one-time code and its t.me link, the chat sends `/start <code>`, the card shows the linked
// chat, and Unlink removes it. Looked at (screenshots) and checked with axe at 390 and 1440 px, light and dark, with
// no sideways scrolling on the phone.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { startFakeTelegram, type FakeTelegram } from '../fakes/telegram/server';
import { DESKTOP, launch, PHONE, screenshot, textOf, toast, visible } from './helpers';

const ROOT = join(import.meta.dirname, '..', '..');
const ADMIN = { email: 'admin@telegram-e2e.test', password: 'Telegram-e2e-admin-1' };
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let tg: FakeTelegram;
let server: ChildProcess;
let base: string;
let dataDir: string;
let browser: Browser;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

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

async function profilePage(viewport = DESKTOP, colorScheme: 'light' | 'dark' = 'light') {
  const context = await browser.newContext({
    viewport,
    baseURL: base,
    serviceWorkers: 'block',
    colorScheme,
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
  for (const scheme of ['light', 'dark'] as const) {
    const { context, page } = await profilePage(viewport, scheme);
    await page.getByTestId('telegram').scrollIntoViewIfNeeded();
    await screenshot(page, `${name}-${scheme}`);
    expect(await axeViolations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    await context.close();
  }
}

beforeAll(async () => {
  tg = await startFakeTelegram({ username: 'arb_e2e_bot' });
  dataDir = mkdtempSync(join(tmpdir(), 'e2e-telegram-'));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = spawn(process.execPath, [join(ROOT, 'node_modules/tsx/dist/cli.mjs'), join(ROOT, 'server/main.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: String(port),
      MARKET: 'sim',
      SIM_SEED: '42',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'warn',
      CLIENT_DIR: inject('clientDir'),
      SKIP_CLIENT_BUILD: '1',
      DATABASE_URL: '',
      REDIS_URL: '',
      TELEGRAM_BOT_TOKEN: tg.token,
      TELEGRAM_API_URL: tg.apiUrl,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const onData = (b: Buffer) => {
      out += b.toString();
      if (out.includes(`:${port}`) && /listening/i.test(out)) resolve();
    };
    server.stdout?.on('data', onData);
    server.stderr?.on('data', onData);
    server.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${out}`)));
  });
  // The bot is ready (and polling) once it asked Telegram for updates.
  await tg.waitForCall('getUpdates');
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
  if (server && server.exitCode === null) {
    const exited = new Promise((r) => server.once('exit', r));
    server.kill('SIGTERM');
    await exited;
  }
  await tg?.close();
  rmSync(dataDir, { recursive: true, force: true });
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
