import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { RiskSummary } from '../../../contract/entities';
import type { FlattenResponse, TradingHaltState } from '../../../contract/guard';
import { ENGINE_STATUS_LABELS, engineStatusOf } from '../../../contract/trading-state';
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

describe('the risk strip after Stop & flatten', () => {
  const risk = (stop: RiskSummary['stop'], reason: string | null): RiskSummary => ({
    state: stop === 'paused' ? 'paused' : 'off',
    stop,
    reason,
    since: reason ? '2026-11-24T00:00:00.000Z' : null,
    realised: -12,
    peak: 0,
    drawdown: 12,
    maxLoss: 100,
    exposure: 0,
    maxExposure: 1000,
    windowStart: '2026-11-24T00:00:00.000Z',
  });

  it('reads the engine state again as soon as the flatten answers, with no trade left to send an event', async () => {
    const ui = userEvent.setup();
    const paused = 'a leg could not be placed (3 failed trades in a row)';
    // Paused by the engine after failures, no trade open: the flatten closes nothing, so no trade event follows it.
    let stored = risk('paused', paused);
    const answer: FlattenResponse = {
      success: true,
      message: 'Automated trading stopped; no trade was open.',
      closed: 0,
      stillClosing: 0,
      trades: [],
    };
    renderApp('/dashboard', {
      user: testUser({ tradingEnabled: false, tradingStop: 'paused', tradingPauseReason: paused }),
      handler: (m, p) => {
        if (m === 'GET' && p === '/api/trades/stats/risk') return { body: { success: true, risk: stored } };
        if (m === 'POST' && p === '/api/exchanges/trading/stop-and-flatten') {
          stored = risk('flattened', 'stop & flatten');
          return { body: answer };
        }
        return undefined;
      },
    });
    const engine = await screen.findByTestId('risk-engine');
    await waitFor(() => expect(engine.textContent).toContain(ENGINE_STATUS_LABELS.paused));
    await ui.click(screen.getByRole('button', { name: 'Stop & flatten' }));
    await ui.click(screen.getByRole('button', { name: 'Confirm' }));
    const off = engineStatusOf({ stop: 'flattened', globalHalt: false });
    await waitFor(() => expect(screen.getByTestId('risk-engine').textContent).toContain(off.sentence));
    expect(screen.getByTestId('risk-engine').textContent).not.toContain(ENGINE_STATUS_LABELS.paused);
  });
});
