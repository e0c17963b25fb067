import type { SymbolId } from '../../../contract/domain';
import type { Prices } from '../../../contract/entities';

/**
 * The order of the many-pairs list: the user's own pairs first, then the rest; within each, the widest spread (either
 * way) first, a pair without a spread last; ties in the server's order.
 */
export function sortedPairs(pairs: readonly SymbolId[], mine: readonly SymbolId[], prices: Prices): SymbolId[] {
  const width = (s: SymbolId): number => {
    const spread = prices[s]?.spread;
    return spread === null || spread === undefined || !Number.isFinite(spread) ? -1 : Math.abs(spread);
  };
  return pairs
    .map((symbol, index) => ({ symbol, index, mine: mine.includes(symbol), width: width(symbol) }))
    .sort((a, b) => Number(b.mine) - Number(a.mine) || b.width - a.width || a.index - b.index)
    .map((p) => p.symbol);
}
