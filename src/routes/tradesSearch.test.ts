import { describe, expect, it } from 'vitest';
import { TRADES_SEARCH_DEFAULTS, parseTradesSearch } from './tradesSearch';

describe('Trades search params', () => {
  it('an empty search is the default view', () => {
    expect(parseTradesSearch({})).toEqual({
      status: '',
      symbol: '',
      limit: 20,
      page: 1,
      sort: 'createdAt',
      dir: 'desc',
    });
    expect(TRADES_SEARCH_DEFAULTS).toEqual(parseTradesSearch({}));
  });

  it('keeps every value the screen offers', () => {
    const search = {
      status: 'failed',
      symbol: 'ETH/USDT',
      limit: 50,
      page: 3,
      sort: 'totalAmount',
      dir: 'asc',
    } as const;
    expect(parseTradesSearch(search)).toEqual(search);
    // Hand-written links may carry numbers as text.
    expect(parseTradesSearch({ limit: '100', page: '2' })).toMatchObject({ limit: 100, page: 2 });
  });

  it.each([
    ['an unknown status', { status: 'won' }, { status: '' }],
    ['an unknown pair', { symbol: 'FOO/USDT' }, { symbol: '' }],
    ['a page size the screen does not offer', { limit: 7 }, { limit: 20 }],
    ['a page below 1', { page: -3 }, { page: 1 }],
    ['a page that is not a whole number', { page: 1.5 }, { page: 1 }],
    ['a page that is not a number', { page: 'last' }, { page: 1 }],
    ['a column that cannot be sorted', { sort: 'userId' }, { sort: 'createdAt' }],
    ['a direction that is neither', { dir: 'up' }, { dir: 'desc' }],
    ['a value of the wrong type', { status: ['failed'], symbol: 42 }, { status: '', symbol: '' }],
  ] as const)('%s falls back to the default', (_name, search, expected) => {
    expect(parseTradesSearch(search)).toEqual({ ...TRADES_SEARCH_DEFAULTS, ...expected });
  });
});
