import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { MarketInfo } from '../../../contract/entities';
import { createUserCache } from '../../cache/db';
import { renderApp, testUser } from '../../../tests/setup/renderApp';

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
});
