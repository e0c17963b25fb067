import { act, screen, waitFor, within } from '@testing-library/react';
import { Subject } from 'rxjs';
import type { ServerEvent } from '../services/realtime/socketLink';
import type { VenueHealth } from '../../contract/venue-health';
import { describe, expect, it } from 'vitest';
import { renderApp, testUser } from '../../tests/setup/renderApp';

const stats = (patch: object) => ({
  success: true,
  stats: {
    totalTrades: 12,
    successfulTrades: 9,
    failedTrades: 1,
    totalProfit: 20,
    netProfit: -5,
    winRate: 72.345,
    decidedTrades: 10,
    totalValue: 30123.456,
    ...patch,
  },
});

describe('Dashboard', () => {
  it('formats the stat cards, shows the empty trades text and N/A prices', async () => {
    renderApp('/dashboard', {
      user: testUser(),
      handler: (m, p) =>
        m === 'GET' && (p === '/api/trades/stats/summary' || p === '/api/balances/stats/portfolio')
          ? { body: stats({}) }
          : undefined,
    });
    // The tile shows $0.00 until the stats answer: wait for the figure rather than race its first render.
    expect(await within(await screen.findByTestId('stat-total-value')).findByText('$30,123.46')).toBeTruthy();
    expect(await within(screen.getByTestId('stat-win-rate')).findByText('72.3%')).toBeTruthy();
    expect(within(screen.getByTestId('stat-net-profit')).getByText('-$5.00')).toBeTruthy();
    expect(await screen.findByText('No trades yet')).toBeTruthy();
    expect(screen.getByText('Trades will appear here once executed')).toBeTruthy();
    expect(within(screen.getByTestId('price-BTC/USDT')).getAllByText('N/A')).toHaveLength(3);
    expect(screen.getByRole('link', { name: 'View all' }).getAttribute('href')).toBe('/trades');
  });

  it('puts Live Prices before Recent Trades in reading order (the one-column phone layout follows it)', async () => {
    renderApp('/dashboard', { user: testUser() });
    const prices = await screen.findByTestId('live-prices');
    const recent = await screen.findByTestId('recent-trades');
    expect(prices.compareDocumentPosition(recent) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it("shows '—' for the win rate while no trade is decided, and invites the next step when there are no trades", async () => {
    renderApp('/dashboard', {
      user: testUser(),
      handler: (m, p) =>
        m === 'GET' && (p === '/api/trades/stats/summary' || p === '/api/balances/stats/portfolio')
          ? {
              body: stats({
                totalTrades: 0,
                successfulTrades: 0,
                failedTrades: 0,
                winRate: 0,
                decidedTrades: 0,
                netProfit: 0,
              }),
            }
          : undefined,
    });
    const tile = await screen.findByTestId('stat-win-rate');
    expect(await within(tile).findByText('—')).toBeTruthy();
    expect(within(tile).queryByText('0.0%')).toBeNull();
    const invite = await screen.findByTestId('dashboard-next-step');
    for (const link of within(invite).getAllByRole('link'))
      expect(link.getAttribute('href')).toMatch(/^\/(settings|trades)/);
  });

  it('highlights a price whose spread beats the user minSpread', async () => {
    const price = (symbol: string, spread: number) => ({
      symbol,
      binance: 100,
      deriv: 100 * (1 + spread),
      spread,
      arbitrage: { profitable: false },
      timestamp: '',
    });
    renderApp('/dashboard', {
      user: testUser({ minSpread: 0.003 }),
      handler: (m, p) =>
        m === 'GET' && p === '/api/exchanges/prices'
          ? {
              body: {
                success: true,
                prices: { 'BTC/USDT': price('BTC/USDT', 0.004), 'ETH/USDT': price('ETH/USDT', 0.0025) },
              },
            }
          : undefined,
    });
    const btc = await screen.findByTestId('price-BTC/USDT');
    await within(btc).findByText('$100.00');
    expect(btc.getAttribute('data-profitable')).toBe('true');
    expect(screen.getByTestId('price-ETH/USDT').getAttribute('data-profitable')).toBe('false');
    expect(within(btc).getByText(/0\.40%/)).toBeTruthy();
  });

  it('no longer highlights prices once the live link is down: they are last seen, not current', async () => {
    const events = new Subject<ServerEvent>();
    const price = {
      symbol: 'BTC/USDT',
      binance: 100,
      deriv: 101,
      spread: 0.01,
      arbitrage: { profitable: true },
      timestamp: '',
      stale: false,
      ageMs: { binance: 0, deriv: 0 },
    };
    renderApp('/dashboard', {
      user: testUser(),
      events,
      handler: (m, p) =>
        m === 'GET' && p === '/api/exchanges/prices'
          ? { body: { success: true, prices: { 'BTC/USDT': price } } }
          : undefined,
    });
    const btc = await screen.findByTestId('price-BTC/USDT');
    await waitFor(() => expect(btc.getAttribute('data-profitable')).toBe('true'));
    act(() => events.error(new Error('disconnected: transport close')));
    expect(await within(btc).findByText('Stale prices')).toBeTruthy();
    expect(btc.getAttribute('data-profitable')).toBe('false');
  });

  it('shows a stale price as stale and never highlights it (issue 9, finding 6)', async () => {
    const price = {
      symbol: 'BTC/USDT',
      binance: 100,
      deriv: 101,
      spread: 0.01,
      arbitrage: { profitable: true },
      timestamp: '',
      stale: true,
      ageMs: { binance: 0, deriv: 5000 },
    };
    renderApp('/dashboard', {
      user: testUser(),
      handler: (m, p) =>
        m === 'GET' && p === '/api/exchanges/prices'
          ? { body: { success: true, prices: { 'BTC/USDT': price } } }
          : undefined,
    });
    const btc = await screen.findByTestId('price-BTC/USDT');
    expect(await within(btc).findByText('Stale prices')).toBeTruthy();
    expect(btc.getAttribute('data-profitable')).toBe('false');
    expect(within(btc).queryByText(/profitable/)).toBeNull();
  });
});

describe('Dashboard venue health', () => {
  const report = (patch: Partial<VenueHealth> & Pick<VenueHealth, 'venue'>): VenueHealth => {
    const now = Date.now();
    return {
      state: 'connected',
      since: new Date(now - 60_000).toISOString(),
      latencyMs: 84.2,
      latencyAt: new Date(now - 2_000).toISOString(),
      probe: 'ping',
      lastError: null,
      reportedAt: new Date(now).toISOString(),
      ...patch,
    };
  };

  it('shows each venue connected with its round trip, a drop with the error and when, and last known once offline', async () => {
    const events = new Subject<ServerEvent>();
    renderApp('/dashboard', { user: testUser({ timeZone: 'UTC' }), events });
    const card = await screen.findByTestId('venue-health');
    act(() => {
      events.next({ name: 'venue_health', payload: report({ venue: 'binance', latencyMs: 84.2 }) });
      events.next({ name: 'venue_health', payload: report({ venue: 'deriv', latencyMs: 3.14 }) });
    });
    const binance = await within(card).findByTestId('venue-health-binance');
    const deriv = within(card).getByTestId('venue-health-deriv');
    expect(within(binance).getByText('Connected')).toBeTruthy();
    expect(within(binance).getByTestId('venue-latency').textContent).toMatch(/^Round trip 84 ms, measured \d s ago$/);
    expect(within(deriv).getByTestId('venue-latency').textContent).toMatch(/^Round trip 3\.1 ms/);
    expect(within(deriv).getByTestId('venue-error').textContent).toBe('No errors since the server started');

    const at = new Date(Date.now() - 5_000);
    act(() =>
      events.next({
        name: 'venue_health',
        payload: report({
          venue: 'deriv',
          state: 'disconnected',
          since: at.toISOString(),
          lastError: { message: 'Connection to Deriv lost', at: at.toISOString() },
        }),
      }),
    );
    expect(await within(deriv).findByText('Disconnected')).toBeTruthy();
    const clock = at.toISOString().slice(11, 19);
    expect(within(deriv).getByTestId('venue-error').textContent).toMatch(
      new RegExp(`^Last error ${clock} \\(\\d s ago\\): Connection to Deriv lost$`),
    );
    expect(deriv.getAttribute('data-state')).toBe('disconnected');
    expect(within(deriv).getByTestId('venue-state-line').textContent).toMatch(/^Disconnected for \d+ s$/);
    // Down, the round trip on show is the last one measured, and says so.
    expect(within(deriv).getByTestId('venue-latency').textContent).toMatch(/^Last round trip 84 ms/);

    // The live link drops: what the server last said is last known, not the state now, and its age keeps counting.
    act(() => events.error(new Error('disconnected: transport close')));
    await waitFor(() => expect(deriv.getAttribute('data-state')).toBe('unknown'));
    expect(within(deriv).getByText('Unknown — offline')).toBeTruthy();
    expect(within(binance).queryByText('Connected')).toBeNull();
    const line = () => within(deriv).getByTestId('venue-state-line').textContent;
    expect(line()).toMatch(/^Last known (just now|\d s ago): disconnected$/);
    const first = line();
    await waitFor(() => expect(line()).not.toBe(first), { timeout: 5_000 });
  });
});
