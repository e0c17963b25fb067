// Which of the engine's ticks are kept as books (spread_books): every tick while the spread is near an opening
// threshold or a trade on the symbol is in flight — there the engine decides, and a replay must see what it saw —
// and the first tick of each second otherwise, where nothing is decided and a second is resolution enough.
import type { SymbolId } from '../../contract/domain';
import type { SpreadBook } from '../db/repositories/spread-books';
import type { PriceTick } from '../engine/prices';

/** Near: |spread| at or above this fraction of the lowest opening threshold. */
export const NEAR_THRESHOLD_FRACTION = 0.8;
/**
 * Once near, every tick is kept for this long after the last near one: the ticks of one market instant (one venue's
 * quote, then the other's) are kept together, and a spread hovering at the edge is not cut into pieces.
 */
export const DENSE_HOLD_MS = 1000;

/** What the engine's decisions say about a symbol at a tick. */
export interface DecisionLevels {
  /** The lowest |spread| at which a user waiting on the symbol would open (Infinity when nobody waits). */
  lowestOpenThreshold(symbol: SymbolId): number;
  /** Whether a trade on the symbol is unfinished. */
  hasTradesOn(symbol: SymbolId): boolean;
}

/**
 * Whether the tick is near a decision. `floor` is the lowest threshold any user with the default fee can have (the
 * cost floor), so the books a backtest with other limits needs are kept even while nobody trades.
 */
export function nearDecision(tick: PriceTick, levels: DecisionLevels, floor: number): boolean {
  if (tick.spread === null) return false;
  if (levels.hasTradesOn(tick.symbol)) return true;
  const lowest = Math.min(floor, levels.lowestOpenThreshold(tick.symbol));
  return Math.abs(tick.spread) >= NEAR_THRESHOLD_FRACTION * lowest;
}

interface SymbolState {
  lastAt: number;
  seq: number;
  lastSecond: number;
  denseUntil: number;
}

export class BookSampler {
  private readonly states = new Map<SymbolId, SymbolState>();

  /** The row to keep for this tick (decided on at `at`), or null. */
  take(tick: PriceTick, at: number, near: boolean): SpreadBook | null {
    const { binance, deriv } = tick;
    if (!binance || !deriv) return null;
    let state = this.states.get(tick.symbol);
    if (!state) this.states.set(tick.symbol, (state = { lastAt: -1, seq: 0, lastSecond: -1, denseUntil: -1 }));
    if (near) state.denseUntil = at + DENSE_HOLD_MS;
    const dense = near || at < state.denseUntil;
    const second = Math.floor(at / 1000);
    if (!dense && second === state.lastSecond) return null;
    // A clock that stepped back would reuse a key; the row is dropped rather than written out of order.
    if (at < state.lastAt) return null;
    state.seq = at === state.lastAt ? state.seq + 1 : 0;
    state.lastAt = at;
    state.lastSecond = second;
    return {
      symbol: tick.symbol,
      t: at,
      seq: state.seq,
      binanceBid: binance.bid,
      binanceAsk: binance.ask,
      binanceTs: binance.ts,
      derivBid: deriv.bid,
      derivAsk: deriv.ask,
      derivTs: deriv.ts,
      dense,
    };
  }
}
