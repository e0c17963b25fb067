import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { OpportunityOutcome, RiskSummary, Trade } from '../../contract/entities';
import type { ServerEvent } from '../services/realtime/socketLink';
import { renderApp, testUser } from '../../tests/setup/renderApp';

const ID = '11111111-1111-4111-8111-111111111111';
const openTrade = (): Trade => ({
  _id: ID,
  tradeId: 'T-OPEN-1',
  userId: testUser()._id,
  symbol: 'BTC/USDT',
  status: 'pending',
  totalAmount: 200,
  arbitrageSpread: 0.004,
  actualProfit: 0,
  origin: 'manual',
  reason: null,
  createdAt: new Date(Date.now() - 30_000).toISOString(),
  updatedAt: new Date().toISOString(),
  closedAt: null,
  legs: [
    {
      venue: 'binance',
      side: 'buy',
      clientOrderId: 'b1',
      venueOrderId: '9',
      status: 'open',
      open: { price: 100, quantity: 2, fee: 0.2, at: '' },
      close: null,
    },
    {
      venue: 'deriv',
      side: 'sell',
      clientOrderId: 'd1',
      venueOrderId: '8',
      status: 'open',
      open: { price: 100.4, quantity: 2, fee: 0.1, at: '' },
      close: null,
    },
  ],
});
const price = {
  symbol: 'BTC/USDT',
  binance: 100.5,
  deriv: 100.6,
  spread: 0.001,
  arbitrage: { profitable: false },
  timestamp: new Date().toISOString(),
  stale: false,
  ageMs: { binance: 300, deriv: 700 },
};
const risk: RiskSummary = {
  state: 'paused',
  reason: 'Binance refused the order three times',
  since: new Date().toISOString(),
  realised: -3,
  peak: 2,
  drawdown: 5,
  maxLoss: 100,
  exposure: 200,
  maxExposure: 1000,
  windowStart: null,
};

