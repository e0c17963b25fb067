import { Fragment } from 'react';
import type { Trade } from '../../../contract/entities';
import { tradeFees } from '../../../contract/reports';
import { useTimeZone } from '../../hooks/timeZone';
import { formatTradeDate, formatUsd } from '../../lib/format';
import { Button } from '../../ui/Button';
import * as cards from '../../ui/cardTable.css';
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

/**
 * A table on wide screens; below `md` every row is a card (pair, status, amount, spread, profit, fees, date, Close).
 * Fees are every fill's fee on both legs (already inside the profit), so the list shows what the venues took.
 */
export function TradesTable({
  trades,
  sort,
  onSort,
  onClose,
  closing,
  closeDisabled,
}: {
  trades: Trade[];
  sort: Sort;
  onSort: (key: SortKey) => void;
  /** Close of an open trade (useCloseTrade); without it the table has no actions column. */
  onClose?: (t: Trade) => void;
  closing?: ReadonlySet<string>;
  /** Why Close cannot be used now (offline), shown as its title; null when it can. */
  closeDisabled?: string | null;
}) {
  const timeZone = useTimeZone();
  return (
    <div className={ui.tableWrap}>
      <table className={`${ui.table} ${cards.cardTable}`} data-testid="trades-table">
        <thead className={cards.chipHeader}>
          <tr>
            {COLUMNS.map((c) => {
              const active = sort.key === c.key;
              const header = (
                <th
                  key={c.key}
                  className={`${ui.th} ${c.numeric ? cards.alignEnd : ''}`}
                  aria-sort={active ? (sort.dir === 'asc' ? 'ascending' : 'descending') : 'none'}
                >
                  <button type="button" className={styles.sortButton} onClick={() => onSort(c.key)}>
                    {c.label}
                    <span aria-hidden="true">{active ? (sort.dir === 'asc' ? '↑' : '↓') : '↕'}</span>
                  </button>
                </th>
              );
              // Fees (not sortable) sit beside the profit they are part of, as the cells of each row do.
              return c.key === 'actualProfit' ? (
                <Fragment key={c.key}>
                  {header}
                  <th className={`${ui.th} ${cards.alignEnd} ${cards.hiddenHeader}`}>Fees</th>
                </Fragment>
              ) : (
                header
              );
            })}
            {onClose && (
              <th className={`${ui.th} ${cards.hiddenHeader}`}>
                <span className={ui.muted}>Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {trades.map((t) => (
            <tr key={t._id} data-testid="trade-row" className={styles.tradeCardRow}>
              <td className={`${ui.td} ${styles.cell.pair}`} style={{ fontWeight: 600 }}>
                <TradeLink trade={t} />
              </td>
              <td className={`${ui.td} ${styles.cell.status}`}>
                <StatusBadge trade={t} />
              </td>
              <td
                className={`${ui.td} ${ui.numeric} ${cards.alignEnd} ${cards.startOnCard} ${styles.cell.amount}`}
                data-label="Amount"
              >
                {formatUsd(t.totalAmount)}
              </td>
              <td className={`${ui.td} ${cards.alignEnd} ${cards.endOnCard} ${styles.cell.spread}`} data-label="Spread">
                <Spread trade={t} />
              </td>
              <td className={`${ui.td} ${cards.alignEnd} ${cards.endOnCard} ${styles.cell.profit}`}>
                <Profit trade={t} />
              </td>
              <td
                className={`${ui.td} ${ui.numeric} ${ui.muted} ${cards.alignEnd} ${cards.startOnCard} ${styles.cell.fees}`}
                data-label="Fees"
                data-testid="trade-fees"
              >
                {formatUsd(tradeFees(t))}
              </td>
              <td className={`${ui.td} ${ui.numeric} ${ui.muted} ${cards.endOnCard} ${styles.cell.date}`}>
                {formatTradeDate(t.createdAt, timeZone)}
              </td>
              {onClose && (
                <td className={`${ui.td} ${styles.cell.actions}`}>
                  {t.status === 'pending' && (
                    <Button
                      small
                      variant="secondary"
                      onClick={() => onClose(t)}
                      aria-label={`Close trade ${t.tradeId}`}
                      disabled={Boolean(closeDisabled) || closing?.has(t._id)}
                      title={closeDisabled ?? undefined}
                    >
                      {closing?.has(t._id) ? 'Closing…' : 'Close'}
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
