// The metric sources one by one, with the cases a simulated market rarely produces: a venue refusing an order (and a
// lookup failing), optional venue methods passed through as they are, a finished trade updated twice, every exit
// reason the engine writes, the backtest results, the engine's metrics port, and METRICS_TOKEN's validation.
import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { SERVER_EVENTS } from '../../../contract/events';
import type { Trade } from '../../../contract/entities';
import { loadConfig, ConfigError } from '../../../server/config';
import type { EngineEvent } from '../../../server/engine/events';
import { createMetrics, meterBacktest, meterVenues } from '../../../server/ops/metrics';
import { exitReasonOf } from '../../../server/ops/metrics/exit-reasons';
import { InMemoryPaperBook, SimMarket, SimVenue } from '../../../server/venues';
import { VenueError, type Venue } from '../../../server/venues/types';
import { parseScrape, sum } from './prometheus-text';

const scrapeOf = async (metrics: ReturnType<typeof createMetrics>) => parseScrape((await metrics.scrape()).body);
const account = { userId: 'u-1', credentials: {} };

describe('the venue meter', () => {
  it('counts fills and refusals by kind, and times every call', async () => {
    const metrics = createMetrics();
    const market = new SimMarket({ seed: 1 });
    const paper = new InMemoryPaperBook();
    const binance = new SimVenue('binance', { market, paperBook: paper });
    const refusing = Object.assign(Object.create(new SimVenue('deriv', { market, paperBook: paper })) as Venue, {
      openLeg: async () => {
        throw new VenueError(
          'deriv',
          'insufficient-balance',
          'Your account balance is insufficient to buy this contract.',
        );
      },
      tradeRules: async () => {
        throw new Error('socket closed');
      },
    });
    const venues = meterVenues({ binance, deriv: refusing }, metrics.families);
    await expect(
      venues.deriv.openLeg(account, { clientOrderId: 'c-1', symbol: 'BTC/USDT', side: 'sell', notional: '100' }),
    ).rejects.toBeInstanceOf(VenueError);
    await expect(venues.deriv.tradeRules(account, 'BTC/USDT')).rejects.toThrow('socket closed');
    await venues.binance.balances(account);
    const s = await scrapeOf(metrics);
    expect(sum(s, 'arbitrage_venue_orders_total', { venue: 'deriv', operation: 'open', outcome: 'refused' })).toBe(1);
    expect(
      sum(s, 'arbitrage_venue_order_refusals_total', {
        venue: 'deriv',
        operation: 'open',
        reason: 'insufficient_balance',
      }),
    ).toBe(1);
    expect(
      sum(s, 'arbitrage_venue_request_errors_total', { venue: 'deriv', operation: 'trade_rules', reason: 'other' }),
    ).toBe(1);
    expect(sum(s, 'arbitrage_venue_request_duration_seconds_count', { venue: 'binance', operation: 'balances' })).toBe(
      1,
    );
    expect(sum(s, 'arbitrage_venue_request_duration_seconds_count', { venue: 'deriv', operation: 'open_order' })).toBe(
      1,
    );
    // What the meter does not time passes through untouched: the id, the quote stream, optional methods as they are.
    expect(venues.deriv.id).toBe('deriv');
    expect(venues.binance.quotes).toBe(binance.quotes);
    expect((venues.binance as Venue).watchPosition).toBe((binance as Venue).watchPosition);
    expect('openPositions' in venues.binance).toBe('openPositions' in binance);
    await binance.close();
    market.close();
  });
});

const trade = (over: Partial<Trade>): Trade => ({
  _id: 'id-1',
  tradeId: 'T-1',
  userId: 'u-1',
  symbol: 'ETH/USDT',
  status: 'pending',
  totalAmount: 100,
  arbitrageSpread: 0.004,
  actualProfit: 0,
  origin: 'auto',
  reason: null,
  legs: [],
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
  closedAt: null,
  ...over,
});

