import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createUser, gone, launch, newPage, PHONE, screenshot, signIn, textOf, toast, visible } from './helpers';

describe('sign-in, guard, logout, session end', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows each login validation message, clearing it as the user types', async () => {
    const { page, context } = await newPage(browser);
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await visible(page.getByText('Email is required'));
    await visible(page.getByText('Password is required'));
    await page.getByLabel('Email').fill('not-an-email');
    await gone(page.getByText('Email is required'));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await visible(page.getByText('Email is invalid'));
    await page.getByLabel('Password', { exact: true }).fill('x');
    await gone(page.getByText('Password is required'));
    await screenshot(page, 'login-errors');
    await context.close();
  });

  it('a wrong password shows the server message and stays on /login', async () => {
    const { page, context } = await newPage(browser);
    const u = await createUser();
    await page.goto('/login');
    await page.getByLabel('Email').fill(u.email);
    await page.getByLabel('Password', { exact: true }).fill('wrong-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await visible(page.locator('.Toastify__toast--error'));
    await page.waitForURL(/\/login/);
    await context.close();
  });

  it('without saved keys sign-in lands on /settings; with keys on /dashboard', async () => {
    // A user of its own: the shared admin gets keys saved by another file (screens.test.ts), in whichever order
    // the files run.
    const withoutKeys = await createUser();
    const { page, context } = await newPage(browser);
    await signIn(page, withoutKeys.email, withoutKeys.password);
    await page.waitForURL(/\/settings$/);
    await visible(toast(page, 'Login successful!'));
    await context.close();

    const withKeys = await createUser({ keys: true });
    const second = await newPage(browser, PHONE);
    await signIn(second.page, withKeys.email, withKeys.password);
    await second.page.waitForURL(/\/dashboard$/);
    await screenshot(second.page, 'login-landing-dashboard');
    await second.context.close();
  });

  it('remembers the original location, and unknown paths go to /dashboard', async () => {
    const u = await createUser({ keys: true });
    const { page, context } = await newPage(browser);
    await page.goto('/trades');
    await page.waitForURL(/\/login\?redirect=%2Ftrades/);
    await page.getByLabel('Email').fill(u.email);
    await page.getByLabel('Password', { exact: true }).fill(u.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/trades$/);
    await page.goto('/no/such/page');
    await page.waitForURL(/\/dashboard$/);
    await context.close();
  });

  it('a session revoked on the server sends the browser to /login at the next action, without load-failure toasts', async () => {
    const u = await createUser({ keys: true });
    const { page, context } = await newPage(browser);
    await signIn(page, u.email, u.password);
    await visible(page.getByTestId('live-prices'));
    const token = await page.evaluate(() => localStorage.getItem('token'));
    const out = await api('POST', '/auth/logout', { token: token ?? '', body: {} });
    expect(out.status).toBe(200);
    // The next call (a click, or the resync after the server dropped the socket) gets 401.
    const link = page.getByRole('link', { name: 'Trades' }).first();
    if (await link.isVisible()) await link.click({ timeout: 2000 }).catch(() => undefined);
    await page.waitForURL(/\/login/);
    expect(await page.evaluate(() => [localStorage.getItem('token'), localStorage.getItem('user')])).toEqual([
      null,
      null,
    ]);
    expect(await page.getByText('Failed to load trades').count()).toBe(0);
    await context.close();
  });

  it('logout calls the server, clears the session and goes to /login', async () => {
    const u = await createUser({ keys: true });
    const { page, context } = await newPage(browser);
    await signIn(page, u.email, u.password);
    const token = await page.evaluate(() => localStorage.getItem('token'));
    await page.getByRole('button', { name: `User menu for ${u.username}` }).click();
    expect(await textOf(page.getByRole('menu'))).toContain(u.email);
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL(/\/login$/);
    await visible(toast(page, 'Logged out successfully'));
    // The server revoked the token.
    expect((await api('GET', '/auth/profile', { token: token ?? '' })).status).toBe(401);
    await page.goto('/dashboard');
    await page.waitForURL(/\/login/);
    await context.close();
  });
});
