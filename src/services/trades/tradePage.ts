import type { SymbolId, TradeStatus } from '../../../contract/domain';
import type { Pagination, Trade } from '../../../contract/entities';
import { reduceTrades, type TradesEvent } from '../reconcile';

export interface TradePageQuery {
  status: TradeStatus | '';
  symbol: SymbolId | '';
  page: number;
  limit: number;
}
export interface TradePage {
  trades: Trade[];
  pagination: Pagination;
}

export const pageKey = (q: TradePageQuery): string =>
  `status=${q.status}&symbol=${q.symbol}&page=${q.page}&limit=${q.limit}`;

const matches = (t: Trade, q: TradePageQuery) =>
  (!q.status || t.status === q.status) && (!q.symbol || t.symbol === q.symbol);

/**
 * Live deltas on a server page: updates replace in place (a trade whose new status no longer matches the filter stays
 * until the next fetch, so rows don't jump under the pointer); a new matching trade is prepended on page 1 and counted.
 */
export function foldTradePage(page: TradePage, e: TradesEvent, q: TradePageQuery): TradePage {
  if (e.type === 'snapshot') return { ...page, trades: e.trades };
  if (e.type === 'updated') return { ...page, trades: reduceTrades(page.trades, e, Number.MAX_SAFE_INTEGER) };
  if (!matches(e.trade, q)) return page;
  const known = page.trades.some((t) => t._id === e.trade._id || t.tradeId === e.trade.tradeId);
  if (known)
    return { ...page, trades: reduceTrades(page.trades, { type: 'updated', trade: e.trade }, Number.MAX_SAFE_INTEGER) };
  const total = page.pagination.total + 1;
  const pagination = { ...page.pagination, total, pages: Math.max(1, Math.ceil(total / q.limit)) };
  if (q.page !== 1) return { ...page, pagination };
  return { trades: [e.trade, ...page.trades].slice(0, q.limit), pagination };
}
