import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { FlattenResponse, TradingHaltState } from '../../../contract/guard';
import type { ServerEvent } from '../../services/realtime/socketLink';
import { renderApp, testUser } from '../../../tests/setup/renderApp';

const halted: TradingHaltState = {
  halted: true,
  reason: 'venue incident',
  changedBy: 'admin',
  changedAt: '2026-11-24T00:00:00.000Z',
};

describe('kill switches on screen', () => {
  it('shows the halt banner from /meta and removes it when the trading_halt event says resumed', async () => {
    const events = new Subject<ServerEvent>();
    renderApp('/dashboard', {
      user: testUser(),
      events,
      handler: (m, p) =>
        m === 'GET' && p === '/api/meta'
          ? { body: { success: true, market: { kind: 'sim', simProfile: 'calibrated' }, halt: halted } }
          : undefined,
    });
    expect((await screen.findByTestId('halt-banner')).textContent).toContain(
      'Trading is halted by an admin: venue incident.',
    );
    events.next({ name: 'trading_halt', payload: { ...halted, halted: false, reason: '' } });
    await waitFor(() => expect(screen.queryByTestId('halt-banner')).toBeNull());
  });

  it('Stop & flatten asks first, then shows each trade and a toast', async () => {
    const ui = userEvent.setup();
    const answer: FlattenResponse = {
      success: true,
      message: 'Automated trading stopped and 1 open trade closed.',
      closed: 1,
      stillClosing: 0,
      trades: [
        {
          _id: 't1',
          tradeId: 'T1',
          symbol: 'BTC/USDT',
          status: 'cancelled',
          actualProfit: -0.42,
          reason: 'stop & flatten',
        },
      ],
    };
    const { calls } = renderApp('/dashboard', {
      user: testUser({ tradingEnabled: true }),
      handler: (m, p) =>
        m === 'POST' && p === '/api/exchanges/trading/stop-and-flatten' ? { body: answer } : undefined,
    });
    await ui.click(await screen.findByRole('button', { name: 'Stop & flatten' }));
    expect(calls.some((c) => c.path === '/api/exchanges/trading/stop-and-flatten')).toBe(false);
    await ui.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByTestId('flatten-results')).toBeTruthy();
    expect(screen.getByTestId('flatten-results').textContent).toContain('BTC/USDT');
    expect(screen.getAllByText('Automated trading stopped and 1 open trade closed.').length).toBeGreaterThan(0);
  });
});
