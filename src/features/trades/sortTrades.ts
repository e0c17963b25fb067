import type { Trade } from '../../../contract/entities';

/** The sortable columns of the Trades table. */
export const SORT_KEYS = ['symbol', 'status', 'totalAmount', 'arbitrageSpread', 'actualProfit', 'createdAt'] as const;
export type SortKey = (typeof SORT_KEYS)[number];
export const SORT_DIRS = ['asc', 'desc'] as const;
export interface Sort {
  key: SortKey;
  dir: (typeof SORT_DIRS)[number];
}
export const DEFAULT_SORT: Sort = { key: 'createdAt', dir: 'desc' };

/** A click sorts by the column, descending first; a second click on the same column toggles the direction. */
export function nextSort(current: Sort, key: SortKey): Sort {
  return current.key === key ? { key, dir: current.dir === 'desc' ? 'asc' : 'desc' } : { key, dir: 'desc' };
}

/** Sorting is applied on the client to the loaded page only (spec section 2). */
export function sortTrades(trades: readonly Trade[], sort: Sort): Trade[] {
  const sign = sort.dir === 'asc' ? 1 : -1;
  return [...trades].sort((a, b) => {
    const x = a[sort.key];
    const y = b[sort.key];
    const c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
    return c * sign;
  });
}

/** Up to 5 page numbers around the current page. */
export function pageWindow(current: number, pages: number, size = 5): number[] {
  const count = Math.min(size, pages);
  let start = Math.max(1, current - Math.floor(size / 2));
  start = Math.min(start, Math.max(1, pages - count + 1));
  return Array.from({ length: count }, (_, i) => start + i);
}

/** 'Showing 21 to 40 of 988 trades'; `noun` names what is counted (the audit log counts events). */
export function showingText(current: number, limit: number, total: number, noun = 'trades'): string {
  const from = total === 0 ? 0 : (current - 1) * limit + 1;
  const to = Math.min(current * limit, total);
  return `Showing ${from} to ${to} of ${total} ${noun}`;
}
