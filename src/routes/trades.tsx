import { getRouteApi } from '@tanstack/react-router';
import { useMemo } from 'react';
import { PAGE_SIZES, TRADE_STATUSES, type SymbolId, type TradeStatus } from '../../contract/domain';
import { TradesOfflineNote } from '../features/offline/TradesOfflineNote';
import { ReportsCard } from '../features/reports/ReportsCard';
import { ExportCsv } from '../features/trades/ExportCsv';
import { ManualTradeForm } from '../features/trades/ManualTradeForm';
import { Pagination } from '../features/trades/Pagination';
import { nextSort, sortTrades, type Sort, type SortKey } from '../features/trades/sortTrades';
import { TradesSummary } from '../features/trades/TradesSummary';
import { TradesTable } from '../features/trades/TradesTable';
import { useCloseTrade } from '../features/trades/useCloseTrade';
import { STATUS_LABELS } from '../../contract/trade-life';
import { useOfflineStatus, usePairs, useStats, useTradePage } from '../hooks/data';
import type { TradePageQuery } from '../services/trades/tradesService';
import { Card } from '../ui/Card';
import { SelectField } from '../ui/Field';
import * as page from '../ui/page.css';
import * as ui from '../ui/ui.css';
import type { TradesSearch } from './tradesSearch';

const route = getRouteApi('/app/trades');

/** The spec lists completed first, the rest in the contract's order. */
const STATUS_OPTIONS: readonly TradeStatus[] = ['completed', ...TRADE_STATUSES.filter((s) => s !== 'completed')];

export function TradesScreen() {
  const { offline } = useOfflineStatus();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const stats = useStats();

  const { status, symbol, page: current, limit } = search;
  const pairs = usePairs();
  const query = useMemo(
    (): TradePageQuery => ({ status, symbol, page: current, limit }),
    [status, symbol, current, limit],
  );
  const sort: Sort = useMemo(() => ({ key: search.sort, dir: search.dir }), [search.sort, search.dir]);
  const tradePage = useTradePage(query);
  const rows = useMemo(() => sortTrades(tradePage.value?.trades ?? [], sort), [tradePage.value, sort]);

  // Every change is a history entry (back/forward walk through views); the page keeps its scroll position.
  const go = (next: (prev: TradesSearch) => TradesSearch) => void navigate({ search: next, resetScroll: false });
  // Any filter change resets to page 1.
  const filter = (patch: Partial<Pick<TradesSearch, 'status' | 'symbol' | 'limit'>>) =>
    go((prev) => ({ ...prev, ...patch, page: 1 }));
  const sortBy = (key: SortKey) =>
    go((prev) => {
      const s = nextSort({ key: prev.sort, dir: prev.dir }, key);
      return { ...prev, sort: s.key, dir: s.dir };
    });

  const { close, closing, disabled: closeDisabled } = useCloseTrade();

  return (
    <div className={page.stack}>
      <TradesSummary stats={stats.value} />
      <Card title="Manual Trade">
        <ManualTradeForm />
      </Card>
      <Card title="Trade History">
        <div className={page.toolbar} style={{ marginBottom: '16px' }}>
          <div className={page.toolbarItem}>
            <SelectField
              label="Status"
              value={status}
              onChange={(e) => filter({ status: e.target.value as TradeStatus | '' })}
            >
              <option value="">All</option>
              {STATUS_OPTIONS.map((s) => (
                <option key={s} value={s}>
                  {STATUS_LABELS[s]}
                </option>
              ))}
            </SelectField>
          </div>
          <div className={page.toolbarItem}>
            <SelectField
              label="Pair"
              value={symbol}
              onChange={(e) => filter({ symbol: e.target.value as SymbolId | '' })}
            >
              <option value="">All</option>
              {pairs.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </SelectField>
          </div>
          <div className={page.toolbarItem}>
            <SelectField label="Page size" value={limit} onChange={(e) => filter({ limit: Number(e.target.value) })}>
              {PAGE_SIZES.map((n) => (
                <option key={n} value={n}>
                  {n} per page
                </option>
              ))}
            </SelectField>
          </div>
        </div>
        {tradePage.value === null && tradePage.loading && <div className={ui.empty}>Loading trades...</div>}
        {tradePage.value !== null && rows.length === 0 && <div className={ui.empty}>No trades found</div>}
        {tradePage.value === null && !tradePage.loading && <div className={ui.empty}>No trades found</div>}
        {rows.length > 0 && (
          <TradesTable
            trades={rows}
            sort={sort}
            onSort={sortBy}
            onClose={(t) => void close(t)}
            closing={closing}
            closeDisabled={closeDisabled}
          />
        )}
        {tradePage.value && (
          <Pagination
            info={tradePage.value.pagination}
            limit={limit}
            onPage={(p) => go((prev) => ({ ...prev, page: p }))}
          />
        )}
        <TradesOfflineNote offline={offline} />
      </Card>
      <ReportsCard />
      <Card title="Export">
        <ExportCsv status={status} symbol={symbol} offline={offline} />
      </Card>
    </div>
  );
}
