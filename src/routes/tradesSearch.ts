import type { SearchSchemaInput } from '@tanstack/react-router';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES, TRADE_STATUSES, type SymbolId, type TradeStatus } from '../../contract/domain';
import { PAIR_CATALOGUE } from '../../contract/pairs';
import { DEFAULT_SORT, SORT_DIRS, SORT_KEYS, type Sort, type SortKey } from '../features/trades/sortTrades';

/**
 * The Trades screen's filters, page and sort live in the URL (`/trades?status=failed&symbol=ETH%2FUSDT&page=2`), so a
 * filtered view is a link to bookmark or share and back/forward walks through the views. Defaults are left out of the
 * URL; a value that is not one the screen offers falls back to its default.
 */
export interface TradesSearch {
  status: TradeStatus | '';
  symbol: SymbolId | '';
  limit: number;
  page: number;
  sort: SortKey;
  dir: Sort['dir'];
}

export const TRADES_SEARCH_DEFAULTS: TradesSearch = {
  status: '',
  symbol: '',
  limit: DEFAULT_PAGE_SIZE,
  page: 1,
  sort: DEFAULT_SORT.key,
  dir: DEFAULT_SORT.dir,
};

function oneOf<T extends string | number>(allowed: readonly T[], value: unknown, fallback: T): T {
  // The router parses `?limit=50` as a number; a hand-written link may carry it as a string.
  const v = typeof value === 'string' && typeof allowed[0] === 'number' ? Number(value) : value;
  return allowed.includes(v as T) ? (v as T) : fallback;
}

function pageOf(value: unknown): number {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 1 ? n : TRADES_SEARCH_DEFAULTS.page;
}

/** What a URL may carry: anything, or nothing, under each name. */
export type RawTradesSearch = Partial<Record<keyof TradesSearch, unknown>>;

/** Any input, a complete and valid TradesSearch out. */
export function parseTradesSearch(search: RawTradesSearch): TradesSearch {
  const d = TRADES_SEARCH_DEFAULTS;
  return {
    status: oneOf<TradeStatus | ''>(TRADE_STATUSES, search.status, d.status),
    // Any pair the product knows: which ones this server trades is its answer, not the URL's concern.
    symbol: oneOf<SymbolId | ''>(
      PAIR_CATALOGUE.map((p) => p.symbol),
      search.symbol,
      d.symbol,
    ),
    limit: oneOf<number>(PAGE_SIZES, search.limit, d.limit),
    page: pageOf(search.page),
    sort: oneOf<SortKey>(SORT_KEYS, search.sort, d.sort),
    dir: oneOf<Sort['dir']>(SORT_DIRS, search.dir, d.dir),
  };
}

/** The route's `validateSearch`; typed on its input so links to /trades may leave every param out. */
export const validateTradesSearch = (search: RawTradesSearch & SearchSchemaInput): TradesSearch =>
  parseTradesSearch(search);
