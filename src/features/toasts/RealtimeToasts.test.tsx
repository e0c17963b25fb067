import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'react-toastify';
import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { Trade } from '../../../contract/entities';
import { renderApp, testUser } from '../../../tests/setup/renderApp';
import type { ServerEvent } from '../../services/realtime/socketLink';
import { showTradeToast, tradeToastId } from './tradeToast';

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
/** Whether a toast's 5 s countdown bar is hidden (it does not close by itself). */
const countdownHidden = (t: Element) =>
  t.querySelector('.Toastify__progress-bar--wrp')?.getAttribute('data-hidden') ?? null;
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

  it('keeps one toast per trade while toasts wait their turn: it comes on screen with the result, ending with the P&L', async () => {
    const events = new Subject<ServerEvent>();
    renderApp('/dashboard', { user: testUser(), events });
    await screen.findByTestId('stat-win-rate');
    // Three open trades fill the screen's three places; their toasts stay while the trades are open.
    act(() => {
      for (let n = 11; n <= 13; n++) events.next({ name: 'new_trade', payload: trade(n) });
    });
    await waitFor(() => expect(toasts()).toHaveLength(3));
    // No countdown on an open trade's toast: it stays to carry the result.
    expect(toasts().map(countdownHidden)).toEqual(['true', 'true', 'true']);
    // A fourth trade opens and closes while its toast waits; the user's own create answer comes in late.
    act(() => {
      events.next({ name: 'new_trade', payload: trade(14, { symbol: 'ETH/USDT' }) });
      events.next({ name: 'trade_updated', payload: trade(14, { symbol: 'ETH/USDT' }) });
      events.next({
        name: 'trade_updated',
        payload: trade(14, { symbol: 'ETH/USDT', status: 'completed', actualProfit: -0.65, reason: 'stop & flatten' }),
      });
    });
    showTradeToast(trade(14)._id, 'Trade created successfully', 'success');
    // The three open trades' toasts are swiped away (jsdom plays no animation: its end is announced by hand).
    for (let n = 11; n <= 13; n++) act(() => toast.dismiss(tradeToastId(trade(n)._id)));
    for (const t of toasts()) fireEvent.animationEnd(t);

    const shown = await screen.findByText('Trade ETH/USDT: Closed — flattened · -$0.65');
    expect(shown.textContent).toMatch(/· -\$0\.65$/);
    await waitFor(() => expect(toasts()).toHaveLength(1));
    expect(toasts().filter((t) => t.textContent?.includes('ETH/USDT'))).toHaveLength(1);
    expect(screen.queryByText(/Trade ETH\/USDT: Open/)).toBeNull();
    expect(screen.queryByText('Trade created successfully')).toBeNull();
    // The result counts down its 5 s (the timer is given as the queued toast comes on screen, a render later).
    await waitFor(() => expect(countdownHidden(shown.closest('.Toastify__toast') as Element)).toBe('false'));
  });

  it('never lets a late answer take the place of the result it shows', async () => {
    const events = new Subject<ServerEvent>();
    renderApp('/dashboard', { user: testUser(), events });
    await screen.findByTestId('stat-win-rate');
    act(() => events.next({ name: 'new_trade', payload: trade(21) }));
    await screen.findByText('Trade BTC/USDT: Open');
    act(() =>
      events.next({
        name: 'trade_updated',
        payload: trade(21, { status: 'completed', actualProfit: 0, reason: 'closed by you' }),
      }),
    );
    // A result of exactly nothing is said too: a closed trade's toast always ends with its P&L.
    expect(await screen.findByText('Trade BTC/USDT: Closed by you · $0.00')).toBeTruthy();
    act(() => events.next({ name: 'new_trade', payload: trade(22, { symbol: 'ETH/USDT' }) }));
    await screen.findByText('Trade ETH/USDT: Open');
    // The answer to the user's own Close arrives after the close event; then another trade's toast updates, which
    // react-toastify applies after any update asked before it.
    act(() => showTradeToast(trade(21)._id, 'Closing BTC/USDT: both legs', 'info'));
    act(() => events.next({ name: 'trade_updated', payload: trade(22, { symbol: 'ETH/USDT', status: 'failed' }) }));
    await screen.findByText('Trade ETH/USDT: Failed');
    expect(screen.getByText('Trade BTC/USDT: Closed by you · $0.00')).toBeTruthy();
    expect(toasts()).toHaveLength(2);
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
