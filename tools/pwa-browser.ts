// The installed PWA in Debian's Chromium through playwright-core, shared by the offline and install suites and the
// offline benchmark: service-worker network events on, so that "offline" covers the worker's own fetches too
// (TESTING.md), a persistent profile where installability is asked, and signing in through the real form.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium';

async function playwright() {
  // Must be set before playwright-core is first loaded (playwright issue 2311).
  process.env.PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS = '1';
  return (await import('playwright-core')).chromium;
}

export async function launchBrowser(): Promise<Browser> {
  const chromium = await playwright();
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

/** A persistent profile (installability can only be asked there; incognito always answers 'in-incognito'). */
export async function launchPersistent(
  viewport = { width: 1280, height: 800 },
): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const chromium = await playwright();
  const dir = mkdtempSync(join(tmpdir(), 'pwa-profile-'));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    serviceWorkers: 'allow',
    viewport,
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Network switch for a context: setOffline for the pages, plus aborting every request the service worker makes
 * itself while offline — a real device without network gives the worker nothing either.
 */
export async function networkSwitch(context: BrowserContext) {
  let offline = false;
  await context.route('**/*', (route) =>
    offline && route.request().serviceWorker() ? route.abort('internetdisconnected') : route.continue(),
  );
  return {
    async set(online: boolean) {
      offline = !online;
      await context.setOffline(!online);
    },
  };
}

/** Waits until a service worker controls the page (first visit: after install and clients.claim()). */
export async function waitForServiceWorker(page: Page): Promise<void> {
  try {
    await page.waitForFunction(() => navigator.serviceWorker?.controller != null, null, { timeout: 30_000 });
  } catch (err) {
    // Say how far the worker got: no registration, stuck installing (a precache download failed), waiting...
    const state = await page
      .evaluate(async () => {
        const r = await navigator.serviceWorker.getRegistration();
        return r
          ? `installing=${r.installing?.state ?? '-'} waiting=${r.waiting?.state ?? '-'} active=${r.active?.state ?? '-'}`
          : 'no registration';
      })
      .catch(() => 'unknown');
    throw new Error(`no service worker controls ${page.url()} (${state})`, { cause: err });
  }
}

export async function signIn(page: Page, base: string, email: string, password: string): Promise<void> {
  await page.goto(`${base}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'), { timeout: 30_000 });
}