describe('the cockpit on the Dashboard', () => {
  it('shows an open position with its unrealised P&L and closes it with the cancel call', async () => {
    const events = new Subject<ServerEvent>();
    const { calls } = renderApp('/dashboard', {
      user: testUser(),
      events,
      handler: (m, p) => {
        if (m === 'GET' && p === '/api/trades')
          return { body: { success: true, trades: [openTrade()], pagination: { current: 1, pages: 1, total: 1 } } };
        if (m === 'GET' && p === '/api/exchanges/prices')
          return { body: { success: true, prices: { 'BTC/USDT': price } } };
        if (m === 'GET' && p === '/api/trades/stats/risk') return { body: { success: true, risk } };
        if (m === 'GET' && p === '/api/meta')
          return {
            body: {
              success: true,
              market: { kind: 'sim', simProfile: 'calibrated', tradeMaxHoldMs: 120_000, costFloor: 0.0035 },
            },
          };
        if (m === 'PUT' && p === `/api/trades/${ID}/status`)
          return { body: { success: true, trade: { ...openTrade(), status: 'pending' } } };
        return undefined;
      },
    });
    const position = await screen.findByTestId('open-position');
    // Long 2 at 100 now 100.5 (+1), short 2 at 100.4 now 100.6 (−0.4), fees 0.3: +$0.30.
    expect(await within(position).findByText('+$0.30')).toBeTruthy();
    expect(within(position).getByTestId('position-time-left').textContent).toMatch(
      /^Closes in 1:[23]\d at the latest$/,
    );
    expect(screen.getByTestId('positions-exposure').textContent).toBe('Exposure $200.00 of $1,000.00 max');

    // The risk strip: engine paused and why, drawdown and exposure against their limits, price ages.
    const strip = screen.getByTestId('risk-strip');
    expect(await within(strip).findByText('Paused')).toBeTruthy();
    expect(within(strip).getByText('Automated trading is paused: Binance refused the order three times.')).toBeTruthy();
    expect(within(strip).getByText('$5.00 of $100.00')).toBeTruthy();
    expect(within(strip).getByText('Deriv 0.7 s')).toBeTruthy();

    fireEvent.click(within(position).getByRole('button', { name: 'Close trade T-OPEN-1' }));
    await waitFor(() =>
      expect(
        calls.some(
          (c) =>
            c.method === 'PUT' &&
            c.path === `/api/trades/${ID}/status` &&
            (c.body as { status: string }).status === 'cancelled',
        ),
      ).toBe(true),
    );
    expect(await within(position).findByText('Closing…')).toBeTruthy();
    // The engine closes both legs; the cancelled trade arrives over the socket and the position leaves the panel.
    events.next({
      name: 'trade_updated',
      payload: {
        ...openTrade(),
        status: 'completed',
        actualProfit: 0.3,
        reason: 'closed by you',
        closedAt: new Date().toISOString(),
      },
    });
    await waitFor(() => expect(screen.queryByTestId('open-position')).toBeNull());
    expect(
      await within(screen.getByTestId('equity-chart')).findByText(/^Realised P&L after 1 finished trade: \$0\.30/),
    ).toBeTruthy();
  });

  it('lists each opportunity with what the engine did about it', async () => {
    const events = new Subject<ServerEvent>();
    renderApp('/dashboard', { user: testUser({ minSpread: 0.003 }), events });
    await screen.findByTestId('opportunities');
    const outcome = (o: Partial<OpportunityOutcome>): OpportunityOutcome => ({
      symbol: 'ETH/USDT',
      spread: -0.0041,
      direction: 'binance-rich',
      outcome: 'exposure_full',
      reason: 'your open trades use 1,000 of 1,000 USDT',
      tradeId: null,
      at: new Date().toISOString(),
      ...o,
    });
    events.next({ name: 'opportunity_outcome', payload: outcome({}) });
    const item = await screen.findByTestId('opportunity');
    expect(within(item).getByText('Exposure full')).toBeTruthy();
    expect(within(item).getByText('Deriv 0.41% below Binance')).toBeTruthy();
    expect(within(item).getByText('your open trades use 1,000 of 1,000 USDT')).toBeTruthy();
    expect(screen.getByText(/Your threshold: 0\.30%/)).toBeTruthy();
  });

  it("never says running while an admin's global halt is in force (issue 20, finding 1)", async () => {
    const running: RiskSummary = { ...risk, state: 'running', stop: null, reason: null, since: null };
    renderApp('/dashboard', {
      user: testUser({ tradingEnabled: true, tradingStop: null, firstName: 'Ada' }),
      handler: (m, p) => {
        if (m === 'GET' && p === '/api/trades/stats/risk') return { body: { success: true, risk: running } };
        if (m === 'GET' && p === '/api/meta')
          return {
            body: {
              success: true,
              market: { kind: 'sim', simProfile: 'calibrated' },
              halt: { halted: true, reason: 'venue outage', changedBy: 'admin', changedAt: new Date().toISOString() },
            },
          };
        return undefined;
      },
    });
    const strip = await screen.findByTestId('risk-strip');
    expect(await within(strip).findByText('Halted by an admin')).toBeTruthy();
    expect(within(strip).queryByText('Running')).toBeNull();
    const greeting = screen.getByTestId('dashboard-greeting').textContent ?? '';
    expect(greeting).toBe(
      'Welcome back, Ada. Trading is halted by an admin: no new trades open until an admin resumes it.',
    );
    expect(greeting).not.toMatch(/enabled|running/i);
  });

  it('names each stop kind in the strip: halted at max loss, off after Stop & flatten', async () => {
    const halted: RiskSummary = { ...risk, state: 'halted', stop: 'max-loss', reason: 'Max loss reached' };
    renderApp('/dashboard', {
      user: testUser(),
      handler: (m, p) =>
        m === 'GET' && p === '/api/trades/stats/risk' ? { body: { success: true, risk: halted } } : undefined,
    });
    const strip = await screen.findByTestId('risk-strip');
    expect(await within(strip).findByText('Halted — max loss reached')).toBeTruthy();
    expect(within(strip).getByText('Automated trading is halted: Max loss reached.')).toBeTruthy();
  });

  it("shows a flattened trade's realised loss as Closed — flattened, never Cancelled (finding 2)", async () => {
    const flattened: Trade = {
      ...openTrade(),
      _id: '22222222-2222-4222-8222-222222222222',
      tradeId: 'T-FLAT-1',
      status: 'cancelled',
      actualProfit: -0.65,
      reason: 'stop & flatten',
      closedAt: new Date().toISOString(),
    };
    renderApp('/dashboard', {
      user: testUser(),
      handler: (m, p) =>
        m === 'GET' && p === '/api/trades'
          ? { body: { success: true, trades: [flattened], pagination: { current: 1, pages: 1, total: 1 } } }
          : undefined,
    });
    const recent = await screen.findByTestId('recent-trades');
    expect(await within(recent).findByText('Closed — flattened')).toBeTruthy();
    expect(within(recent).queryByText(/cancelled/i)).toBeNull();
    expect(within(recent).getByTestId('trade-profit').textContent).toBe('▼ -$0.65');
  });

  it("offers Close on an open trade's detail page", async () => {
    const { calls } = renderApp(`/trades/${ID}`, {
      user: testUser(),
      handler: (m, p) => {
        if (m === 'GET' && p === `/api/trades/${ID}`) return { body: { success: true, trade: openTrade() } };
        if (m === 'PUT' && p === `/api/trades/${ID}/status`) return { body: { success: true, trade: openTrade() } };
        return undefined;
      },
    });
    const detail = await screen.findByTestId('trade-detail');
    expect(within(detail).getByTestId('trade-life').textContent).toBe('Open');
    fireEvent.click(within(detail).getByRole('button', { name: 'Close trade T-OPEN-1' }));
    await waitFor(() =>
      expect(calls.some((c) => c.method === 'PUT' && c.path === `/api/trades/${ID}/status`)).toBe(true),
    );
  });
});
