// GET /metrics on the real server process while it trades: only with METRICS_TOKEN, every family the dashboard and
// the README promise is there, a trade moves the engine, venue and HTTP figures, no label carries an id or anything
// else unbounded, and every metric and label the Grafana dashboard queries exists.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { io, type Socket } from 'socket.io-client';
import { afterAll, describe, expect, it } from 'vitest';
import { OPPORTUNITY_OUTCOMES, TRADE_ORIGINS, TRADE_STATUSES, VENUES } from '../../../contract/domain';
import { DEFAULT_SYMBOLS as SYMBOLS } from '../../../contract/pairs';
import { createMetrics } from '../../../server/ops/metrics';
import { EXIT_REASONS } from '../../../server/ops/metrics/exit-reasons';
import { api, poll, processRun, startServer, type ServerProcess } from '../engine/server-process';
import { familyOf, parseScrape, promqlReferences, sum, type Scrape } from './prometheus-text';

const TOKEN = 'metrics-token-for-the-test-0123456789';
const ADMIN = { username: 'admin@metrics.test', password: 'metrics-test-password' };
const DASHBOARD = resolve(import.meta.dirname, '../../../deploy/grafana/arbitrage-dashboard.json');

/** Every label value the server may export, per label name: bounded sets, known in advance. */
const VENUE_FAILURES = [
  'auth',
  'insufficient_balance',
  'rate_limit',
  'rejected',
  'unknown_outcome',
  'unavailable',
  'other',
];
const BOUNDED: Record<string, (value: string) => boolean> = {
  venue: (v) => (VENUES as readonly string[]).includes(v),
  symbol: (v) => (SYMBOLS as readonly string[]).includes(v),
  origin: (v) => (TRADE_ORIGINS as readonly string[]).includes(v),
  status: (v) => (TRADE_STATUSES as readonly string[]).includes(v),
  outcome: (v) => [...OPPORTUNITY_OUTCOMES, 'filled', 'refused'].includes(v),
  reason: (v) => [...EXIT_REASONS, ...VENUE_FAILURES].includes(v),
  direction: (v) => ['deriv-rich', 'binance-rich'].includes(v),
  operation: (v) =>
    [
      'open',
      'close',
      'open_order',
      'close_order',
      'find_order',
      'balances',
      'taker_fee',
      'trade_rules',
      'open_positions',
      'test_connection',
    ].includes(v),
  state: (v) => ['running', 'paused', 'halted', 'off', 'idle', 'busy', 'waiting'].includes(v),
  level: (v) => ['info', 'warning', 'error'].includes(v),
  result: (v) => ['ok', 'busy', 'timeout', 'failed'].includes(v),
  method: (v) => /^[A-Z]+$/.test(v),
  // Route patterns as registered (`/api/trades/:id`), never a URL with an id in it.
  route: (v) => v === 'unmatched' || /^\/[a-zA-Z0-9_/.:*-]*$/.test(v),
  status_code: (v) => /^[1-5]\d\d$/.test(v),
  le: (v) => v === '+Inf' || Number.isFinite(Number(v)),
};
/** Labels of the default process metrics (prom-client), bounded by the runtime. */
const RUNTIME_LABELS = new Set(['version', 'major', 'minor', 'patch', 'kind', 'space', 'type']);
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const TRADE_ID = /\bT-[0-9A-Za-z-]+/;

