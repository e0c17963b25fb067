import type { SymbolId, TradeStatus } from '../../contract/domain';
import type { Trade } from '../../contract/entities';

// Test data: a user's trade history, newest first, one trade a minute ending at `end`.
export function makeTrades(
  n: number,
  opts: { end?: number; status?: (i: number) => TradeStatus; prefix?: string } = {},
): Trade[] {
  const end = opts.end ?? Date.UTC(2026, 10, 21, 10, 0, 0);
  const prefix = opts.prefix ?? 't';
  return Array.from({ length: n }, (_, i) => {
    const symbol: SymbolId = i % 3 === 0 ? 'ETH/USDT' : 'BTC/USDT';
    const trade: Trade = {
      _id: `${prefix}${String(n - i).padStart(6, '0')}`,
      tradeId: `${prefix}-trade-${n - i}`,
      userId: 'u1',
      symbol,
      status: opts.status?.(i) ?? (i % 4 === 0 ? 'failed' : 'completed'),
      totalAmount: 250,
      arbitrageSpread: 0.004,
      actualProfit: i % 4 === 0 ? 0 : 0.5,
      origin: 'auto',
      reason: null,
      legs: [],
      createdAt: new Date(end - i * 60_000).toISOString(),
      updatedAt: new Date(end - i * 60_000).toISOString(),
      closedAt: null,
    };
    return trade;
  });
}

/** A fake GET /trades over a fixed history (newest first), counting calls. */
export function fakeTradesApi(history: () => Trade[]) {
  const calls: Array<{ page: number; limit: number }> = [];
  const fetchPage = async (page: number, limit: number) => {
    calls.push({ page, limit });
    const all = history();
    const trades = all.slice((page - 1) * limit, page * limit);
    return {
      trades,
      pagination: { current: page, pages: Math.max(1, Math.ceil(all.length / limit)), total: all.length },
    };
  };
  return { fetchPage, calls };
}
