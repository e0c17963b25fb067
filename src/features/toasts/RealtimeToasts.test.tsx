import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { Trade } from '../../../contract/entities';
import { renderApp, testUser } from '../../../tests/setup/renderApp';
import type { ServerEvent } from '../../services/realtime/socketLink';

const trade = (n: number, patch: Partial<Trade> = {}): Trade => ({
  _id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  tradeId: `T${n}`,
  userId: 'u',
  symbol: 'BTC/USDT',
  status: 'pending',
  totalAmount: 100,
  arbitrageSpread: 0.003,
  actualProfit: 0,
  origin: 'auto',
  reason: null,
  legs: [],
  createdAt: '2026-11-21T10:00:00.000Z',
  updatedAt: '2026-11-21T10:00:00.000Z',
  closedAt: null,
  ...patch,
});

const toasts = () => Array.from(document.querySelectorAll('.Toastify__toast'));
const opportunity = (pair: 'BTC/USDT' | 'ETH/USDT'): ServerEvent => ({
  name: 'arbitrage_opportunity',
  payload: {
    pair,
    spread: 0.004,
    binance: 100,
    deriv: 100.4,
    direction: 'deriv-rich',
    timestamp: '2026-11-21T10:00:00.000Z',
  },
});

describe('realtime toasts', () => {
  it('shows one toast per trade in the trade-life words, updated in place from Open to Closed; at most three at once', async () => {
    const events = new Subject<ServerEvent>();
    renderApp('/dashboard', { user: testUser(), events });
    await screen.findByTestId('stat-win-rate');
    act(() => events.next({ name: 'new_trade', payload: trade(1) }));
    expect(await screen.findByText('Trade BTC/USDT: Open')).toBeTruthy();
    act(() =>
      events.next({
        name: 'trade_updated',
        payload: trade(1, { status: 'completed', actualProfit: 0.5, reason: 'converged' }),
      }),
    );
    expect(await screen.findByText('Trade BTC/USDT: Closed — converged · $0.50')).toBeTruthy();
    expect(screen.queryByText('Trade BTC/USDT: Open')).toBeNull();
    expect(toasts()).toHaveLength(1);

    // Five other trades fail at once: three toasts show, the rest wait their turn.
    act(() => {
      for (let n = 2; n <= 6; n++)
        events.next({ name: 'new_trade', payload: trade(n, { symbol: 'ETH/USDT', status: 'failed' }) });
    });
    await waitFor(() => expect(toasts().length).toBe(3));
  });

  it('shows no opportunity toast until the device setting turns them on', async () => {
    const events = new Subject<ServerEvent>();
    const ui = userEvent.setup();
    const { services } = renderApp('/settings', { user: testUser(), events });
    await ui.click(await screen.findByRole('tab', { name: 'Notifications' }));
    const box = await screen.findByLabelText('Show a toast for each arbitrage opportunity');
    expect((box as HTMLInputElement).checked).toBe(false);
    act(() => events.next(opportunity('BTC/USDT')));
    // Nothing shown: a later toast proves the event was handled by then.
    act(() => events.next({ name: 'notice', payload: { level: 'info', message: 'marker' } }));
    await screen.findByText('marker');
    expect(screen.queryByText(/Arbitrage opportunity/)).toBeNull();

    await ui.click(box);
    expect(services.preferences.current.opportunityToasts).toBe(true);
    expect(JSON.parse(localStorage.getItem('preferences') ?? '{}')).toEqual({ opportunityToasts: true });
    act(() => events.next(opportunity('ETH/USDT')));
    expect(await screen.findByText('Arbitrage opportunity: ETH/USDT (0.40%)')).toBeTruthy();
  });
});
