import { act, screen, waitFor } from '@testing-library/react';
import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { renderApp, testUser } from '../../tests/setup/renderApp';
import type { ServerEvent } from '../services/realtime/socketLink';

describe('a session ended elsewhere', () => {
  it('a deactivated user whose live connection the server dropped is told so and sent to /login', async () => {
    const events = new Subject<ServerEvent>();
    let deactivated = false;
    const { router } = renderApp('/dashboard', {
      user: testUser(),
      events,
      handler: (_m, p) =>
        deactivated && p.startsWith('/api/')
          ? { status: 401, body: { success: false, message: 'Your account has been deactivated. Contact an admin.' } }
          : undefined,
    });
    await screen.findByTestId('stat-win-rate');
    // The admin deactivates the account: the server ends the socket; this tab makes no call of its own.
    deactivated = true;
    act(() => events.error(new Error('disconnected: io server disconnect')));
    expect(await screen.findByText('Your account has been deactivated. Contact an admin.')).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(localStorage.getItem('token')).toBeNull();
  });
});
