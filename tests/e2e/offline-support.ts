// Page helpers of the offline and install suites (the browser itself comes from tools/pwa-browser.ts): what the app
// keeps in the browser, API calls for setup, and waits that stand in for web-first assertions.
import type { Locator, Page } from 'playwright-core';

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
export const waitVisible = (locator: Locator, timeout = 30_000) =>
  locator.first().waitFor({ state: 'visible', timeout });
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
    const ask = <T>(req: IDBRequest<T>) =>
      new Promise<T>(
        (resolve, reject) => ((req.onsuccess = () => resolve(req.result)), (req.onerror = () => reject(req.error))),
      );
    const tx = db.transaction(['trades', 'snapshots']);
    const [trades, kinds] = await Promise.all([
      ask(tx.objectStore('trades').count()),
      ask(tx.objectStore('snapshots').getAllKeys()),
    ]);
    db.close();
    return { trades, snapshots: kinds.map(String) };
  });
}
