import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderApp, testUser } from '../../tests/setup/renderApp';
import { fieldError } from '../ui/ui.css';

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
    await ui.paste('x'.repeat(500));
    expect(screen.getByTestId('bio-counter').textContent).toBe('500/500');
    expect(screen.getByTestId('bio-counter').getAttribute('data-over')).toBe('false');
    await ui.type(screen.getByLabelText('Bio'), 'x');
    // Past 500 the counter turns red (the field-error style) before Save is pressed.
    expect(screen.getByTestId('bio-counter').textContent).toBe('501/500');
    expect(screen.getByTestId('bio-counter').className).toBe(fieldError);
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
    // Every failing field is marked too, with its message under it.
    for (const label of ['Username', 'Email', 'First Name', 'Last Name', 'Phone', 'Bio'])
      expect(screen.getByLabelText(label).getAttribute('aria-invalid'), label).toBe('true');
    expect(
      document.getElementById(screen.getByLabelText('Phone').getAttribute('aria-describedby') ?? '')?.textContent,
    ).toBe('Please enter a valid phone number');
    expect(calls.some((c) => c.path === '/api/auth/profile')).toBe(false);
    // Editing a field clears its mark.
    await ui.type(screen.getByLabelText('Phone'), '4');
    expect(screen.getByLabelText('Phone').getAttribute('aria-invalid')).toBeNull();
  });

  it('required username and email', async () => {
    const ui = userEvent.setup();
    renderApp('/profile', { user: testUser() });
    await ui.click(await screen.findByRole('button', { name: 'Edit' }));
    await ui.clear(screen.getByLabelText('Username'));
    await ui.clear(screen.getByLabelText('Email'));
    await ui.click(screen.getByRole('button', { name: 'Save Changes' }));
    const toast = (await screen.findByText('Please fix the following errors:')).parentElement as HTMLElement;
    expect(within(toast).getByText('Username is required')).toBeTruthy();
    expect(within(toast).getByText('Email is required')).toBeTruthy();
    expect(screen.getByLabelText('Username').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByLabelText('Email').getAttribute('aria-invalid')).toBe('true');
  });

  it('saves, merges the user locally and returns to view; Cancel restores stored values', async () => {
    const ui = userEvent.setup();
    const user = testUser();
    renderApp('/profile', {
      user,
      handler: (m, p, body) =>
        m === 'PUT' && p === '/api/auth/profile'
          ? { body: { success: true, user: { ...user, ...(body as object) }, message: 'ok' } }
          : undefined,
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
      handler: (m, p) =>
        m === 'PUT' && p === '/api/auth/profile'
          ? {
              status: 409,
              body: {
                success: false,
                message: 'Conflict',
                errors: [{ msg: 'Username already taken', path: 'username' }],
              },
            }
          : undefined,
    });
    await ui.click(await screen.findByRole('button', { name: 'Edit' }));
    await ui.click(screen.getByRole('button', { name: 'Save Changes' }));
    const toast = (await screen.findByText('Validation errors:')).parentElement as HTMLElement;
    expect(within(toast).getByText('Username already taken')).toBeTruthy();
    // The server's error marks its field as well.
    expect(screen.getByLabelText('Username').getAttribute('aria-invalid')).toBe('true');
  });

  it('change password: every rule and message, then success', async () => {
    const ui = userEvent.setup();
    const { calls } = renderApp('/profile', {
      user: testUser(),
      handler: (m, p) =>
        m === 'PUT' && p === '/api/auth/change-password'
          ? { body: { success: true, message: 'Password changed', token: 'fresh' } }
          : undefined,
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
    expect(calls.find((c) => c.path === '/api/auth/change-password')?.body).toEqual({
      currentPassword: 'same-password',
      newPassword: 'brand-new-password',
    });
    expect(localStorage.getItem('token')).toBe('fresh');
  });
});

describe('Profile → Time zone', () => {
  it('saves the chosen zone on the server and every date on screen follows it', async () => {
    const ui = userEvent.setup();
    // 03:04 UTC on Jan 2: still Jan 1 in Los Angeles, already midday in Tokyo.
    const user = testUser({ timeZone: 'Asia/Tokyo', createdAt: '2026-01-02T03:04:05.000Z' });
    const { calls } = renderApp('/profile', {
      user,
      handler: (method, path, body) =>
        method === 'PUT' && path === '/api/auth/time-zone'
          ? { body: { success: true, user: { ...user, ...(body as object) }, message: 'Time zone saved' } }
          : undefined,
    });
    expect(await screen.findByText('Member since Jan 2, 2026')).toBeTruthy();
    const select = screen.getByTestId('time-zone-select') as HTMLSelectElement;
    expect(select.value).toBe('Asia/Tokyo');
    expect(screen.getByTestId('time-zone-now').textContent).toContain('(Asia / Tokyo)');

    await ui.selectOptions(select, 'America/Los_Angeles');
    expect(await screen.findByText('Member since Jan 1, 2026')).toBeTruthy();
    expect(calls.find((c) => c.path === '/api/auth/time-zone')?.body).toEqual({ timeZone: 'America/Los_Angeles' });
    expect(screen.getByTestId('time-zone-now').textContent).toContain('(America / Los Angeles)');
    // Kept with the stored user, so the choice holds offline and after a reload on this device.
    await waitFor(() => expect(JSON.parse(localStorage.getItem('user') ?? '{}').timeZone).toBe('America/Los_Angeles'));

    // Back to the browser's own: the server stores null.
    await ui.selectOptions(select, '');
    await waitFor(() =>
      expect(calls.filter((c) => c.path === '/api/auth/time-zone').at(-1)?.body).toEqual({ timeZone: null }),
    );
  });
});
