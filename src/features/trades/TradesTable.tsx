import type { Trade } from '../../../contract/entities';
import { formatTradeDate, formatUsd } from '../../lib/format';
import { Button } from '../../ui/Button';
import * as ui from '../../ui/ui.css';
import type { Sort, SortKey } from './sortTrades';
import { Profit, Spread, StatusBadge, TradeLink } from './TradeBits';
import * as styles from './trades.css';

const COLUMNS: { key: SortKey; label: string; numeric?: boolean }[] = [
  { key: 'symbol', label: 'Pair' },
  { key: 'status', label: 'Status' },
  { key: 'totalAmount', label: 'Amount', numeric: true },
  { key: 'arbitrageSpread', label: 'Spread', numeric: true },
  { key: 'actualProfit', label: 'Profit', numeric: true },
  { key: 'createdAt', label: 'Date' },
];

export function TradesTable({ trades, sort, onSort, onCancel }: { trades: Trade[]; sort: Sort; onSort: (key: SortKey) => void; onCancel?: (t: Trade) => void }) {
  return (
    <div className={ui.tableWrap}>
      <table className={ui.table} data-testid="trades-table">
        <thead>
          <tr>
            {COLUMNS.map((c) => {
              const active = sort.key === c.key;
              return (
                <th key={c.key} className={ui.th} aria-sort={active ? (sort.dir === 'asc' ? 'ascending' : 'descending') : 'none'} style={c.numeric ? { textAlign: 'right' } : undefined}>
                  <button type="button" className={styles.sortButton} onClick={() => onSort(c.key)}>
                    {c.label}
                    <span aria-hidden="true">{active ? (sort.dir === 'asc' ? '↑' : '↓') : '↕'}</span>
                  </button>
                </th>
              );
            })}
            {onCancel && (
              <th className={ui.th}>
                <span className={ui.muted}>Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {trades.map((t) => (
            <tr key={t._id} data-testid="trade-row">
              <td className={ui.td} style={{ fontWeight: 600 }}>
                <TradeLink trade={t} />
              </td>
              <td className={ui.td}>
                <StatusBadge status={t.status} />
              </td>
              <td className={`${ui.td} ${ui.numeric}`} style={{ textAlign: 'right' }}>
                {formatUsd(t.totalAmount)}
              </td>
              <td className={ui.td} style={{ textAlign: 'right' }}>
                <Spread trade={t} />
              </td>
              <td className={ui.td} style={{ textAlign: 'right' }}>
                <Profit value={t.actualProfit} />
              </td>
              <td className={`${ui.td} ${ui.numeric} ${ui.muted}`}>{formatTradeDate(t.createdAt)}</td>
              {onCancel && (
                <td className={ui.td}>
                  {t.status === 'pending' && (
                    <Button small variant="secondary" onClick={() => onCancel(t)} aria-label={`Cancel trade ${t.tradeId}`}>
                      Cancel
                    </Button>
                  )}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
