import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  apiLogin,
  createUser,
  gone,
  launch,
  newPage,
  PHONE,
  screenshot,
  signIn,
  textOf,
  toast,
  visible,
} from './helpers';

describe('profile and administration', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('edits the profile and changes the password', async () => {
    const u = await createUser({ keys: true });
    const { page, context } = await newPage(browser);
    await signIn(page, u.email, u.password);
    await page.goto('/profile');
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('First Name').fill('Ada');
    await page.getByLabel('Last Name').fill('Lovelace');
    await page.getByLabel('Phone').fill('0123');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await visible(toast(page, 'Please fix the following errors:'));
    await visible(toast(page, 'Please enter a valid phone number'));
    await page.getByLabel('Phone').fill('+44 20 7946 0958');
    await page.getByLabel('Bio').fill('Arbitrage between spot and multipliers.');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await visible(toast(page, 'Profile updated successfully!'));
    await visible(page.getByText('Ada Lovelace'));
    expect(JSON.parse((await page.evaluate(() => localStorage.getItem('user'))) ?? '{}')).toMatchObject({
      firstName: 'Ada',
      lastName: 'Lovelace',
    });
    await screenshot(page, 'profile');

    await page.getByRole('button', { name: 'Change Password' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Current Password').fill(u.password);
    await dialog.getByLabel('New Password', { exact: true }).fill('Another-password-2');
    await dialog.getByLabel('Confirm New Password').fill('Another-password-3');
    await dialog.getByRole('button', { name: 'Change Password' }).click();
    await visible(dialog.getByText('Passwords do not match'));
    await dialog.getByLabel('Confirm New Password').fill('Another-password-2');
    await dialog.getByRole('button', { name: 'Change Password' }).click();
    await visible(toast(page, 'Password changed successfully!'));
    await gone(page.getByRole('dialog'));
    // Still signed in with the fresh token; the new password works, the old one not.
    await page.goto('/dashboard');
    await page.getByTestId('live-prices').waitFor();
    await apiLogin(u.email, 'Another-password-2');
    await expect(apiLogin(u.email, u.password)).rejects.toThrow();
    await context.close();
  });

  it('admin adds a user, toggles it and deletes it after the confirm dialog; non-admins see Access Denied', async () => {
    for (const viewport of [undefined, PHONE]) {
      const { page, context } = await newPage(browser, viewport);
      await signIn(page, ADMIN().email, ADMIN().password);
      await page.goto('/admin/users');
      await page.getByRole('button', { name: 'Add User' }).click();
      const dialog = page.getByRole('dialog');
      const name = `added${Date.now() % 1_000_000}${viewport ? 'p' : 'd'}`;
      await dialog.getByLabel('Username').fill(name);
      await dialog.getByLabel('Email').fill(`${name}@e2e.test`);
      await dialog.getByLabel('Password').fill('12345');
      expect(await dialog.getByRole('button', { name: 'Create User' }).isDisabled()).toBe(true);
      await dialog.getByLabel('Password').fill('123456');
      await dialog.getByRole('button', { name: 'Create User' }).click();
      await visible(toast(page, 'User created successfully!'));

      await page.getByLabel('Search').fill(name);
      const row = page.locator(`[data-testid="user-row"][data-username="${name}"]`);
      await visible(row);
      // The list follows the search after a short debounce: wait for the filtered answer.
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="user-row"]').length === 1);
      expect(await textOf(row)).toContain('active');
      await row.getByRole('button', { name: `Deactivate ${name}` }).click();
      await visible(row.getByText('inactive').filter({ visible: true }));
      await screenshot(page, 'admin-users');
      await row.getByRole('button', { name: `Delete ${name}` }).click();
      await visible(page.getByText('Are you sure you want to delete this user? This action cannot be undone.'));
      await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
      await visible(toast(page, 'User deleted successfully!'));
      await gone(row);
      await context.close();
    }

    const u = await createUser();
    const { page, context } = await newPage(browser);
    await signIn(page, u.email, u.password);
    await page.goto('/admin/users');
    await visible(page.getByText('Access Denied'));
    await visible(page.getByText("You don't have permission to access this page."));
    expect(await page.getByText('User Management', { exact: true }).count()).toBeLessThanOrEqual(1);
    await context.close();
  });
});
