import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderApp, testUser } from '../../tests/setup/renderApp';

const OPEN = (m: string, p: string) =>
  m === 'GET' && p === '/api/auth/registration' ? { body: { success: true, open: true } } : undefined;

describe('/register', () => {
  it('says to contact an admin while the server keeps registration closed', async () => {
    const { calls } = renderApp('/register', {
      handler: (m, p) =>
        m === 'GET' && p === '/api/auth/registration' ? { body: { success: true, open: false } } : undefined,
    });
    expect(
      await screen.findByText('There is no self-registration. Please contact an admin to get access.'),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Create account' })).toBeNull();
    expect(calls.some((c) => c.path === '/api/auth/registration')).toBe(true);
  });

  it('when open: checks the fields, shows the server message or the spec fallback, then signs in with the spec toast', async () => {
    const ui = userEvent.setup();
    let answer: { status: number; body: unknown } = {
      status: 409,
      body: { success: false, message: 'That username or email is already in use' },
    };
    const { calls, router } = renderApp('/register', {
      handler: (m, p) => OPEN(m, p) ?? (m === 'POST' && p === '/api/auth/register' ? answer : undefined),
    });
    const submit = await screen.findByRole('button', { name: 'Create account' });
    await ui.type(screen.getByLabelText('Username'), 'ab');
    await ui.type(screen.getByLabelText('Email'), 'bad');
    await ui.type(screen.getByLabelText('Password'), 'short');
    await ui.click(submit);
    expect(screen.getByText('Username must be at least 3 characters')).toBeTruthy();
    expect(screen.getByText('Please enter a valid email address')).toBeTruthy();
    expect(screen.getByText('Password must be at least 8 characters')).toBeTruthy();
    expect(calls.some((c) => c.path === '/api/auth/register')).toBe(false);

    await ui.type(screen.getByLabelText('Username'), 'c');
    await ui.clear(screen.getByLabelText('Email'));
    await ui.type(screen.getByLabelText('Email'), 'abc@example.com');
    await ui.type(screen.getByLabelText('Password'), '-password');
    await ui.click(submit);
    expect(await screen.findByText('That username or email is already in use')).toBeTruthy();

    answer = { status: 500, body: {} };
    await ui.click(submit);
    expect(await screen.findByText('Registration failed')).toBeTruthy();

    const user = testUser({ username: 'abc', email: 'abc@example.com' });
    answer = { status: 201, body: { success: true, user, token: 'new-token', message: 'Registration successful' } };
    await ui.click(submit);
    expect(await screen.findByText('Registration successful!')).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe('/settings'));
    expect(localStorage.getItem('token')).toBe('new-token');
    expect(calls.filter((c) => c.path === '/api/auth/register').at(-1)?.body).toEqual({
      username: 'abc',
      email: 'abc@example.com',
      password: 'short-password',
    });
  });
});