describe('engine events', () => {
  it('counts a trade once when it opens and once when it finishes, with a bounded exit reason', async () => {
    const metrics = createMetrics();
    const events$ = new Subject<EngineEvent>();
    const counting = metrics.countEvents(events$);
    const open = trade({});
    events$.next({ type: SERVER_EVENTS.newTrade, userId: 'u-1', trade: open });
    events$.next({ type: SERVER_EVENTS.tradeUpdated, userId: 'u-1', trade: { ...open, legs: [] } });
    const done = { ...open, status: 'completed' as const, reason: 'converged' };
    events$.next({ type: SERVER_EVENTS.tradeUpdated, userId: 'u-1', trade: done });
    events$.next({ type: SERVER_EVENTS.tradeUpdated, userId: 'u-1', trade: done });
    events$.next({
      type: SERVER_EVENTS.notice,
      userId: 'u-1',
      notice: { level: 'warning', message: 'Trading paused: three failed trades in a row.' },
    });
    counting.unsubscribe();
    const s = await scrapeOf(metrics);
    expect(sum(s, 'arbitrage_trades_opened_total', { symbol: 'ETH/USDT', origin: 'auto' })).toBe(1);
    expect(sum(s, 'arbitrage_trades_finished_total')).toBe(1);
    expect(sum(s, 'arbitrage_trades_finished_total', { status: 'completed', reason: 'converged' })).toBe(1);
    expect(sum(s, 'arbitrage_engine_notices_total', { level: 'warning' })).toBe(1);
  });

  it.each([
    ['completed', 'converged', 'converged'],
    ['completed', 'time limit', 'time_limit'],
    ['completed', 'stop: spread widened', 'stop'],
    ['completed', 'Deriv stopped the contract out', 'stop_out'],
    ['completed', 'Deriv sold the contract (not ordered by the engine)', 'venue_closed'],
    ['completed', 'stop & flatten', 'flattened'],
    ['cancelled', 'cancelled by user', 'closed_by_user'],
    ['completed', 'closed by you', 'closed_by_user'],
    ['cancelled', 'max loss reached', 'max_loss'],
    ['cancelled', 'account deleted by an admin', 'closed_by_admin'],
    ['cancelled', 'account deactivated', 'closed_by_admin'],
    ['cancelled', 'user deleted', 'closed_by_admin'],
    ['cancelled', null, 'not_placed'],
    ['failed', 'deriv refused the order: Your account balance is insufficient (T-9 of 7f3e…)', 'leg_failed'],
    ['completed', 'something new', 'other'],
  ] as const)('maps %s "%s" to %s', (status, reason, expected) => {
    expect(exitReasonOf({ status, reason })).toBe(expected);
  });
});

describe('the backtest meter and the engine port', () => {
  it('counts results and times only the runs that reached a worker', async () => {
    const metrics = createMetrics();
    const m = metrics.families;
    await meterBacktest(m, async () => ({ ok: false, reason: 'busy', message: 'Other backtests are running' }));
    let running = 0;
    await meterBacktest(m, async () => {
      running = (await m.backtestsRunning.get()).values[0]?.value ?? 0;
      return { ok: false, reason: 'timeout', message: 'too long' };
    });
    await expect(meterBacktest(m, async () => Promise.reject(new Error('worker died')))).rejects.toThrow();
    metrics.engine.decided('BTC/USDT', 'below_min_spread');
    metrics.engine.decided('BTC/USDT', 'below_min_spread');
    const s = await scrapeOf(metrics);
    expect(running).toBe(1);
    expect(sum(s, 'arbitrage_backtests_running')).toBe(0);
    expect(sum(s, 'arbitrage_backtests_total', { result: 'busy' })).toBe(1);
    expect(sum(s, 'arbitrage_backtests_total', { result: 'timeout' })).toBe(1);
    expect(sum(s, 'arbitrage_backtests_total', { result: 'failed' })).toBe(1);
    expect(sum(s, 'arbitrage_backtest_duration_seconds_count')).toBe(2);
    expect(sum(s, 'arbitrage_decisions_total', { symbol: 'BTC/USDT', outcome: 'below_min_spread' })).toBe(2);
  });
});

describe('METRICS_TOKEN', () => {
  it('is optional and must be long enough and printable', () => {
    expect(loadConfig({}).metricsToken).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: 'a'.repeat(32) }).metricsToken).toBe('a'.repeat(32));
    for (const bad of ['short', 'has spaces in it 123456'])
      expect(() => loadConfig({ METRICS_TOKEN: bad })).toThrow(ConfigError);
  });
});
