// Browser helpers of the offline and install suites: Debian's Chromium through playwright-core, with the
// service-worker network events on so that "offline" covers the worker's own fetches too (TESTING.md).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../support/chromium';


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
export async function launchPersistent(viewport = { width: 1280, height: 800 }): Promise<{ context: BrowserContext; close(): Promise<void> }> {
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
        return r ? `installing=${r.installing?.state ?? '-'} waiting=${r.waiting?.state ?? '-'} active=${r.active?.state ?? '-'}` : 'no registration';
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

/** Names of the app's IndexedDB databases and whether a session is in localStorage. */
export function storedTraces(page: Page): Promise<{ databases: string[]; token: string | null; user: string | null }> {
  return page.evaluate(async () => ({
    databases: (await indexedDB.databases()).map((d) => d.name ?? '').filter(Boolean),
    token: localStorage.getItem('token'),
    user: localStorage.getItem('user'),
  }));
}

/** JSON call to the API (test setup: users, trades), throwing on a failed answer. */
export async function api<T>(base: string, method: string, path: string, body?: unknown, token?: string): Promise<T> {
  const res = await fetch(`${base}/api${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as T & { success?: boolean; message?: string };
  if (!res.ok || json.success === false) throw new Error(`${method} ${path} → ${res.status} ${json.message ?? ''}`);
  return json;
}

// playwright-core has no web-first assertions; these wait the same way, then vitest's expect judges.
export const waitVisible = (locator: Locator, timeout = 30_000) => locator.first().waitFor({ state: 'visible', timeout });
export const waitGone = (locator: Locator, timeout = 30_000) => locator.first().waitFor({ state: 'detached', timeout });
export const textOf = async (locator: Locator) => ((await locator.first().textContent()) ?? '').trim();

/** What the signed-in user's IndexedDB cache holds: the number of trades and the kinds of snapshots saved. */
export function cacheContents(page: Page): Promise<{ trades: number; snapshots: string[] }> {
  return page.evaluate(async () => {
    const name = (await indexedDB.databases()).find((d) => d.name?.startsWith('arbitrage-cache:'))?.name;
    if (!name) return { trades: 0, snapshots: [] };
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open(name);
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const ask = <T,>(req: IDBRequest<T>) => new Promise<T>((resolve, reject) => ((req.onsuccess = () => resolve(req.result)), (req.onerror = () => reject(req.error))));
    const tx = db.transaction(['trades', 'snapshots']);
    const [trades, kinds] = await Promise.all([ask(tx.objectStore('trades').count()), ask(tx.objectStore('snapshots').getAllKeys())]);
    db.close();
    return { trades, snapshots: kinds.map(String) };
  });
}