describe('GET /metrics of the real server', () => {
  const run = processRun('arb-metrics-');
  let server: ServerProcess | null = null;
  let socket: Socket | null = null;
  let scrape: Scrape;
  afterAll(async () => {
    socket?.close();
    await run.cleanup();
  });

  const get = (path: string, authorization?: string) =>
    fetch(`${server!.url}${path}`, { headers: authorization ? { authorization } : {} });
  const scrapeNow = async () => parseScrape(await (await get('/metrics', `Bearer ${TOKEN}`)).text());

  it('answers only with the token', async () => {
    server = run.server = await startServer(
      {
        ...(await run.env('pglite')),
        MARKET: 'sim',
        SIM_SEED: '77',
        TRADE_MAX_HOLD_MS: '3000',
        METRICS_TOKEN: TOKEN,
        ADMIN_EMAIL: ADMIN.username,
        ADMIN_PASSWORD: ADMIN.password,
      },
      { dislocating: true },
    );
    const missing = await get('/metrics');
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
    expect(await missing.json()).toMatchObject({ message: 'The metrics need Authorization: Bearer <METRICS_TOKEN>' });
    expect((await get('/metrics', `Bearer ${TOKEN}x`)).status).toBe(401);
    expect((await get('/metrics', TOKEN)).status).toBe(401);
    const ok = await get('/metrics', `Bearer ${TOKEN}`);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  }, 120_000);

  it('is moved by trading: trades, orders, quotes, the leader, users, sockets and requests', async () => {
    const token = (await api(server!.url, 'POST', '/api/auth/login', undefined, ADMIN)).json.token as string;
    socket = io(server!.url, { path: '/socket.io', transports: ['websocket'], auth: { token }, forceNew: true });
    await new Promise<void>((res, rej) => socket!.once('connect', res).once('connect_error', rej));
    expect((await api(server!.url, 'POST', '/api/exchanges/trading/add-user', token)).json.tradingEnabled).toBe(true);
    // An id in a URL must come out as the route's pattern.
    expect((await api(server!.url, 'GET', `/api/trades/${crypto.randomUUID()}`, token)).status).toBe(404);
    await poll(
      'a finished trade',
      async () => {
        const res = await api(server!.url, 'GET', '/api/trades?limit=20', token);
        return (res.json.trades as Array<{ status: string }>).some((t) => t.status !== 'pending');
      },
      90_000,
    );
    scrape = await poll('the finished trade in the metrics', async () => {
      const s = await scrapeNow();
      return sum(s, 'arbitrage_trades_finished_total') > 0 && s;
    });
    expect(sum(scrape, 'arbitrage_trades_opened_total', { origin: 'auto' })).toBeGreaterThan(0);
    expect(
      sum(scrape, 'arbitrage_venue_orders_total', { venue: 'binance', operation: 'open', outcome: 'filled' }),
    ).toBeGreaterThan(0);
    expect(sum(scrape, 'arbitrage_venue_orders_total', { venue: 'deriv', operation: 'open' })).toBeGreaterThan(0);
    expect(
      sum(scrape, 'arbitrage_venue_request_duration_seconds_count', { venue: 'deriv', operation: 'open_order' }),
    ).toBeGreaterThan(0);
    expect(sum(scrape, 'arbitrage_opportunities_total')).toBeGreaterThan(0);
    expect(sum(scrape, 'arbitrage_opportunity_outcomes_total', { outcome: 'taken' })).toBeGreaterThan(0);
    for (const venue of VENUES)
      for (const symbol of SYMBOLS) {
        const age = scrape.samples.find(
          (s) => s.name === 'arbitrage_quote_age_seconds' && s.labels.venue === venue && s.labels.symbol === symbol,
        );
        expect(age?.value, `${venue} ${symbol}`).toBeGreaterThanOrEqual(0);
        expect(age?.value).toBeLessThan(5);
      }
    expect(sum(scrape, 'arbitrage_engine_leader')).toBe(1);
    expect(sum(scrape, 'arbitrage_users', { state: 'running' })).toBe(1);
    expect(sum(scrape, 'arbitrage_database_up')).toBe(1);
    expect(sum(scrape, 'arbitrage_trading_halted')).toBe(0);
    expect(sum(scrape, 'socketio_connected_clients')).toBe(1);
    expect(sum(scrape, 'http_request_duration_seconds_count', { route: '/api/trades/:id', status_code: '404' })).toBe(
      1,
    );
    expect(sum(scrape, 'process_resident_memory_bytes')).toBeGreaterThan(0);
  }, 150_000);

  it('declares every family, even those without samples yet', () => {
    const declared = [...createMetrics().families.registry.getMetricsAsArray()].map((m) => m.name);
    for (const name of declared) expect(scrape.families.has(name), name).toBe(true);
    expect(declared).toEqual(
      expect.arrayContaining([
        'arbitrage_decisions_total',
        'arbitrage_open_exposure_usdt',
        'arbitrage_db_pool_clients',
        'arbitrage_backtests_running',
        'arbitrage_backtest_duration_seconds',
        'arbitrage_venue_order_refusals_total',
      ]),
    );
  });

  it('labels nothing unbounded: no ids, only known label names and values', async () => {
    const text = await (await get('/metrics', `Bearer ${TOKEN}`)).text();
    expect(text).not.toMatch(UUID);
    expect(text).not.toMatch(TRADE_ID);
    const { samples, families } = parseScrape(text);
    for (const sample of samples) {
      const family = familyOf(sample.name, families);
      expect(family, sample.name).not.toBeNull();
      const runtime = /^(process|nodejs)_/.test(sample.name);
      for (const [label, value] of Object.entries(sample.labels)) {
        if (runtime && RUNTIME_LABELS.has(label)) continue;
        const bounded = BOUNDED[label];
        expect(bounded, `label ${label} of ${sample.name}`).toBeDefined();
        expect(bounded!(value), `${sample.name}{${label}="${value}"}`).toBe(true);
      }
    }
  });

  it('has every metric and label the Grafana dashboard queries', () => {
    const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as {
      panels: Array<{ title: string; targets?: Array<{ expr: string }> }>;
      templating: { list: Array<{ definition?: string }> };
    };
    const labelsOf = new Map(
      createMetrics()
        .families.registry.getMetricsAsArray()
        .map((m) => [m.name, new Set((m as unknown as { labelNames: string[] }).labelNames)]),
    );
    const exprs = [
      ...dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => ({ where: p.title, expr: t.expr }))),
      ...dashboard.templating.list
        .filter((v) => v.definition)
        .map((v) => ({ where: 'variable', expr: /label_values\((\w+)/.exec(v.definition!)![1]! })),
    ];
    expect(exprs.length).toBeGreaterThan(25);
    for (const { where, expr } of exprs) {
      const { metrics, labels } = promqlReferences(expr);
      expect(metrics.length, `${where}: ${expr}`).toBeGreaterThan(0);
      for (const metric of metrics) {
        const family = familyOf(metric, scrape.families);
        expect(family, `${where}: ${metric}`).not.toBeNull();
        // Labels the scrape adds (instance), a histogram's bucket bound, and the metric's own label names.
        const own = labelsOf.get(family!) ?? new Set<string>();
        for (const label of labels)
          expect(label === 'instance' || label === 'le' || own.has(label), `${where}: ${label} on ${metric}`).toBe(
            true,
          );
      }
    }
    // Every family of ours is on the dashboard.
    const shown = new Set(
      exprs.flatMap(({ expr }) => promqlReferences(expr).metrics.map((m) => familyOf(m, scrape.families))),
    );
    for (const family of scrape.families.keys())
      if (/^(arbitrage|http|socketio)_/.test(family)) expect(shown.has(family), family).toBe(true);
  });
});
