import { describe, expect, it } from 'vitest';
import { booksOf, mergeBooks, replayInputs } from './books';
import { toColumns } from './history';

const series = (symbol: 'BTC/USDT' | 'ETH/USDT', t: number[], base: number) => ({
  symbol,
  t,
  binanceBid: t.map((_, i) => base + i),
  binanceAsk: t.map((_, i) => base + i + 0.5),
  binanceTs: t.map((x) => x - 10),
  derivBid: t.map((_, i) => base + i + 1),
  derivAsk: t.map((_, i) => base + i + 2),
  derivTs: t.map((x) => x - 300),
});

describe('recorded books for the replay', () => {
  it("merges symbols into one time line, keeps each symbol's own order within a millisecond, BTC first on ties", () => {
    const books = mergeBooks([series('ETH/USDT', [100, 100, 200], 3000), series('BTC/USDT', [100, 150], 60_000)]);
    const ticks = [...booksOf(books)];
    expect(ticks.map((x) => [x.symbol, x.at, x.binance.bid])).toEqual([
      ['BTC/USDT', 100, 60_000],
      ['ETH/USDT', 100, 3000],
      ['ETH/USDT', 100, 3001],
      ['BTC/USDT', 150, 60_001],
      ['ETH/USDT', 200, 3002],
    ]);
    expect(ticks[0]).toEqual({
      kind: 'tick',
      at: 100,
      symbol: 'BTC/USDT',
      binance: { venue: 'binance', symbol: 'BTC/USDT', bid: 60_000, ask: 60_000.5, ts: 90 },
      deriv: { venue: 'deriv', symbol: 'BTC/USDT', bid: 60_001, ask: 60_002, ts: -200 },
    });
  });

  it('replays mids before books in time order, a mid first at an equal time', () => {
    const mids = toColumns([
      { t: 0, symbol: 'ETH/USDT', binance: 3000, deriv: 3001, minute: false },
      { t: 1000, symbol: 'ETH/USDT', binance: 3000, deriv: 3001, minute: false },
    ]);
    const inputs = [...replayInputs(mids, mergeBooks([series('BTC/USDT', [500, 1000], 60_000)]))];
    expect(inputs.map((x) => ('kind' in x ? `book ${x.at}` : `${x.venue} ${x.ts}`))).toEqual([
      'binance 0',
      'deriv 0',
      'book 500',
      'binance 1000',
      'deriv 1000',
      'book 1000',
    ]);
  });
});
