import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { ServerEvent } from '../services/realtime/socketLink';
import { renderApp, testUser } from '../../tests/setup/renderApp';

describe('Settings screen', () => {
  it('trading tab: spec defaults and input bounds; saves percent as a fraction, then adds the user to trading', async () => {
    const ui = userEvent.setup();
    const user = testUser();
    const { calls } = renderApp('/settings', {
      user,
      handler: (m, p, body) => {
        if (m === 'PUT' && p === `/api/users/${user._id}`)
          return { body: { success: true, user: { ...user, ...(body as object) } } };
        if (m === 'POST' && p === '/api/exchanges/trading/add-user')
          return { body: { success: true, tradingEnabled: true, message: 'ok' } };
        return undefined;
      },
    });
    await ui.click(await screen.findByRole('tab', { name: 'Trading' }));
    const exposure = screen.getByLabelText('Max Exposure (USDT)') as HTMLInputElement;
    const spread = screen.getByLabelText('Min Spread (%)') as HTMLInputElement;
    const loss = screen.getByLabelText('Max Loss (USDT)') as HTMLInputElement;
    expect([exposure.value, spread.value, loss.value]).toEqual(['1000', '0.2', '100']);
    expect([exposure.min, exposure.step, spread.min, spread.max, spread.step, loss.min, loss.step]).toEqual([
      '0',
      'any',
      '0',
      '10',
      'any',
      '0',
      'any',
    ]);
    expect(exposure.form?.noValidate).toBe(true);
    await ui.clear(spread);
    await ui.type(spread, '0.25');
    await ui.clear(exposure);
    await ui.type(exposure, '150');
    await ui.click(screen.getByLabelText('Enable Automated Trading'));
    await ui.click(screen.getByRole('button', { name: 'Save Settings' }));
    expect(await screen.findByText('Trading settings updated and user added to trading')).toBeTruthy();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      maxExposure: 150,
      minSpread: 0.0025,
      maxLoss: 100,
      tradingEnabled: true,
    });
  });

  it('trading tab: out-of-range values get inline errors in the app style and nothing is sent; a server refusal marks its field', async () => {
    const ui = userEvent.setup();
    const user = testUser();
    const { calls } = renderApp('/settings', {
      user,
      handler: (m, p) =>
        m === 'PUT' && p === `/api/users/${user._id}`
          ? {
              status: 400,
              body: {
                success: false,
                message: 'Max loss must be at most 1,000,000,000',
                errors: [{ msg: 'Max loss must be at most 1,000,000,000', path: 'maxLoss' }],
              },
            }
          : undefined,
    });
    await ui.click(await screen.findByRole('tab', { name: 'Trading' }));
    const exposure = screen.getByLabelText('Max Exposure (USDT)');
    const spread = screen.getByLabelText('Min Spread (%)');
    await ui.clear(exposure);
    await ui.clear(spread);
    await ui.type(spread, '12');
    await ui.click(screen.getByRole('button', { name: 'Save Settings' }));
    expect(await screen.findByText('Max exposure is required')).toBeTruthy();
    expect(screen.getByText('Min spread must be at most 10%')).toBeTruthy();
    expect(exposure.getAttribute('aria-invalid')).toBe('true');
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
    // Editing a field clears its error.
    await ui.type(exposure, '150');
    expect(screen.queryByText('Max exposure is required')).toBeNull();
    await ui.clear(spread);
    await ui.type(spread, '0.25');
    await ui.click(screen.getByRole('button', { name: 'Save Settings' }));
    await waitFor(() => expect(screen.getByLabelText('Max Loss (USDT)').getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getAllByText('Max loss must be at most 1,000,000,000').length).toBeGreaterThan(0);
  });

  it('trading tab: after a save, says what the balances fund when it is less than the max exposure', async () => {
    const ui = userEvent.setup();
    const user = testUser();
    const funding = { maxExposure: 50_000, funded: 9_990, perTradeAsked: 12_500, perTrade: 9_990 };
    renderApp('/settings', {
      user,
      handler: (m, p, body) =>
        m === 'PUT' && p === `/api/users/${user._id}`
          ? { body: { success: true, user: { ...user, ...(body as object) }, funding } }
          : undefined,
    });
    await ui.click(await screen.findByRole('tab', { name: 'Trading' }));
    const exposure = screen.getByLabelText('Max Exposure (USDT)');
    await ui.clear(exposure);
    await ui.type(exposure, '50000');
    await ui.click(screen.getByRole('button', { name: 'Save Settings' }));
    expect(
      await screen.findByText(
        'Your balances fund about 9,990 USDT of open trades, less than your max exposure of 50,000 USDT: the engine will trade 9,990 USDT a trade, not the 12,500 your limits ask for.',
      ),
    ).toBeTruthy();
  });

  it('says what Max Loss means, and why trading stopped when the engine paused it', async () => {
    const ui = userEvent.setup();
    renderApp('/settings', {
      user: testUser({
        tradingEnabled: false,
        tradingStop: 'paused',
        tradingPausedAt: '2026-03-01T10:00:00.000Z',
        tradingPauseReason: 'Binance refused the order — insufficient USDT (3 failed trades in a row)',
      }),
    });
    await ui.click(await screen.findByRole('tab', { name: 'Trading' }));
    expect(screen.getByText(/falls this far below its highest point/)).toBeTruthy();
    expect(
      screen.getByText(
        'Automated trading is paused: Binance refused the order — insufficient USDT (3 failed trades in a row). Save with automated trading enabled to resume.',
      ),
    ).toBeTruthy();
  });

  it('shows the pause the engine announces, without a reload', async () => {
    const ui = userEvent.setup();
    const events = new Subject<ServerEvent>();
    renderApp('/settings', { user: testUser({ tradingEnabled: true }), events });
    await ui.click(await screen.findByRole('tab', { name: 'Trading' }));
    const reason = 'Binance refused the order — insufficient USDT (3 failed trades in a row)';
    events.next({
      name: 'notice',
      payload: {
        level: 'warning',
        message: `Automated trading is paused: ${reason}.`,
        user: {
          tradingEnabled: false,
          tradingStop: 'paused',
          tradingPausedAt: '2026-03-01T10:00:00.000Z',
          tradingPauseReason: reason,
        },
      },
    });
    expect(
      await screen.findByText(`Automated trading is paused: ${reason}. Save with automated trading enabled to resume.`),
    ).toBeTruthy();
    await waitFor(() =>
      expect((screen.getByLabelText('Enable Automated Trading') as HTMLInputElement).checked).toBe(false),
    );
  });

  it('warns when adding to trading fails', async () => {
    const ui = userEvent.setup();
    const user = testUser();
    renderApp('/settings', {
      user,
      handler: (m, p, body) => {
        if (m === 'PUT') return { body: { success: true, user: { ...user, ...(body as object) } } };
        if (p === '/api/exchanges/trading/add-user')
          return { status: 400, body: { success: false, message: 'Save your keys first' } };
        return undefined;
      },
    });
    await ui.click(await screen.findByRole('tab', { name: 'Trading' }));
    await ui.click(screen.getByLabelText('Enable Automated Trading'));
    await ui.click(screen.getByRole('button', { name: 'Save Settings' }));
    expect(
      await screen.findByText('Settings updated but failed to add to trading. Please check your API keys.'),
    ).toBeTruthy();
  });

  it('API keys: Save Keys sends only what was typed and toasts success', async () => {
    const ui = userEvent.setup();
    const user = testUser();
    const { calls } = renderApp('/settings', {
      user,
      handler: (m, p) =>
        m === 'PUT' && p.endsWith('/api-keys')
          ? { body: { success: true, user: { ...user, hasBinanceApiKey: true, binanceApiKey: '••••abcd' } } }
          : undefined,
    });
    await ui.type(await screen.findByLabelText('Binance API Key'), 'keyabcd1234');
    await ui.click(screen.getByRole('button', { name: 'Save Keys' }));
    expect(await screen.findByText('API keys updated successfully')).toBeTruthy();
    expect(calls.find((c) => c.path.endsWith('/api-keys'))?.body).toEqual({ binanceApiKey: 'keyabcd1234' });
  });

  it('API keys: refuses keys that are not in a key shape with the field messages the server gives (finding 4)', async () => {
    const ui = userEvent.setup();
    const { calls } = renderApp('/settings', { user: testUser() });
    await ui.type(await screen.findByLabelText('Binance API Key'), 'abc');
    await ui.type(screen.getByLabelText('Binance Secret Key'), 'd e f');
    await ui.click(screen.getByRole('button', { name: 'Save Keys' }));
    expect(
      await screen.findByText("The Binance API key is too short: Binance's keys are 64 letters and digits"),
    ).toBeTruthy();
    expect(screen.getByText('The Binance secret key has spaces in it: paste it again without them')).toBeTruthy();
    expect(calls.some((c) => c.path.endsWith('/api-keys'))).toBe(false);
  });

  it('on the simulated market says keys are optional, offers the Dashboard, and relays what the test checked', async () => {
    const ui = userEvent.setup();
    const said =
      'Simulated market: no connection to Binance is made and no keys are needed. Checked: no Binance API key and secret saved, which is fine here.';
    renderApp('/settings', {
      user: testUser(),
      handler: (m, p) =>
        p === '/api/exchanges/test-connection'
          ? { body: { success: true, exchange: 'binance', message: said } }
          : undefined,
    });
    const note = await screen.findByTestId('sim-keys-note');
    expect(note.textContent).toMatch(/keys are optional here/);
    expect(within(note).getByRole('link', { name: 'Go to the Dashboard' }).getAttribute('href')).toBe('/dashboard');
    const [binance] = await screen.findAllByRole('button', { name: 'Test Connection' });
    await ui.click(binance as HTMLElement);
    expect(await screen.findByText(said)).toBeTruthy();
    expect(screen.queryByText('Binance connection successful')).toBeNull();
  });

  it('Test Connection on the live market uses the saved credentials and says which venue answered', async () => {
    const ui = userEvent.setup();
    const { calls } = renderApp('/settings', {
      user: testUser(),
      handler: (m, p, body) => {
        if (m === 'GET' && p === '/api/meta')
          return {
            body: {
              success: true,
              market: { kind: 'live', simProfile: null },
              halt: { halted: false, reason: '', changedBy: '', changedAt: null },
            },
          };
        if (p !== '/api/exchanges/test-connection') return undefined;
        return (body as { exchange: string }).exchange === 'binance'
          ? { body: { success: true, exchange: 'binance', message: 'ok' } }
          : { status: 400, body: { success: false, message: 'Deriv rejected the token' } };
      },
    });
    const [binance, deriv] = await screen.findAllByRole('button', { name: 'Test Connection' });
    await ui.click(binance as HTMLElement);
    expect(await screen.findByText('Binance connection successful')).toBeTruthy();
    await ui.click(deriv as HTMLElement);
    expect(await screen.findByText('Deriv rejected the token')).toBeTruthy();
    expect(calls.filter((c) => c.path === '/api/exchanges/test-connection').map((c) => c.body)).toEqual([
      { exchange: 'binance' },
      { exchange: 'deriv' },
    ]);
  });

  it('notifications tab: says this browser cannot receive push, saves each choice at once, and relays the test button’s answer', async () => {
    const ui = userEvent.setup();
    const prefs = { tradeCompleted: true, tradeFailed: true, tradingPaused: true, maxLoss: true, killSwitch: true };
    const { calls } = renderApp('/settings', {
      user: testUser(),
      handler: (m, p, body) => {
        if (p === '/api/notifications/preferences' && m === 'GET')
          return { body: { success: true, preferences: prefs, devices: 0 } };
        if (p === '/api/notifications/preferences' && m === 'PUT')
          return { body: { success: true, preferences: { ...prefs, ...(body as object) }, devices: 0 } };
        if (p === '/api/notifications/test')
          return {
            status: 409,
            body: {
              success: false,
              message: 'No device of yours receives notifications yet. Turn notifications on for this device first.',
            },
          };
        return undefined;
      },
    });
    await ui.click(await screen.findByRole('tab', { name: 'Notifications' }));
    // jsdom has no service worker or PushManager: the device cannot subscribe, and says so.
    expect(await screen.findByText(/This browser cannot receive notifications/)).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Turn on notifications' }) as HTMLButtonElement).disabled).toBe(true);
    await ui.click(await screen.findByLabelText('Trade completed'));
    expect(await screen.findByText('Notification preferences saved')).toBeTruthy();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ tradeCompleted: false });
    expect((screen.getByLabelText('Trade completed') as HTMLInputElement).checked).toBe(false);
    await ui.click(screen.getByRole('button', { name: 'Send a test notification' }));
    expect(
      await screen.findByText(
        'No device of yours receives notifications yet. Turn notifications on for this device first.',
      ),
    ).toBeTruthy();
  });
});

