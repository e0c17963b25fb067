// Recorded books as the replay reads them: both venues' bid and ask at the engine's own ticks (spread_books), with
// each quote's own time, so the replay hands the engine's decision core the very ticks the engine decided on. Ranges
// recorded before the books existed have only mids (history.ts); a backtest replays mids up to the first book of each
// symbol and the books from there on, merged into one time line here.
import type { SymbolId } from '../../../contract/domain';
import { catalogueIndex, symbolAtIndex } from '../../../contract/pairs';
import type { Quote } from '../../venues/types';
import { quotesOf, type HistoryColumns } from './history';

/** Ticks in columns, oldest first (ties: symbols in the catalogue's order, a symbol's ticks in the engine's order). */
export interface BookColumns {
  /** The engine's clock at the tick, ms since epoch. */
  t: Float64Array;
  /** Index into the pair catalogue (contract/pairs.ts). */
  symbol: Uint8Array;
  binanceBid: Float64Array;
  binanceAsk: Float64Array;
  /** The venue's own time of the quote, ms since epoch. */
  binanceTs: Float64Array;
  derivBid: Float64Array;
  derivAsk: Float64Array;
  derivTs: Float64Array;
}

/** One symbol's recorded ticks, as the repository reads them. */
export interface BookSeriesInput {
  symbol: SymbolId;
  t: readonly number[];
  binanceBid: readonly number[];
  binanceAsk: readonly number[];
  binanceTs: readonly number[];
  derivBid: readonly number[];
  derivAsk: readonly number[];
  derivTs: readonly number[];
}

const FIELDS = ['binanceBid', 'binanceAsk', 'binanceTs', 'derivBid', 'derivAsk', 'derivTs'] as const;

export function emptyBooks(n = 0): BookColumns {
  return {
    t: new Float64Array(n),
    symbol: new Uint8Array(n),
    binanceBid: new Float64Array(n),
    binanceAsk: new Float64Array(n),
    binanceTs: new Float64Array(n),
    derivBid: new Float64Array(n),
    derivAsk: new Float64Array(n),
    derivTs: new Float64Array(n),
  };
}

/** Per-symbol series merged into one time line (a k-way merge that keeps each symbol's own order). */
export function mergeBooks(series: readonly BookSeriesInput[]): BookColumns {
  const ordered = [...series].sort((a, b) => catalogueIndex(a.symbol) - catalogueIndex(b.symbol));
  const columns = emptyBooks(ordered.reduce((sum, s) => sum + s.t.length, 0));
  const at = ordered.map(() => 0);
  for (let out = 0; out < columns.t.length; out += 1) {
    let pick = -1;
    for (let k = 0; k < ordered.length; k += 1) {
      if (at[k]! >= ordered[k]!.t.length) continue;
      if (pick < 0 || ordered[k]!.t[at[k]!]! < ordered[pick]!.t[at[pick]!]!) pick = k;
    }
    const s = ordered[pick]!;
    const i = at[pick]!;
    columns.t[out] = s.t[i]!;
    columns.symbol[out] = catalogueIndex(s.symbol);
    for (const field of FIELDS) columns[field][out] = s[field][i]!;
    at[pick] = i + 1;
  }
  return columns;
}

/** One recorded engine tick: the two quotes it paired and the engine's clock. */
export interface BookTick {
  kind: 'tick';
  at: number;
  symbol: SymbolId;
  binance: Quote;
  deriv: Quote;
}

/** What the replay is fed: a venue quote rebuilt from a mid, or a recorded engine tick. */
export type ReplayInput = Quote | BookTick;

export function* booksOf(columns: BookColumns): Generator<BookTick> {
  for (let i = 0; i < columns.t.length; i += 1) {
    const symbol = symbolAtIndex(columns.symbol[i]!);
    yield {
      kind: 'tick',
      at: columns.t[i]!,
      symbol,
      binance: {
        venue: 'binance',
        symbol,
        bid: columns.binanceBid[i]!,
        ask: columns.binanceAsk[i]!,
        ts: columns.binanceTs[i]!,
      },
      deriv: { venue: 'deriv', symbol, bid: columns.derivBid[i]!, ask: columns.derivAsk[i]!, ts: columns.derivTs[i]! },
    };
  }
}

const timeOf = (input: ReplayInput): number => ('kind' in input ? input.at : input.ts);

/** Mids (rebuilt into quotes) and books in one time line; a mid comes first at an equal time. */
export function* replayInputs(mids: HistoryColumns, books: BookColumns): Generator<ReplayInput> {
  const a = quotesOf(mids);
  const b = booksOf(books);
  let x = a.next();
  let y = b.next();
  while (!x.done || !y.done) {
    if (!x.done && (y.done || timeOf(x.value) <= timeOf(y.value))) {
      yield x.value;
      x = a.next();
    } else if (!y.done) {
      yield y.value;
      y = b.next();
    }
  }
}
