import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Trade } from '../../contract/entities';
import { renderApp, testUser } from '../../tests/setup/renderApp';
import { tone } from '../ui/ui.css';

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
  it("dates each trade in the user's time zone", async () => {
    const answer = (m: string, p: string) =>
      m === 'GET' && p === '/api/trades'
        ? { body: { success: true, trades: [trade(5)], pagination: { current: 1, pages: 1, total: 1 } } }
        : undefined;
    const shown = async () =>
      within((await screen.findAllByTestId('trade-row'))[0]!).getByText(/^Nov \d\d, \d\d:\d\d$/).textContent;
    const first = renderApp('/trades', { user: testUser({ timeZone: 'Asia/Kolkata' }), handler: answer });
    // 10:05 UTC is 15:35 in India (UTC+5:30)…
    expect(await shown()).toBe('Nov 21, 15:35');
    first.unmount();
    // …and 02:05 in Los Angeles (PST, UTC−8).
    renderApp('/trades', { user: testUser({ timeZone: 'America/Los_Angeles' }), handler: answer });
    expect(await shown()).toBe('Nov 21, 02:05');
  });

  it("shows no result for an open trade (no '▲ $0.00') and a cancelled trade's result in neutral colour", async () => {
    renderApp('/trades', {
      user: testUser(),
      handler: (m, p) =>
        m === 'GET' && p === '/api/trades'
          ? {
              body: {
                success: true,
                trades: [
                  trade(1, { status: 'pending', actualProfit: 0 }),
                  trade(2, { status: 'cancelled', actualProfit: 0.42 }),
                  trade(3, { status: 'completed', actualProfit: 0.42 }),
                ],
                pagination: { current: 1, pages: 1, total: 3 },
              },
            }
          : undefined,
    });
    await screen.findByTestId('trades-table');
    // Newest first: completed (T3), cancelled (T2), pending (T1).
    const [completed, cancelled, pending] = screen
      .getAllByTestId('trade-row')
      .map((r) => within(r).getByTestId('trade-profit'));
    expect(pending?.textContent).toBe('—');
    expect(completed?.textContent).toBe('▲ $0.42');
    expect(cancelled?.textContent).toBe('▲ $0.42');
    // Same figure, different colour: the completed one is green, the cancelled one neutral.
    expect(completed?.className).toContain(tone.profit);
    expect(cancelled?.className).toContain(tone.neutral);
    expect(cancelled?.className).not.toContain(tone.profit);
  });

  it('lines every header up with its cells: Fees sits right after Profit in both', async () => {
    renderApp('/trades', {
      user: testUser(),
      handler: (m, p) =>
        m === 'GET' && p === '/api/trades'
          ? { body: { success: true, trades: [trade(1)], pagination: { current: 1, pages: 1, total: 1 } } }
          : undefined,
    });
    const table = await screen.findByTestId('trades-table');
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent?.replace(/[↑↓↕]/g, '').trim());
    const cells = within(screen.getByTestId('trade-row')).getAllByRole('cell');
    expect(headers.indexOf('Fees')).toBe(headers.indexOf('Profit') + 1);
    expect(cells[headers.indexOf('Fees')]?.getAttribute('data-testid')).toBe('trade-fees');
    expect(within(cells[headers.indexOf('Profit')]!).getByTestId('trade-profit')).toBeTruthy();
    expect(cells[headers.indexOf('Date')]?.textContent).not.toBe('');
  });

  it('shows the pagination text, resets to page 1 on a filter change, and formats the rows', async () => {
    const ui = userEvent.setup();
    const { calls } = renderApp('/trades', {
      user: testUser(),
      handler: (m, p) => {
        if (m !== 'GET' || p !== '/api/trades') return undefined;
        return {
          body: {
            success: true,
            trades: [trade(1), trade(2, { status: 'pending' })],
            pagination: { current: 1, pages: 3, total: 45 },
          },
        };
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

  it('closes an open trade (Close, the same word as on every screen) and places a manual one', async () => {
    const ui = userEvent.setup();
    const open = trade(3, { status: 'pending' });
    const { calls } = renderApp('/trades', {
      user: testUser(),
      handler: (m, p, body) => {
        if (m === 'GET' && p === '/api/trades')
          return { body: { success: true, trades: [open], pagination: { current: 1, pages: 1, total: 1 } } };
        if (m === 'PUT' && p.endsWith('/status'))
          return { body: { success: true, trade: { ...open, status: 'cancelled' } } };
        if (m === 'POST' && p === '/api/trades')
          return { status: 201, body: { success: true, trade: { ...open, ...(body as object) } } };
        return undefined;
      },
    });
    await ui.click(await screen.findByRole('button', { name: 'Close trade T3' }));
    expect(within(screen.getByTestId('trades-table')).getByText('Open')).toBeTruthy();
    expect(await screen.findByText('Closing BTC/USDT: both legs')).toBeTruthy();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ status: 'cancelled', actualProfit: 0 });
    await ui.click(screen.getByRole('button', { name: 'Place Trade' }));
    expect(await screen.findByText('Trade created successfully')).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ symbol: 'BTC/USDT', totalAmount: 100 });
  });
});

