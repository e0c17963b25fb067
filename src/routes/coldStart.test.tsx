// A signed-in cold start asks the server once for its first paint (GET /api/snapshot) and nothing twice.
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp, testUser } from '../../tests/setup/renderApp';

const price = {
  symbol: 'BTC/USDT',
  binance: 50_000,
  deriv: 50_100,
  spread: 0.002,
  arbitrage: { profitable: false },
  timestamp: '',
  stale: false,
  ageMs: { binance: 0, deriv: 0 },
};
const risk = {
  state: 'off',
  reason: null,
  since: null,
  realised: 0,
  peak: 0,
  drawdown: 0,
  maxLoss: 100,
  exposure: 0,
  maxExposure: 1000,
  windowStart: null,
};

/** The first-paint figures this test looks for, each answered by its own endpoint in the fake (and so in the snapshot). */
const handler = (m: string, p: string) => {
  if (m !== 'GET') return undefined;
  if (p === '/api/exchanges/prices') return { body: { success: true, prices: { 'BTC/USDT': price } } };
  if (p === '/api/trades/stats/risk') return { body: { success: true, risk } };
  return undefined;
};

const firstPaintEndpoints = [
  '/api/meta',
  '/api/balances',
  '/api/exchanges/prices',
  '/api/trades/stats',
  '/api/balances/stats',
  '/api/auth/2fa',
  '/api/trades?',
];
const duplicates = (paths: string[]) => paths.filter((p, i) => paths.indexOf(p) !== i);

describe('signed-in cold start', () => {
  it('paints the Dashboard from one snapshot call, with no call of the separate first-paint endpoints and none twice', async () => {
    const { calls } = renderApp('/dashboard', { user: testUser(), handler });
    expect(await within(await screen.findByTestId('price-BTC/USDT')).findByText('$50,000.00')).toBeTruthy();
    expect(await screen.findByText('No trades yet')).toBeTruthy();
    // Let the panels that start later (risk, market, halt) ask too, before counting.
    await new Promise((r) => setTimeout(r, 100));
    const paths = calls.map((c) => `${c.method} ${c.path}`);
    expect(paths.filter((p) => p === 'GET /api/snapshot')).toHaveLength(1);
    expect(calls.filter((c) => firstPaintEndpoints.some((e) => c.path.startsWith(e)))).toEqual([]);
    expect(duplicates(paths)).toEqual([]);
  });

  it("takes the snapshot's user record: settings changed elsewhere show at once", async () => {
    renderApp('/dashboard', {
      user: testUser({ tradingEnabled: false }),
      handler: (m, p) =>
        m === 'GET' && p === '/api/auth/profile'
          ? { body: { success: true, user: testUser({ tradingEnabled: true }) } }
          : handler(m, p),
    });
    expect(await screen.findByText(/Automated trading is running\./)).toBeTruthy();
  });

  it('paints the Trades page 1 from the same snapshot: the page is not asked for again', async () => {
    const { calls } = renderApp('/trades', { user: testUser(), handler });
    expect(await screen.findByText('No trades found')).toBeTruthy();
    await new Promise((r) => setTimeout(r, 100));
    const paths = calls.map((c) => `${c.method} ${c.path}`);
    expect(paths.filter((p) => p === 'GET /api/snapshot')).toHaveLength(1);
    expect(calls.filter((c) => c.path.startsWith('/api/trades?') || c.path.startsWith('/api/balances'))).toEqual([]);
    expect(duplicates(paths)).toEqual([]);
  });
});
