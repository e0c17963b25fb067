import { useObservable, useObservableState } from 'observable-hooks';
import { useMemo, useState } from 'react';
import { toast } from 'react-toastify';
import type { Trade } from '../../contract/entities';
import { messageOf } from '../services/http';
import { map, switchMap } from 'rxjs';
import { PAGE_SIZES, SYMBOLS, TRADE_STATUSES, DEFAULT_PAGE_SIZE, type SymbolId, type TradeStatus } from '../../contract/domain';
import { useLive, useServices } from '../features/app/services';
import * as common from '../features/common/common.css';
import { ManualTradeForm } from '../features/trades/ManualTradeForm';
import { Pagination } from '../features/trades/Pagination';
import { DEFAULT_SORT, nextSort, sortTrades, type Sort } from '../features/trades/sortTrades';
import { TradesSummary } from '../features/trades/TradesSummary';
import { TradesTable } from '../features/trades/TradesTable';
import { TradesOfflineNote } from '../features/offline/TradesOfflineNote';
import type { TradePageQuery } from '../services/streams/tradePage';
import type { Live } from '../services/streams/liveState';
import type { TradePage } from '../services/streams/tradePage';
import { Card } from '../ui/Card';
import { SelectField } from '../ui/Field';
import * as ui from '../ui/ui.css';

const LOADING: Live<TradePage | null> = { value: null, loading: true, source: 'initial', updatedAt: null, error: null };

export function TradesScreen() {
  const services = useServices();
  const { data, actions } = services;
  const offline = useObservableState(services.offline.status$, { offline: false, dataFrom: null }).offline;
  const [query, setQuery] = useState<TradePageQuery>({ status: '', symbol: '', page: 1, limit: DEFAULT_PAGE_SIZE });
  const [sort, setSort] = useState<Sort>(DEFAULT_SORT);
  const stats = useLive(data.stats$, null);

  const page$ = useObservable((inputs$) => inputs$.pipe(map(([q]) => q), switchMap((q) => data.tradePage(q))), [query]);
  const page = useObservableState(page$, LOADING);
  const rows = useMemo(() => sortTrades(page.value?.trades ?? [], sort), [page.value, sort]);

  // Any filter change resets to page 1.
  const filter = (patch: Partial<TradePageQuery>) => setQuery((q) => ({ ...q, ...patch, page: 1 }));

  // A status change (the user may cancel an open trade); the returned trade reaches the list through trade_updated.
  async function cancel(t: Trade) {
    try {
      await actions.updateTradeStatus(t._id, { status: 'cancelled', actualProfit: 0 });
      toast.success('Trade status updated');
    } catch (err) {
      toast.error(messageOf(err, 'Failed to update trade'));
    }
  }

  return (
    <div className={common.stack}>
      <TradesSummary stats={stats.value} />
      <Card title="Manual Trade">
        <ManualTradeForm />
      </Card>
      <Card title="Trade History">
        <div className={common.toolbar} style={{ marginBottom: '16px' }}>
          <div className={common.toolbarItem}>
            <SelectField label="Status" value={query.status} onChange={(e) => filter({ status: e.target.value as TradeStatus | '' })}>
              <option value="">All</option>
              {['completed', 'pending', 'failed', 'cancelled'].filter((s) => (TRADE_STATUSES as readonly string[]).includes(s)).map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </SelectField>
          </div>
          <div className={common.toolbarItem}>
            <SelectField label="Pair" value={query.symbol} onChange={(e) => filter({ symbol: e.target.value as SymbolId | '' })}>
              <option value="">All</option>
              {SYMBOLS.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </SelectField>
          </div>
          <div className={common.toolbarItem}>
            <SelectField label="Page size" value={query.limit} onChange={(e) => filter({ limit: Number(e.target.value) })}>
              {PAGE_SIZES.map((n) => (
                <option key={n} value={n}>
                  {n} per page
                </option>
              ))}
            </SelectField>
          </div>
        </div>
        {page.value === null && page.loading && <div className={ui.empty}>Loading trades...</div>}
        {page.value !== null && rows.length === 0 && <div className={ui.empty}>No trades found</div>}
        {page.value === null && !page.loading && <div className={ui.empty}>No trades found</div>}
        {rows.length > 0 && <TradesTable trades={rows} sort={sort} onSort={(k) => setSort((s) => nextSort(s, k))} onCancel={(t) => void cancel(t)} />}
        {page.value && <Pagination info={page.value.pagination} limit={query.limit} onPage={(p) => setQuery((q) => ({ ...q, page: p }))} />}
        <TradesOfflineNote cache={services.currentCache()} offline={offline} />
      </Card>
    </div>
  );
}
