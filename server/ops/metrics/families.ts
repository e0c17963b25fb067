// Every metric the server exports, in one place: names with their units (Prometheus conventions), help texts, and
// label sets that are bounded by construction (venues, symbols, outcomes, statuses, route patterns; never a user id
// or a trade id). Counters are fed as things happen (HTTP hooks, engine events, the venue meter, the backtest
// wrapper); gauges read their sources when Prometheus scrapes, so nothing is computed between scrapes.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { VENUES } from '../../../contract/domain';
import { enabledSymbols } from '../../venues/enabled-pairs';
import type { Prices } from '../../../contract/entities';
import type { PoolStats } from '../../db/client';
import type { DbFigures } from './db-figures';

/** What the gauges read at scrape time; each part is null until the process attaches it (run.ts). */
export interface ScrapeSources {
  engine: { readonly isTrading: boolean; prices(minSpread: number): Prices } | null;
  realtime: { connections(): number } | null;
  pool: (() => PoolStats | null) | null;
  figures: (() => Promise<DbFigures | null>) | null;
}

const VENUE_SECONDS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const BACKTEST_SECONDS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

export function createMetricFamilies(sources: ScrapeSources) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];

  const figures = async () => (sources.figures ? await sources.figures() : null);

  return {
    registry,
    http: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP requests by method, route pattern and status code, from the request to the end of the response',
      labelNames: ['method', 'route', 'status_code'] as const,
      registers,
    }),
    socketConnections: new Gauge({
      name: 'socketio_connected_clients',
      help: 'Socket.IO clients connected to this instance',
      registers,
      collect() {
        this.set(sources.realtime?.connections() ?? 0);
      },
    }),
    decisions: new Counter({
      name: 'arbitrage_decisions_total',
      help: "Every user's decision on an opportunity: taken, or skipped and why (counted before the per-user limit)",
      labelNames: ['symbol', 'outcome'] as const,
      registers,
    }),
    outcomesPublished: new Counter({
      name: 'arbitrage_opportunity_outcomes_total',
      help: 'Opportunity outcomes sent to users (taken always; a repeated skip at most once per user and symbol a window)',
      labelNames: ['symbol', 'outcome'] as const,
      registers,
    }),
    opportunities: new Counter({
      name: 'arbitrage_opportunities_total',
      help: 'Spreads that rose above the opportunity threshold',
      labelNames: ['symbol', 'direction'] as const,
      registers,
    }),
    tradesOpened: new Counter({
      name: 'arbitrage_trades_opened_total',
      help: 'Trades recorded by the engine, by symbol and origin (auto or manual)',
      labelNames: ['symbol', 'origin'] as const,
      registers,
    }),
    tradesFinished: new Counter({
      name: 'arbitrage_trades_finished_total',
      help: 'Trades that finished, by status and exit reason',
      labelNames: ['symbol', 'status', 'reason'] as const,
      registers,
    }),
    notices: new Counter({
      name: 'arbitrage_engine_notices_total',
      help: 'Notices the engine sent to users (pauses, halts, positions it found)',
      labelNames: ['level'] as const,
      registers,
    }),
    venueOrders: new Counter({
      name: 'arbitrage_venue_orders_total',
      help: 'Orders sent to a venue, by operation (open or close) and outcome (filled or refused)',
      labelNames: ['venue', 'operation', 'outcome'] as const,
      registers,
    }),
    venueRefusals: new Counter({
      name: 'arbitrage_venue_order_refusals_total',
      help: "Orders a venue refused or that failed on the way, by the venue error's kind",
      labelNames: ['venue', 'operation', 'reason'] as const,
      registers,
    }),
    venueRequests: new Histogram({
      name: 'arbitrage_venue_request_duration_seconds',
      help: 'Round-trip time of calls to a venue (orders, lookups, balances, rules), failed ones included',
      labelNames: ['venue', 'operation'] as const,
      buckets: VENUE_SECONDS,
      registers,
    }),
    venueRequestErrors: new Counter({
      name: 'arbitrage_venue_request_errors_total',
      help: "Calls to a venue other than orders that failed, by the venue error's kind",
      labelNames: ['venue', 'operation', 'reason'] as const,
      registers,
    }),
    quoteAge: new Gauge({
      name: 'arbitrage_quote_age_seconds',
      help: "Age of each venue's latest quote per symbol, by the venue's timestamp",
      labelNames: ['venue', 'symbol'] as const,
      registers,
      collect() {
        this.reset();
        const prices = sources.engine?.prices(0) ?? {};
        for (const symbol of enabledSymbols())
          for (const venue of VENUES) {
            const age = prices[symbol]?.ageMs[venue];
            if (age !== null && age !== undefined) this.set({ venue, symbol }, age / 1000);
          }
      },
    }),
    leader: new Gauge({
      name: 'arbitrage_engine_leader',
      help: 'Whether this instance trades (holds the engine leadership, or any engine shard) (1) or stands by (0); absent without an engine',
      registers,
      collect() {
        this.reset();
        if (sources.engine) this.set(sources.engine.isTrading ? 1 : 0);
      },
    }),
    users: new Gauge({
      name: 'arbitrage_users',
      help: "Active users by the engine's state for them: running (trading), paused, halted (max loss), off",
      labelNames: ['state'] as const,
      registers,
      async collect() {
        this.reset();
        const read = await figures();
        if (read) for (const [state, count] of Object.entries(read.users)) this.set({ state }, count);
      },
    }),
    openTrades: new Gauge({
      name: 'arbitrage_open_trades',
      help: 'Trades open (pending) across all users, per symbol',
      labelNames: ['symbol'] as const,
      registers,
      async collect() {
        this.reset();
        const read = await figures();
        if (read)
          for (const symbol of enabledSymbols())
            this.set({ symbol }, read.open.find((o) => o.symbol === symbol)?.trades ?? 0);
      },
    }),
    openExposure: new Gauge({
      name: 'arbitrage_open_exposure_usdt',
      help: 'Notional of the open trades across all users, USDT, per symbol',
      labelNames: ['symbol'] as const,
      registers,
      async collect() {
        this.reset();
        const read = await figures();
        if (read)
          for (const symbol of enabledSymbols())
            this.set({ symbol }, read.open.find((o) => o.symbol === symbol)?.notional ?? 0);
      },
    }),
    globalHalt: new Gauge({
      name: 'arbitrage_trading_halted',
      help: "Whether an admin's global halt is in force (1) or not (0)",
      registers,
      async collect() {
        this.reset();
        const read = await figures();
        if (read) this.set(read.halted ? 1 : 0);
      },
    }),
    databaseUp: new Gauge({
      name: 'arbitrage_database_up',
      help: "Whether the database answered this scrape's queries within a second",
      registers,
      async collect() {
        this.set((await figures()) ? 1 : 0);
      },
    }),
    pool: new Gauge({
      name: 'arbitrage_db_pool_clients',
      help: 'PostgreSQL pool clients by state (idle, busy) and queries waiting for one; absent on the embedded database',
      labelNames: ['state'] as const,
      registers,
      collect() {
        this.reset();
        const stats = sources.pool?.();
        if (!stats) return;
        this.set({ state: 'idle' }, stats.idle);
        this.set({ state: 'busy' }, stats.total - stats.idle);
        this.set({ state: 'waiting' }, stats.waiting);
      },
    }),
    backtestsRunning: new Gauge({
      name: 'arbitrage_backtests_running',
      help: 'Backtests running in worker threads now',
      registers,
    }),
    backtests: new Counter({
      name: 'arbitrage_backtests_total',
      help: 'Backtests asked for, by result: ok, busy (refused, others running), timeout, failed',
      labelNames: ['result'] as const,
      registers,
    }),
    backtestDuration: new Histogram({
      name: 'arbitrage_backtest_duration_seconds',
      help: 'Time a backtest took in its worker thread, answered or not',
      buckets: BACKTEST_SECONDS,
      registers,
    }),
  };
}

export type MetricFamilies = ReturnType<typeof createMetricFamilies>;