describe('Trades view in the URL', () => {
  const answer = (trades: Trade[], pagination = { current: 1, pages: 5, total: 90 }) => ({
    body: { success: true, trades, pagination },
  });
  // Trades pages fetched, leaving out the recent-trades load every signed-in screen makes.
  const tradeCalls = (calls: { path: string }[]) =>
    calls.map((c) => c.path).filter((p) => p.startsWith('/api/trades?') && p !== '/api/trades?page=1&limit=20');
  const select = (label: string) => screen.getByLabelText(label) as HTMLSelectElement;
  const sortOf = (column: string) =>
    screen.getByRole('columnheader', { name: new RegExp(column) }).getAttribute('aria-sort');

  it('a bookmarked link opens the same filtered, sorted page', async () => {
    const { calls } = renderApp('/trades?status=failed&symbol=ETH%2FUSDT&limit=50&page=2&sort=totalAmount&dir=asc', {
      user: testUser(),
      handler: (m, p) =>
        m === 'GET' && p === '/api/trades'
          ? answer([
              trade(1, { status: 'failed', symbol: 'ETH/USDT' }),
              trade(4, { status: 'failed', symbol: 'ETH/USDT' }),
            ])
          : undefined,
    });
    await screen.findByTestId('trades-table');
    expect(calls.some((c) => c.path === '/api/trades?status=failed&symbol=ETH%2FUSDT&page=2&limit=50')).toBe(true);
    expect([select('Status').value, select('Pair').value, select('Page size').value]).toEqual([
      'failed',
      'ETH/USDT',
      '50',
    ]);
    expect(sortOf('Amount')).toBe('ascending');
    const amounts = within(screen.getByTestId('trades-table'))
      .getAllByText(/^\$10\d\.00$/)
      .map((e) => e.textContent);
    expect(amounts).toEqual(['$101.00', '$104.00']);
  });

  it('values the screen does not offer fall back to the default view', async () => {
    const { calls, router } = renderApp('/trades?status=won&symbol=DOGE&limit=7&page=-3&sort=userId&dir=up', {
      user: testUser(),
      handler: (m, p) => (m === 'GET' && p === '/api/trades' ? answer([trade(1)]) : undefined),
    });
    await screen.findByTestId('trades-table');
    // The default page (page 1, 20, no filter) is the one the first paint's snapshot carries: no page of its own.
    expect(calls.some((c) => c.path === '/api/snapshot')).toBe(true);
    expect(calls.filter((c) => c.path.startsWith('/api/trades?'))).toEqual([]);
    expect([select('Status').value, select('Pair').value, select('Page size').value]).toEqual(['', '', '20']);
    expect(sortOf('Date')).toBe('descending');
    expect(router.state.matches.at(-1)?.search).toEqual({
      status: '',
      symbol: '',
      limit: 20,
      page: 1,
      sort: 'createdAt',
      dir: 'desc',
    });
    // The address bar is cleaned to the default view's link.
    expect(router.state.location.searchStr).toBe('');
  });

  it('each change is a link: filters reset the page, sorting keeps it, back and forward walk through the views', async () => {
    const ui = userEvent.setup();
    const { calls, router } = renderApp('/trades?page=3', {
      user: testUser(),
      handler: (m, p) =>
        m === 'GET' && p === '/api/trades'
          ? answer([trade(1), trade(2)], { current: 3, pages: 5, total: 90 })
          : undefined,
    });
    await screen.findByTestId('trades-table');
    expect(tradeCalls(calls)).toContain('/api/trades?page=3&limit=20');

    await ui.selectOptions(select('Pair'), 'ETH/USDT');
    await waitFor(() => expect(router.state.location.searchStr).toBe('?symbol=ETH%2FUSDT'));
    await waitFor(() => expect(tradeCalls(calls).at(-1)).toBe('/api/trades?symbol=ETH%2FUSDT&page=1&limit=20'));

    await ui.click(within(screen.getByRole('columnheader', { name: /Amount/ })).getByRole('button'));
    await waitFor(() => expect(router.state.location.searchStr).toBe('?symbol=ETH%2FUSDT&sort=totalAmount'));
    expect(sortOf('Amount')).toBe('descending');
    const fetched = tradeCalls(calls).length;

    router.history.back();
    await waitFor(() => expect(sortOf('Date')).toBe('descending'));
    expect(router.state.location.searchStr).toBe('?symbol=ETH%2FUSDT');
    // Sorting is applied to the loaded page: going back over it fetches nothing.
    expect(tradeCalls(calls)).toHaveLength(fetched);

    router.history.back();
    await waitFor(() => expect(select('Pair').value).toBe(''));
    expect(router.state.location.searchStr).toBe('?page=3');
    await waitFor(() => expect(tradeCalls(calls).at(-1)).toBe('/api/trades?page=3&limit=20'));

    router.history.forward();
    await waitFor(() => expect(select('Pair').value).toBe('ETH/USDT'));
    await waitFor(() => expect(tradeCalls(calls).at(-1)).toBe('/api/trades?symbol=ETH%2FUSDT&page=1&limit=20'));
  });
});

describe('Trade detail', () => {
  it('is titled "Trade details" in the top bar, not the product name', async () => {
    renderApp('/trades/00000000-0000-4000-8000-00000000beef', { user: testUser() });
    expect(await screen.findByRole('heading', { level: 1, name: 'Trade details' })).toBeTruthy();
  });
});
