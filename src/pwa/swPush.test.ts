import { describe, expect, it } from 'vitest';
import { clickTarget, notificationFor } from '../../sw/push';

const origin = 'https://app.example';

describe('service worker push', () => {
  it('shows the message’s title and body, keyed by its tag, with where a click leads', () => {
    const shown = notificationFor(
      JSON.stringify({
        kind: 'tradeCompleted',
        title: 'Trade completed: BTC/USDT +1.25 USDT',
        body: 'T-1',
        url: '/trades',
        tag: 'trade-1',
        at: '2026-01-01T00:00:00.000Z',
      }),
    );
    expect(shown.title).toBe('Trade completed: BTC/USDT +1.25 USDT');
    expect(shown.options).toMatchObject({
      body: 'T-1',
      tag: 'trade-1',
      data: { url: '/trades', kind: 'tradeCompleted' },
      timestamp: Date.UTC(2026, 0, 1),
    });
  });

  it.each([null, '', 'not json', '{"title":3}'])('still shows something for an unreadable payload (%s)', (text) => {
    expect(notificationFor(text).title).toBe('Arbitrage');
  });

  it.each([
    ['/trades', `${origin}/trades`],
    ['/settings', `${origin}/settings`],
    ['https://evil.example/phish', `${origin}/dashboard`],
    ['//evil.example/x', `${origin}/dashboard`],
    [42, `${origin}/dashboard`],
  ])('opens %s as %s', (url, expected) => {
    expect(clickTarget(url, origin)).toBe(expected);
  });
});
