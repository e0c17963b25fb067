// Installability and the update flow, in a persistent Chromium profile (installability is never granted incognito).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { launchPersistent, signIn, waitForServiceWorker } from '../../tools/pwa-browser';
import { api, textOf, waitVisible } from './offline-support';
import { e2eServer } from './offline-server';

const server = e2eServer();
let browser: Awaited<ReturnType<typeof launchPersistent>>;
let context: BrowserContext;
let page: Page;
let cdp: CDPSession;
const user = {
  username: `install${Date.now()}`,
  email: `install${Date.now()}@example.com`,
  password: 'install-pass-1',
};

beforeAll(async () => {
  const admin = await api<{ token: string }>(server.url, 'POST', '/auth/login', {
    username: server.adminEmail,
    password: server.adminPassword,
  });
  await api(server.url, 'POST', '/admin/users', { ...user, role: 'user' }, admin.token);
  browser = await launchPersistent();
  context = browser.context;
  page = context.pages()[0] ?? (await context.newPage());
  await page.goto(`${server.url}/login`);
  await waitForServiceWorker(page);
  cdp = await context.newCDPSession(page);
});

afterAll(async () => {
  await browser?.close();
});

interface Manifest {
  id?: string;
  name: string;
  short_name: string;
  description: string;
  start_url: string;
  scope: string;
  display: string;
  theme_color: string;
  background_color: string;
  icons: Array<{ src: string; sizes: string; purpose?: string }>;
  screenshots: Array<{ src: string; sizes: string; form_factor?: string }>;
  shortcuts: Array<{ name: string; url: string }>;
}

describe('installable', () => {
  it('meets the install criteria: no installability errors, a manifest without errors', async () => {
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    expect(installabilityErrors).toEqual([]);
    const manifest = await cdp.send('Page.getAppManifest');
    expect(manifest.errors).toEqual([]);
    expect(manifest.url).toMatch(/manifest.*\.webmanifest$/);
  });

  it('the manifest says what the app is and how it opens', async () => {
    const { url } = await cdp.send('Page.getAppManifest');
    const m = (await (await fetch(url)).json()) as Manifest;
    expect(m).toMatchObject({
      name: expect.stringContaining('ArbiTrade'),
      short_name: 'ArbiTrade',
      start_url: '/dashboard',
      scope: '/',
      display: 'standalone',
    });
    expect(m.theme_color).toMatch(/^#[0-9a-f]{6}$/i);
    expect(m.icons.map((i) => `${i.sizes}:${i.purpose ?? 'any'}`)).toEqual(
      expect.arrayContaining(['192x192:any', '512x512:any', '512x512:maskable']),
    );
    expect(m.screenshots.map((s) => s.form_factor)).toEqual(expect.arrayContaining(['narrow', 'wide']));
    expect(m.shortcuts.map((s) => s.url)).toEqual(['/dashboard', '/trades']);
    // Every image the manifest names is served, with the size it claims.
    for (const image of [...m.icons, ...m.screenshots]) {
      const res = await fetch(new URL(image.src, server.url));
      expect(res.status, image.src).toBe(200);
      if (image.sizes !== 'any') {
        const png = Buffer.from(await res.arrayBuffer());
        expect(`${png.readUInt32BE(16)}x${png.readUInt32BE(20)}`, image.src).toBe(image.sizes);
      }
    }
  });

  it('the theme colour follows the colour scheme in the page', async () => {
    const metas = await page.evaluate(() =>
      [...document.querySelectorAll('meta[name="theme-color"]')].map((m) => m.getAttribute('media')),
    );
    expect(metas).toEqual(expect.arrayContaining(['(prefers-color-scheme: light)', '(prefers-color-scheme: dark)']));
  });
});

describe('update flow', () => {
  /**
   * A new version of the worker: the page registers the same worker under a new script URL, which the browser treats
   * exactly like a changed sw.js (install, then wait) — without touching the build the shared server serves.
   */
  const deployNewWorker = () =>
    page.evaluate(async () => {
      await navigator.serviceWorker.register(`/sw.js?release=${Date.now()}`, { scope: '/' });
    });

  it('a new version shows the update toast, and waits while a form is being edited', async () => {
    await signIn(page, server.url, user.email, user.password);
    await page.goto(`${server.url}/profile`);
    await waitForServiceWorker(page);
    await page.getByRole('button', { name: 'Edit' }).click();
    const bio = page.getByLabel('Bio');
    await bio.fill('Typed before the update');
    const marker = await page.evaluate(
      () => ((window as unknown as { __beforeUpdate: number }).__beforeUpdate = Date.now()),
    );

    await deployNewWorker();
    const toast = page.getByText('A new version is available');
    await waitVisible(toast);
    // Nothing reloaded on its own: the same document, the typed text still there.
    expect(await page.evaluate(() => (window as unknown as { __beforeUpdate?: number }).__beforeUpdate)).toBe(marker);
    expect(await bio.inputValue()).toBe('Typed before the update');
  });

  it('Reload activates the new version and reloads the page', async () => {
    const oldScript = await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? '');
    await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Reload' }).click()]);
    await waitForServiceWorker(page);
    const newScript = await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? '');
    expect(newScript).not.toBe(oldScript);
    expect(newScript).toMatch(/\/sw\.js\?release=\d+$/);
    expect(
      await page.evaluate(() => (window as unknown as { __beforeUpdate?: number }).__beforeUpdate),
    ).toBeUndefined();
    expect(await textOf(page.locator('body'))).not.toContain('A new version is available');
  });
});
