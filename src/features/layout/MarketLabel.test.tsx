import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { MarketInfo } from '../../../contract/entities';
import { createUserCache } from '../../cache/db';
import { renderApp, testUser } from '../../../tests/setup/renderApp';
import { marketPaceLine } from './MarketLabel';

const answering = (market: MarketInfo) => (m: string, p: string) =>
  m === 'GET' && p === '/api/meta' ? { body: { success: true, market } } : undefined;

describe('the market label in the app layout', () => {
  it.each([
    {
      market: { kind: 'sim', simProfile: 'calibrated' } as MarketInfo,
      text: 'Simulated market — calibrated',
      tone: 'calibrated',
    },
    {
      market: { kind: 'sim', simProfile: 'demo' } as MarketInfo,
      text: 'Simulated market — demo: opportunities are exaggerated',
      tone: 'demo',
    },
    { market: { kind: 'live', simProfile: null } as MarketInfo, text: 'Live market', tone: 'live' },
  ])('says "$text" on every screen', async ({ market, text, tone }) => {
    renderApp('/dashboard', { user: testUser(), handler: answering(market) });
    const label = await screen.findByTestId('market-label');
    expect(label.textContent).toBe(text);
    expect(label.getAttribute('data-market')).toBe(tone);
  });

  it('says it offline too, from the cache of the last answer', async () => {
    const first = renderApp('/trades', { user: testUser(), handler: answering({ kind: 'sim', simProfile: 'demo' }) });
    await screen.findByText('Simulated market — demo: opportunities are exaggerated');
    // The answer is cached a moment after it is seen live: wait until it is, then come back without the server.
    const cache = createUserCache(testUser()._id);
    await expect.poll(async () => (await cache.readSnapshot<MarketInfo>('market'))?.data.simProfile).toBe('demo');
    cache.close();
    first.unmount();
    renderApp('/trades', {
      user: testUser(),
      handler: (_m, p) =>
        p === '/api/meta' ? { status: 503, body: { success: false, message: 'unreachable' } } : undefined,
    });
    expect((await screen.findByTestId('market-label')).textContent).toBe(
      'Simulated market — demo: opportunities are exaggerated',
    );
  });

  it("says the calibrated market's measured pace under its label, and how to see the demo", async () => {
    const market: MarketInfo = {
      kind: 'sim',
      simProfile: 'calibrated',
      pace: { perDay: 2.4, days: 5, threshold: 0.0035 },
    };
    renderApp('/dashboard', { user: testUser(), handler: answering(market) });
    expect((await screen.findByTestId('market-pace')).textContent).toBe(
      'About 2.4 opportunities a day over the last 5 days recorded. To see trades often, start the server with SIM_PROFILE=demo.',
    );
    expect(screen.getByTestId('market-label').textContent).toBe('Simulated market — calibrated');
  });
});

describe('marketPaceLine', () => {
  const calibrated = (pace: MarketInfo['pace']): MarketInfo => ({ kind: 'sim', simProfile: 'calibrated', pace });
  it.each([
    { pace: { perDay: 1, days: 1, threshold: 0.0035 }, text: 'About 1 opportunity a day over the one day recorded.' },
    { pace: { perDay: 0, days: 3, threshold: 0.0035 }, text: 'No opportunities over the last 3 days recorded.' },
    { pace: { perDay: 14.6, days: 7, threshold: 0.0035 }, text: 'About 15 opportunities a day over the last 7 days' },
    { pace: null, text: 'Real-market pace: opportunities are rare.' },
  ])('$text', ({ pace, text }) => {
    const line = marketPaceLine(calibrated(pace));
    expect(line).toContain(text);
    expect(line).toContain('SIM_PROFILE=demo');
  });
  it('says nothing on the demo profile or the live market', () => {
    expect(marketPaceLine({ kind: 'sim', simProfile: 'demo' })).toBeNull();
    expect(marketPaceLine({ kind: 'live', simProfile: null })).toBeNull();
  });
});
