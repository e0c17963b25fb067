// Renders the real app (route tree, services, toasts) at a path in jsdom, with a fetch that answers like the server.
import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { render } from '@testing-library/react';
import { concat, map, NEVER, of, type Observable } from 'rxjs';
import type { PublicUser } from '../../contract/entities';
import { clearUserCaches } from '../../src/cache/db';
import { showNotice } from '../../src/features/toasts/notices';
import { EntryServicesProvider } from '../../src/hooks/services';
import { createAppRouter } from '../../src/router';
import { createAppServices } from '../../src/services/appServices';
import { createAppServicesLoader } from '../../src/services/appServicesLoader';
import { createSession } from '../../src/services/session';
import type { ServerEvent } from '../../src/services/realtime/socketLink';

export type Handler = (method: string, path: string, body: unknown) => { status?: number; body: unknown } | undefined;

export const testUser = (patch: Partial<PublicUser> = {}): PublicUser => ({
  _id: '00000000-0000-4000-8000-000000000001',
  username: 'trader',
  email: 'trader@example.com',
  role: 'user',
  isActive: true,
  firstName: '',
  lastName: '',
  phone: '',
  bio: '',
  createdAt: '2026-01-02T03:04:05.000Z',
  lastLogin: null,
  binanceApiKey: '',
  binanceSecretKey: '',
  derivToken: '',
  derivAppId: '',
  deriv: { api: null, accountId: '', accounts: [], checkedAt: null },
  hasBinanceApiKey: false,
  hasBinanceSecretKey: false,
  hasDerivToken: false,
  tradingPausedAt: null,
  tradingPauseReason: null,
  timeZone: null,
  symbols: ['BTC/USDT', 'ETH/USDT'],
  maxExposure: 1000,
  minSpread: 0.002,
  maxLoss: 100,
  tradingEnabled: false,
  tradingStop: patch.tradingEnabled ? null : 'off',
  ...patch,
});

const emptyStats = {
  totalTrades: 0,
  successfulTrades: 0,
  failedTrades: 0,
  totalProfit: 0,
  netProfit: 0,
  winRate: 0,
  decidedTrades: 0,
  totalValue: 0,
};

/** Default answers for the loads every signed-in screen makes; `handler` answers first. */
function defaults(method: string, path: string): { status?: number; body: unknown } {
  if (method === 'GET' && path.startsWith('/api/trades/stats')) return { body: { success: true, stats: emptyStats } };
  if (method === 'GET' && path.startsWith('/api/balances/stats')) return { body: { success: true, stats: emptyStats } };
  if (method === 'GET' && path.startsWith('/api/trades'))
    return { body: { success: true, trades: [], pagination: { current: 1, pages: 1, total: 0 } } };
  if (method === 'GET' && path.startsWith('/api/balances')) return { body: { success: true, balance: null } };
  if (method === 'GET' && path.startsWith('/api/exchanges/prices')) return { body: { success: true, prices: {} } };
  if (method === 'GET' && path.startsWith('/api/admin/users')) return { body: { success: true, users: [] } };
  if (method === 'GET' && path === '/api/notifications')
    return { body: { success: true, notifications: [], unread: 0, nextCursor: null } };
  if (method === 'GET' && path === '/api/meta')
    return {
      body: {
        success: true,
        market: { kind: 'sim', simProfile: 'calibrated' },
        halt: { halted: false, reason: '', changedBy: '', changedAt: null },
      },
    };
  if (method === 'GET' && path === '/api/exchanges/spreads')
    return {
      body: { success: true, series: { symbol: 'BTC/USDT', from: '', to: '', resolutionSeconds: 60, points: [] } },
    };
  return { status: 404, body: { success: false, message: 'Not found' } };
}

/**
 * GET /api/snapshot as the server builds it: each part is what the fake answers for that part's own endpoint, so a
 * test that sets up /api/meta or /api/exchanges/prices sees the same figures through the snapshot. A part that fails
 * (a status ≥ 400) fails the snapshot with that answer.
 */
