import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Trade } from '../../contract/entities';
import { renderApp, testUser } from '../../tests/setup/renderApp';

const trade = (n: number, patch: Partial<Trade> = {}): Trade => ({
  _id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  tradeId: `T${n}`,
  userId: 'u',
  symbol: 'BTC/USDT',
  status: 'completed',
  totalAmount: 100 + n,
  arbitrageSpread: 0.0031,
  actualProfit: n % 2 ? 1.5 : -0.5,
  origin: 'auto',
  reason: null,
  legs: [],
  createdAt: new Date(Date.UTC(2026, 10, 21, 10, n)).toISOString(),
  updatedAt: new Date(Date.UTC(2026, 10, 21, 10, n)).toISOString(),
  closedAt: null,
  ...patch,
});

describe('Trades screen', () => {
  it('shows the pagination text, resets to page 1 on a filter change, and formats the rows', async () => {
    const ui = userEvent.setup();
    const { calls } = renderApp('/trades', {
      user: testUser(),
      handler: (m, p) => {
        if (m !== 'GET' || p !== '/api/trades') return undefined;
        return { body: { success: true, trades: [trade(1), trade(2, { status: 'pending' })], pagination: { current: 1, pages: 3, total: 45 } } };
      },
    });
    expect(await screen.findByText('Showing 1 to 20 of 45 trades')).toBeTruthy();
    const table = screen.getByTestId('trades-table');
    expect(within(table).getByText('$101.00')).toBeTruthy();
    expect(within(table).getAllByText('0.31%')).toHaveLength(2);
    await ui.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(calls.some((c) => c.path.includes('page=2'))).toBe(true));
    await ui.selectOptions(screen.getByLabelText('Status'), 'failed');
    await waitFor(() => expect(calls.at(-1)?.path).toMatch(/status=failed&page=1&limit=20/));
  });

  it('cancels an open trade and places a manual one, with the spec toasts', async () => {
    const ui = userEvent.setup();
    const open = trade(3, { status: 'pending' });
    const { calls } = renderApp('/trades', {
      user: testUser(),
      handler: (m, p, body) => {
        if (m === 'GET' && p === '/api/trades') return { body: { success: true, trades: [open], pagination: { current: 1, pages: 1, total: 1 } } };
        if (m === 'PUT' && p.endsWith('/status')) return { body: { success: true, trade: { ...open, status: 'cancelled' } } };
        if (m === 'POST' && p === '/api/trades') return { status: 201, body: { success: true, trade: { ...open, ...(body as object) } } };
        return undefined;
      },
    });
    await ui.click(await screen.findByRole('button', { name: 'Cancel trade T3' }));
    expect(await screen.findByText('Trade status updated')).toBeTruthy();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ status: 'cancelled', actualProfit: 0 });
    await ui.click(screen.getByRole('button', { name: 'Place Trade' }));
    expect(await screen.findByText('Trade created successfully')).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ symbol: 'BTC/USDT', totalAmount: 100 });
  });
});