describe('Settings: Deriv', () => {
  const two = {
    api: 'new' as const,
    accountId: '',
    accounts: [
      { accountId: 'DOT5003', type: 'demo' as const, currency: 'USD', balance: 10000, status: 'active' as const },
      { accountId: 'ROT5004', type: 'real' as const, currency: 'USD', balance: 25.5, status: 'active' as const },
    ],
    checkedAt: '2026-01-02T03:04:05.000Z',
  };

  it('says which tokens the field takes, and answers malformed ones with field messages before sending', async () => {
    const ui = userEvent.setup();
    const { calls } = renderApp('/settings', { user: testUser() });
    expect(await screen.findByText(/A personal access token \(new API: developers\.deriv\.com/)).toBeTruthy();
    expect(screen.getByTestId('deriv-status').textContent).toBe(
      'Deriv: not checked yet. Save the token, then press Test Connection.',
    );
    await ui.type(screen.getByLabelText('Deriv Token'), 'has space');
    await ui.type(screen.getByLabelText('Deriv App ID'), 'my-app');
    await ui.click(screen.getByRole('button', { name: 'Save Token' }));
    expect(await screen.findByText('The Deriv token has spaces in it: paste it again without them')).toBeTruthy();
    expect(screen.getByText('The Deriv app ID has only letters and digits')).toBeTruthy();
    expect(screen.getByLabelText('Deriv App ID').getAttribute('aria-invalid')).toBe('true');
    expect(calls.some((c) => c.path.endsWith('/api-keys'))).toBe(false);
  });

  it('saves a personal access token with its alphanumeric app ID', async () => {
    const ui = userEvent.setup();
    const user = testUser();
    const { calls } = renderApp('/settings', {
      user,
      handler: (m, p) =>
        m === 'PUT' && p.endsWith('/api-keys')
          ? { body: { success: true, user: { ...user, hasDerivToken: true, derivToken: '••••Jm2x' } } }
          : undefined,
    });
    await ui.type(await screen.findByLabelText('Deriv Token'), 'pat_KeysTrader0Kq3Vb8Hn5Jm2x');
    await ui.type(screen.getByLabelText('Deriv App ID'), 'Qx7Lm2Np9Rs4Tv6Wy8Za1');
    await ui.click(screen.getByRole('button', { name: 'Save Token' }));
    expect(await screen.findByText('API keys updated successfully')).toBeTruthy();
    expect(calls.find((c) => c.path.endsWith('/api-keys'))?.body).toEqual({
      derivToken: 'pat_KeysTrader0Kq3Vb8Hn5Jm2x',
      derivAppId: 'Qx7Lm2Np9Rs4Tv6Wy8Za1',
    });
  });

  it('after Test Connection lists the accounts, and trades only the one the user picks', async () => {
    const ui = userEvent.setup();
    const user = testUser({ hasDerivToken: true, derivToken: '••••Jm2x', derivAppId: 'Qx7Lm2Np9Rs4Tv6Wy8Za1' });
    const { calls } = renderApp('/settings', {
      user,
      handler: (m, p, body) => {
        if (p === '/api/exchanges/test-connection')
          return {
            body: {
              success: true,
              exchange: 'deriv',
              message: 'Deriv: new API, 2 accounts: choose the one to trade below',
              deriv: two,
            },
          };
        if (m === 'PUT' && p.endsWith('/api-keys'))
          return {
            body: {
              success: true,
              user: { ...user, deriv: { ...two, accountId: (body as { derivAccountId: string }).derivAccountId } },
            },
          };
        return undefined;
      },
    });
    const [, derivTest] = await screen.findAllByRole('button', { name: 'Test Connection' });
    await ui.click(derivTest as HTMLElement);
    // the toast and the status line say it
    expect(await screen.findAllByText('Deriv: new API, 2 accounts: choose the one to trade below')).toHaveLength(2);
    expect(screen.getByTestId('deriv-status').textContent).toBe(
      'Deriv: new API, 2 accounts: choose the one to trade below',
    );
    const trade = screen.getByRole('button', { name: 'Trade This Account' });
    // nothing is picked for the user: neither demo nor real
    expect(screen.getAllByRole('radio').map((r) => (r as HTMLInputElement).checked)).toEqual([false, false]);
    expect(trade.hasAttribute('disabled')).toBe(true);
    await ui.click(screen.getByRole('radio', { name: /ROT5004/ }));
    await ui.click(trade);
    expect(await screen.findByText('Deriv account ROT5004 will be traded')).toBeTruthy();
    expect(calls.find((c) => c.path.endsWith('/api-keys'))?.body).toEqual({ derivAccountId: 'ROT5004' });
    await waitFor(() =>
      expect(screen.getByTestId('deriv-status').textContent).toBe('Deriv: new API, real account ROT5004, 25.50 USD'),
    );
  });

  it("shows the Backtest's win rate as every other screen does: '—' with nothing decided (issue 20, finding 3)", async () => {
    const ui = userEvent.setup();
    const result = {
      symbol: 'BTC/USDT',
      from: '2026-03-01T00:00:00.000Z',
      to: '2026-03-02T00:00:00.000Z',
      limits: { minSpread: 0.002, maxExposure: 1000, maxLoss: 100 },
      figures: { trades: 0, winRate: 0, wonTrades: 0, decidedTrades: 0, netProfit: 0, maxDrawdown: 0, exposureUsed: 0 },
      replayed: { source: 'mids', bookTicks: 0, secondSamples: 10, minuteSamples: 0, symbols: ['BTC/USDT'] },
      stopped: null,
      openAtEnd: 0,
      equity: [],
    };
    renderApp('/settings', {
      user: testUser(),
      handler: (m, p) =>
        m === 'POST' && p === '/api/backtest' ? { body: { success: true, backtest: result } } : undefined,
    });
    await ui.click(await screen.findByRole('tab', { name: 'Backtest' }));
    await ui.click(await screen.findByRole('button', { name: 'Run backtest' }));
    const row = (await screen.findByRole('rowheader', { name: 'Win rate' })).closest('tr') as HTMLElement;
    expect(within(row).getAllByText('—')).toHaveLength(2);
    expect(within(row).queryByText('0.0%')).toBeNull();
  });
});
