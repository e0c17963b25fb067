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
      handler: (m, p) =>
        m === 'POST' && p === '/api/auth/login' ? { body: { success: true, user, token: 'tok' } } : undefined,
    });
    await ui.type(await screen.findByLabelText('Email'), 'trader@example.com');
    await ui.type(screen.getByLabelText('Password'), 'secret-pass');
    await ui.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/settings'));
    expect(calls.find((c) => c.path === '/api/auth/login')?.body).toEqual({
      username: 'trader@example.com',
      password: 'secret-pass',
    });
    expect(localStorage.getItem('token')).toBe('tok');
    expect(await screen.findByText('Login successful!')).toBeTruthy();
  });

  it('asks for the two-factor code after a right password, answers a wrong code, and signs in with a right one', async () => {
    const ui = userEvent.setup();
    const user = testUser({ hasBinanceApiKey: true, hasBinanceSecretKey: true, hasDerivToken: true });
    const { router, calls } = renderApp('/login', {
      handler: (m, p, body) => {
        if (m === 'POST' && p === '/api/auth/login')
          return { body: { success: true, twoFactorRequired: true, challenge: 'chal', message: 'Enter the code' } };
        if (m === 'POST' && p === '/api/auth/login/2fa') {
          return (body as { code: string }).code === '123456'
            ? { body: { success: true, user, token: 'tok2' } }
            : { status: 401, body: { success: false, message: 'That code is not right.' } };
        }
        return undefined;
      },
    });
    await ui.type(await screen.findByLabelText('Email'), 'trader@example.com');
    await ui.type(screen.getByLabelText('Password'), 'secret-pass');
    await ui.click(screen.getByRole('button', { name: 'Sign in' }));
    const code = await screen.findByLabelText('Authentication code');
    expect(localStorage.getItem('token')).toBeNull();
    await ui.type(code, '12');
    await ui.click(screen.getByRole('button', { name: 'Verify' }));
    expect(
      await screen.findByText('Enter the 6-digit code from your authenticator app or a recovery code'),
    ).toBeTruthy();
    await ui.clear(code);
    await ui.type(code, '654321');
    await ui.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('That code is not right.')).toBeTruthy();
    // A refused code does not end anything: still on the second step.
    expect(router.state.location.pathname).toBe('/login');
    await ui.clear(code);
    await ui.type(code, '123456');
    await ui.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(calls.filter((c) => c.path === '/api/auth/login/2fa').map((c) => c.body)).toEqual([
      { challenge: 'chal', code: '654321' },
      { challenge: 'chal', code: '123456' },
    ]);
    expect(localStorage.getItem('token')).toBe('tok2');
  });

  it('goes to /dashboard when the key pair and the token are saved', async () => {
    const ui = userEvent.setup();
    const user = testUser({ hasBinanceApiKey: true, hasBinanceSecretKey: true, hasDerivToken: true });
    const { router } = renderApp('/login', {
      handler: (m, p) =>
        m === 'POST' && p === '/api/auth/login' ? { body: { success: true, user, token: 'tok' } } : undefined,
    });
    await ui.type(await screen.findByLabelText('Email'), 'trader@example.com');
    await ui.type(screen.getByLabelText('Password'), 'secret-pass');
    await ui.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });

  it("shows the server's message when sign-in is refused", async () => {
    const ui = userEvent.setup();
    renderApp('/login', {
      handler: (m, p) =>
        m === 'POST' && p === '/api/auth/login'
          ? { status: 401, body: { success: false, message: 'Invalid email or password' } }
          : undefined,
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
      handler: (m, p) =>
        m === 'POST' && p === '/api/auth/login' ? { body: { success: true, user, token: 'tok' } } : undefined,
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    await ui.type(await screen.findByLabelText('Email'), 'trader@example.com');
    await ui.type(screen.getByLabelText('Password'), 'secret-pass');
    await ui.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/balances'));
  });

  it('takes an earlier "Invalid email or password" away once a sign-in succeeds (issue 20, finding 10)', async () => {
    const ui = userEvent.setup();
    const user = testUser();
    let attempts = 0;
    const { router } = renderApp('/login', {
      handler: (m, p) => {
        if (m !== 'POST' || p !== '/api/auth/login') return undefined;
        attempts += 1;
        return attempts === 1
          ? { status: 401, body: { success: false, message: 'Invalid email or password' } }
          : { body: { success: true, user, token: 'tok' } };
      },
    });
    await ui.type(await screen.findByLabelText('Email'), 'trader@example.com');
    await ui.type(screen.getByLabelText('Password'), 'wrong-pass');
    await ui.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Invalid email or password')).toBeTruthy();
    await ui.clear(screen.getByLabelText('Password'));
    await ui.type(screen.getByLabelText('Password'), 'secret-pass');
    await ui.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/settings'));
    expect(await screen.findByText('Login successful!')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('Invalid email or password')).toBeNull());
  });
});