function snapshotOf(
  answer: (method: string, path: string) => { status?: number; body: unknown },
  user: PublicUser | undefined,
): { status?: number; body: unknown } {
  const parts = {
    profile: answer('GET', '/api/auth/profile'),
    meta: answer('GET', '/api/meta'),
    prices: answer('GET', '/api/exchanges/prices'),
    balances: answer('GET', '/api/balances'),
    stats: answer('GET', '/api/trades/stats/summary'),
    trades: answer('GET', '/api/trades'),
    risk: answer('GET', '/api/trades/stats/risk'),
    twoFactor: answer('GET', '/api/auth/2fa'),
  };
  const failed = Object.entries(parts).find(([name, a]) => (a.status ?? 200) >= 400 && !OPTIONAL_PARTS.has(name));
  if (failed) return failed[1];
  const body = <T,>(a: { status?: number; body: unknown }, pick: (b: Record<string, unknown>) => T, dflt: T): T =>
    (a.status ?? 200) >= 400 ? dflt : pick(a.body as Record<string, unknown>);
  return {
    body: {
      success: true,
      user: body(parts.profile, (b) => b.user, user),
      market: body(parts.meta, (b) => b.market, null),
      halt: body(parts.meta, (b) => b.halt, null),
      prices: body(parts.prices, (b) => b.prices, null),
      balance: body(parts.balances, (b) => b.balance, null),
      stats: body(parts.stats, (b) => b.stats, null),
      recent: body(parts.trades, (b) => ({ trades: b.trades, pagination: b.pagination }), null),
      risk: body(parts.risk, (b) => b.risk, null),
      twoFactor: body(parts.twoFactor, (b) => b.twoFactor, { enabled: false, recoveryCodesLeft: 0, required: false }),
    },
  };
}
/** Parts with no default answer here: the stored user stands in for the profile, the figures start empty. */
const OPTIONAL_PARTS = new Set(['profile', 'risk', 'twoFactor']);

/** `events`: what the realtime connection delivers once connected (none when omitted). */
export function renderApp(
  path: string,
  opts: { user?: PublicUser; handler?: Handler; events?: Observable<ServerEvent> } = {},
) {
  if (opts.user) {
    localStorage.setItem('token', 'test-token');
    localStorage.setItem('user', JSON.stringify(opts.user));
  }
  const calls: { method: string; path: string; body: unknown }[] = [];
  const fakeFetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init?.method ?? 'GET';
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ method, path: url.pathname + url.search, body });
    const answerFor = (m: string, path: string, b?: unknown) => opts.handler?.(m, path, b) ?? defaults(m, path);
    const answer =
      method === 'GET' && url.pathname === '/api/snapshot'
        ? (opts.handler?.(method, url.pathname, body) ?? snapshotOf(answerFor, opts.user))
        : answerFor(method, url.pathname, body);
    return new Response(JSON.stringify(answer.body), {
      status: answer.status ?? 200,
      headers: { 'content-type': 'application/json' },
    });
  }) as typeof fetch;

  let router: ReturnType<typeof createAppRouter> | null = null;
  // Composed as main.tsx composes the app, except that the signed-in layer is built at once (the tests read it).
  const session = createSession({
    fetch: fakeFetch,
    onSessionExpired: () => void router?.navigate({ to: '/login' }),
    notify: showNotice,
    clearUserData: (userId) => void clearUserCaches(userId),
  });
  const services = createAppServices({
    session,
    connect: () =>
      opts.events
        ? concat(
            of({ type: 'connected' as const }),
            opts.events.pipe(map((event) => ({ type: 'event' as const, event }))),
            NEVER,
          )
        : NEVER,
  });
  const appServices = createAppServicesLoader(() => Promise.resolve(services));
  session.auth.restore();
  router = createAppRouter({ session, appServices }, createMemoryHistory({ initialEntries: [path] }));
  const view = render(
    <EntryServicesProvider value={{ session, appServices }}>
      <RouterProvider router={router} />
    </EntryServicesProvider>,
  );
  return { ...view, router, services, calls };
}
