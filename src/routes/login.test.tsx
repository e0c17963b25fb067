import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderApp, testUser } from '../../tests/setup/renderApp';

describe('Login screen', () => {
  it('shows each validation message and clears it as the user types', async () => {
    const ui = userEvent.setup();
    const { calls } = renderApp('/login');
    const submit = await screen.findByRole('button', { name: 'Sign in' });
    await ui.click(submit);
    expect(await screen.findByText('Email is required')).toBeTruthy();
    expect(screen.getByText('Password is required')).toBeTruthy();

    await ui.type(screen.getByLabelText('Email'), 'not-an-email');
    expect(screen.queryByText('Email is required')).toBeNull();
    await ui.click(submit);
    expect(await screen.findByText('Email is invalid')).toBeTruthy();
    await ui.type(screen.getByLabelText('Password'), 'x');
    expect(screen.queryByText('Password is required')).toBeNull();
    expect(calls.filter((c) => c.path === '/api/auth/login')).toHaveLength(0);
  });

  it('toggles password visibility', async () => {
    const ui = userEvent.setup();
    renderApp('/login');
    const input = (await screen.findByLabelText('Password')) as HTMLInputElement;
    expect(input.type).toBe('password');
    await ui.click(screen.getByRole('button', { name: 'Show password' }));
    expect(input.type).toBe('text');
  });

  it('signs in with the e-mail as username, stores the session and goes to /settings when keys are missing', async () => {
    const ui = userEvent.setup();
    const user = testUser();
    const { router, calls } = renderApp('/login', {
      handler: (m, p) => (m === 'POST' && p === '/api/auth/login' ? { body: { success: true, user, token: 'tok' } } : undefined),
    });
    await ui.type(await screen.findByLabelText('Email'), 'trader@example.com');
    await ui.type(screen.getByLabelText('Password'), 'secret-pass');
    await ui.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/settings'));
    expect(calls.find((c) => c.path === '/api/auth/login')?.body).toEqual({ username: 'trader@example.com', password: 'secret-pass' });
    expect(localStorage.getItem('token')).toBe('tok');
    expect(await screen.findByText('Login successful!')).toBeTruthy();
  });

  it('goes to /dashboard when the key pair and the token are saved', async () => {
    const ui = userEvent.setup();
    const user = testUser({ hasBinanceApiKey: true, hasBinanceSecretKey: true, hasDerivToken: true });
    const { router } = renderApp('/login', {
      handler: (m, p) => (m === 'POST' && p === '/api/auth/login' ? { body: { success: true, user, token: 'tok' } } : undefined),
    });
    await ui.type(await screen.findByLabelText('Email'), 'trader@example.com');
    await ui.type(screen.getByLabelText('Password'), 'secret-pass');
    await ui.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });

  it("shows the server's message when sign-in is refused", async () => {
    const ui = userEvent.setup();
    renderApp('/login', {
      handler: (m, p) => (m === 'POST' && p === '/api/auth/login' ? { status: 401, body: { success: false, message: 'Invalid email or password' } } : undefined),
    });
    await ui.type(await screen.findByLabelText('Email'), 'trader@example.com');
    await ui.type(screen.getByLabelText('Password'), 'wrong');
    await ui.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Invalid email or password')).toBeTruthy();
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('an unauthenticated visit to a protected page goes to /login and returns there after sign-in', async () => {
    const ui = userEvent.setup();
    const user = testUser({ hasBinanceApiKey: true, hasBinanceSecretKey: true, hasDerivToken: true });
    const { router } = renderApp('/balances', {
      handler: (m, p) => (m === 'POST' && p === '/api/auth/login' ? { body: { success: true, user, token: 'tok' } } : undefined),
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    await ui.type(await screen.findByLabelText('Email'), 'trader@example.com');
    await ui.type(screen.getByLabelText('Password'), 'secret-pass');
    await ui.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/balances'));
  });
});
