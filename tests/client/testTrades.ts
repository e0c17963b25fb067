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

/** The fake change feed's cursor: the trade's last change and its id, which order the feed. */
const cursorOf = (t: Trade) => `${t.updatedAt}_${t._id}`;

/**
 * A fake GET /trades and GET /trades/changes over a history (newest first), counting calls. The feed gives the trades
 * changed after the cursor, oldest change first, as the server does (without the server's settling hold-back).
 */
export function fakeTradesApi(history: () => Trade[]) {
  const changeCalls: Array<{ after: string | null; limit: number }> = [];
  const fetchChanges = async (after: string | null, limit: number) => {
    changeCalls.push({ after, limit });
    const all = history();
    const feed = all
      .filter((t) => after === null || cursorOf(t) > after)
      .sort((a, b) => (cursorOf(a) < cursorOf(b) ? -1 : 1));
    const newest = [...all].sort((a, b) => (cursorOf(a) < cursorOf(b) ? 1 : -1))[0];
    if (limit === 0) return { trades: [], cursor: newest ? cursorOf(newest) : after, more: false, total: all.length };
    const trades = feed.slice(0, limit);
    const last = trades[trades.length - 1];
    return { trades, cursor: last ? cursorOf(last) : after, more: feed.length > limit, total: all.length };
  };
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
  return { fetchPage, calls, fetchChanges, changeCalls };
}
