import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderApp, testUser } from '../../tests/setup/renderApp';

describe('Profile screen', () => {
  it('shows all field errors in one toast headed "Please fix the following errors:"', async () => {
    const ui = userEvent.setup();
    const { calls } = renderApp('/profile', { user: testUser() });
    await ui.click(await screen.findByRole('button', { name: 'Edit' }));
    const username = screen.getByLabelText('Username');
    await ui.clear(username);
    await ui.type(username, 'ab');
    await ui.clear(screen.getByLabelText('Email'));
    await ui.type(screen.getByLabelText('Email'), 'bad@mail');
    await ui.type(screen.getByLabelText('First Name'), 'A');
    await ui.type(screen.getByLabelText('Last Name'), 'B');
    await ui.type(screen.getByLabelText('Phone'), '012');
    await ui.click(screen.getByLabelText('Bio'));
    await ui.paste('x'.repeat(501));
    await ui.click(screen.getByRole('button', { name: 'Save Changes' }));
    const heading = await screen.findByText('Please fix the following errors:');
    const toast = heading.parentElement as HTMLElement;
    for (const msg of [
      'Username must be at least 3 characters',
      'Please enter a valid email address',
      'First name must be at least 2 characters',
      'Last name must be at least 2 characters',
      'Please enter a valid phone number',
      'Bio must be less than 500 characters',
    ])
      expect(within(toast).getByText(msg)).toBeTruthy();
    expect(calls.some((c) => c.path === '/api/auth/profile')).toBe(false);
  });

  it('required username and email', async () => {
    const ui = userEvent.setup();
    renderApp('/profile', { user: testUser() });
    await ui.click(await screen.findByRole('button', { name: 'Edit' }));
    await ui.clear(screen.getByLabelText('Username'));
    await ui.clear(screen.getByLabelText('Email'));
    await ui.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Username is required')).toBeTruthy();
    expect(screen.getByText('Email is required')).toBeTruthy();
  });

  it('saves, merges the user locally and returns to view; Cancel restores stored values', async () => {
    const ui = userEvent.setup();
    const user = testUser();
    renderApp('/profile', {
      user,
      handler: (m, p, body) => (m === 'PUT' && p === '/api/auth/profile' ? { body: { success: true, user: { ...user, ...(body as object) }, message: 'ok' } } : undefined),
    });
    await ui.click(await screen.findByRole('button', { name: 'Edit' }));
    await ui.type(screen.getByLabelText('First Name'), 'Ann');
    await ui.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Profile updated successfully!')).toBeTruthy();
    expect(JSON.parse(localStorage.getItem('user') ?? '{}').firstName).toBe('Ann');
    await ui.click(screen.getByRole('button', { name: 'Edit' }));
    await ui.type(screen.getByLabelText('Last Name'), 'Zed');
    await ui.click(screen.getByRole('button', { name: 'Cancel' }));
    expect((screen.getByLabelText('Last Name') as HTMLInputElement).value).toBe('');
    expect(screen.getByRole('button', { name: 'Edit' })).toBeTruthy();
  });

  it("shows the server's errors array under 'Validation errors:'", async () => {
    const ui = userEvent.setup();
    renderApp('/profile', {
      user: testUser(),
      handler: (m, p) => (m === 'PUT' && p === '/api/auth/profile' ? { status: 409, body: { success: false, message: 'Conflict', errors: [{ msg: 'Username already taken' }] } } : undefined),
    });
    await ui.click(await screen.findByRole('button', { name: 'Edit' }));
    await ui.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Validation errors:')).toBeTruthy();
    expect(screen.getByText('Username already taken')).toBeTruthy();
  });

  it('change password: every rule and message, then success', async () => {
    const ui = userEvent.setup();
    const { calls } = renderApp('/profile', {
      user: testUser(),
      handler: (m, p) => (m === 'PUT' && p === '/api/auth/change-password' ? { body: { success: true, message: 'Password changed', token: 'fresh' } } : undefined),
    });
    await ui.click(await screen.findByRole('button', { name: 'Change Password' }));
    const dialog = await screen.findByRole('dialog');
    const submit = within(dialog).getByRole('button', { name: 'Change Password' });
    await ui.click(submit);
    expect(within(dialog).getByText('Current password is required')).toBeTruthy();
    expect(within(dialog).getByText('New password is required')).toBeTruthy();
    expect(within(dialog).getByText('Please confirm your new password')).toBeTruthy();
    await ui.type(within(dialog).getByLabelText('Current Password'), 'same-password');
    await ui.type(within(dialog).getByLabelText('New Password'), 'short');
    await ui.type(within(dialog).getByLabelText('Confirm New Password'), 'other');
    await ui.click(submit);
    expect(within(dialog).getByText('Password must be at least 8 characters')).toBeTruthy();
    expect(within(dialog).getByText('Passwords do not match')).toBeTruthy();
    await ui.clear(within(dialog).getByLabelText('New Password'));
    await ui.type(within(dialog).getByLabelText('New Password'), 'same-password');
    await ui.click(submit);
    expect(within(dialog).getByText('New password must be different from current password')).toBeTruthy();
    await ui.clear(within(dialog).getByLabelText('New Password'));
    await ui.type(within(dialog).getByLabelText('New Password'), 'brand-new-password');
    await ui.clear(within(dialog).getByLabelText('Confirm New Password'));
    await ui.type(within(dialog).getByLabelText('Confirm New Password'), 'brand-new-password');
    await ui.click(submit);
    expect(await screen.findByText('Password changed successfully!')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.find((c) => c.path === '/api/auth/change-password')?.body).toEqual({ currentPassword: 'same-password', newPassword: 'brand-new-password' });
    expect(localStorage.getItem('token')).toBe('fresh');
  });
});
