import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { renderApp, testUser } from '../../tests/setup/renderApp';
import { OFFLINE_REFUSAL } from '../services/offline';

const setOnline = (online: boolean) =>
  Object.defineProperty(navigator, 'onLine', { value: online, configurable: true });

describe('offline', () => {
  afterEach(() => setOnline(true));

  it("opening the app when the server cannot be reached shows no 'Failed to load' toast", async () => {
    const { calls } = renderApp('/dashboard', {
      user: testUser(),
      handler: () => {
        throw new TypeError('Failed to fetch');
      },
    });
    await screen.findByTestId('stat-win-rate');
    // The one load of the first paint (GET /api/snapshot, for every stream) was tried (and failed) before we look.
    await expect.poll(() => calls.some((c) => c.path === '/api/snapshot')).toBe(true);
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByText(/^Failed to load/)).toBeNull();
  });

  it('Refresh on Balances says it needs a connection, like every other action', async () => {
    const ui = userEvent.setup();
    const { calls } = renderApp('/balances', { user: testUser() });
    const refresh = await screen.findByRole('button', { name: 'Refresh' });
    setOnline(false);
    await ui.click(refresh);
    expect(await screen.findByText(OFFLINE_REFUSAL)).toBeTruthy();
    expect(screen.queryByText('Failed to sync balances. Please try again.')).toBeNull();
    expect(calls.some((c) => c.path === '/api/exchanges/sync')).toBe(false);
  });
});
