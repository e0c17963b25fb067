import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Trade, TradeLeg } from '../../contract/entities';
import { renderApp, testUser } from '../../tests/setup/renderApp';

const leg = (venue: 'binance' | 'deriv', openFee: number, closeFee: number): TradeLeg => ({
  venue,
  side: venue === 'binance' ? 'buy' : 'sell',
  clientOrderId: `c-${venue}`,
  venueOrderId: null,
  status: 'closed',
  open: { price: 100, quantity: 1, fee: openFee, at: '2026-11-21T10:00:00.000Z' },
  close: { price: 101, quantity: 1, fee: closeFee, at: '2026-11-21T10:05:00.000Z' },
});

// Closed at midday UTC, so the day is the same in every zone from UTC-11 to UTC+11 the tests may run in.
const trade = (n: number, day: string, symbol: Trade['symbol'], actualProfit: number, patch: Partial<Trade> = {}) => ({
  _id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  tradeId: `T${n}`,
  userId: 'u',
  symbol,
  status: 'completed' as const,
  totalAmount: 100,
  arbitrageSpread: 0.003,
  actualProfit,
  origin: 'auto' as const,
  reason: null,
  legs: [leg('binance', 0.1, 0.1), leg('deriv', 0.05, 0.05)],
  createdAt: `${day}T11:00:00.000Z`,
  updatedAt: `${day}T12:00:00.000Z`,
  closedAt: `${day}T12:00:00.000Z`,
  ...patch,
});

const TRADES: Trade[] = [
  trade(4, '2026-11-24', 'ETH/USDT', 0, { status: 'pending', closedAt: null, legs: [leg('binance', 0.2, 0)] }),
  trade(3, '2026-11-24', 'ETH/USDT', 2),
  trade(2, '2026-11-23', 'BTC/USDT', -0.5, { status: 'failed' }),
  trade(1, '2026-11-23', 'BTC/USDT', 1.25),
];

const cells = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((c) => c.textContent);

afterEach(() => vi.restoreAllMocks());

describe('Trades screen: fees and the P&L report', () => {
  it('lists each trade with its fees and reports P&L by day, month and pair, exported as CSV', async () => {
    const user = userEvent.setup();
    renderApp('/trades', {
      user: testUser(),
      handler: (m, p) =>
        m === 'GET' && p === '/api/trades'
          ? { body: { success: true, trades: TRADES, pagination: { current: 1, pages: 1, total: TRADES.length } } }
          : undefined,
    });

    const table = await screen.findByTestId('trades-table');
    // Every fill's fee on both legs: 0.10 + 0.10 + 0.05 + 0.05; an open trade shows what it has paid so far.
    expect(
      within(table)
        .getAllByTestId('trade-fees')
        .map((c) => c.textContent),
    ).toEqual(['$0.20', '$0.30', '$0.30', '$0.30']);

    // The report reads the trades the page stored on this device.
    const report = await screen.findByTestId('pnl-report');
    const periods = await within(report).findByTestId('report-periods');
    expect(within(periods).getAllByTestId('report-periods-row').map(cells)).toEqual([
      ['Tue 24 Nov 2026', '1', '1', '$2.00', '$0.30'],
      ['Mon 23 Nov 2026', '2', '1', '$0.75', '$0.60'],
      ['Total', '3', '2', '$2.75', '$0.90'],
    ]);
    expect(within(within(report).getByTestId('report-pairs')).getAllByTestId('report-pairs-row').map(cells)).toEqual([
      ['ETH/USDT', '1', '1', '$2.00', '$0.30'],
      ['BTC/USDT', '2', '1', '$0.75', '$0.60'],
      ['Total', '3', '2', '$2.75', '$0.90'],
    ]);

    // Both days fall in the week starting Monday 23 November and in November.
    await user.click(within(report).getByRole('button', { name: 'Week' }));
    expect(within(periods).getAllByTestId('report-periods-row').map(cells)[0]).toEqual([
      'Week of 23 Nov 2026',
      '3',
      '2',
      '$2.75',
      '$0.90',
    ]);
    await user.click(within(report).getByRole('button', { name: 'Month' }));
    expect(within(report).getByRole('button', { name: 'Month' }).getAttribute('aria-pressed')).toBe('true');
    expect(within(periods).getAllByTestId('report-periods-row').map(cells)[0]).toEqual([
      'Nov 2026',
      '3',
      '2',
      '$2.75',
      '$0.90',
    ]);

    const blobs: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((b) => {
      blobs.push(b as Blob);
      return 'blob:report';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    await user.click(within(report).getByRole('button', { name: 'Export report CSV' }));
    await waitFor(() => expect(blobs).toHaveLength(1));
    expect(await blobs[0]!.text()).toBe('month,trades,won,net_pnl_usdt,fees_usdt\r\n2026-11,3,2,2.75,0.9\r\n');
  });
});
