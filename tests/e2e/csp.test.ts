import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, ADMIN_SCREENS, launch, newPage, signIn } from './helpers';

// The strict CSP (no 'unsafe-inline' styles, connect-src 'self') in real Chromium: no route reports a violation, and
// the live feed (a websocket to the app's own origin) still connects.
describe('content security policy in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** Violations the page reported, from both the DOM event and the console. */
  async function watch(page: Page): Promise<() => Promise<string[]>> {
    const console: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) console.push(m.text());
    });
    // Injected by the browser driver, not by the page: the CSP does not apply to it.
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { __csp: string[] }).__csp = seen;
      document.addEventListener('securitypolicyviolation', (e) =>
        seen.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`),
      );
    });
    return async () => [
      ...console,
      ...(await page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? [])),
    ];
  }

  it('reports no violation on any route, and the socket connects', async () => {
    const { page, context } = await newPage(browser);
    const violations = await watch(page);
    const socketOpened = page.waitForEvent('websocket', {
      predicate: (ws) => ws.url().includes('/socket.io/'),
      timeout: 60_000,
    });
    await page.goto('/login');
    expect(await violations(), '/login').toEqual([]);
    await signIn(page, ADMIN().email, ADMIN().password);
    await socketOpened;
    for (const [path, ready] of ADMIN_SCREENS) {
      await page.goto(path);
      await page.locator(ready).first().waitFor();
      expect(await violations(), path).toEqual([]);
    }
    await context.close();
  }, 180_000);
});
