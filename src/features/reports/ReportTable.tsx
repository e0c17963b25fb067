import type { ReportRow } from '../../../contract/reports';
import { formatUsd, profitTone } from '../../lib/format';
import * as ui from '../../ui/ui.css';
import * as styles from './reports.css';

/**
 * Period (or pair), trades, won, net P&L and fees, with a totals line. On a phone the won count gives way (the chart
 * and the net P&L say how the period went) so the rest fits 390 px without sideways scroll.
 */
export function ReportTable({
  rows,
  total,
  first,
  label,
  testId,
}: {
  rows: readonly ReportRow[];
  total: ReportRow;
  first: string;
  label: (key: string) => string;
  testId: string;
}) {
  const td = `${ui.td} ${ui.numeric}`;
  const end = { textAlign: 'right' } as const;
  return (
    <div className={ui.tableWrap}>
      <table className={`${ui.table} ${styles.compact}`} data-testid={testId}>
        <thead>
          <tr>
            <th className={ui.th}>{first}</th>
            <th className={ui.th} style={end}>
              Trades
            </th>
            <th className={`${ui.th} ${ui.hideSm}`} style={end}>
              Won
            </th>
            <th className={ui.th} style={end}>
              Net P&L
            </th>
            <th className={ui.th} style={end}>
              Fees
            </th>
          </tr>
        </thead>
        <tbody>
          {[...rows, total].map((r) => (
            <tr key={r.key} className={r === total ? styles.total : undefined} data-testid={`${testId}-row`}>
              <td className={`${ui.td} ${styles.keyCell}`}>{r === total ? 'Total' : label(r.key)}</td>
              <td className={td} style={end}>
                {r.trades}
              </td>
              <td className={`${td} ${ui.hideSm}`} style={end}>
                {r.won}
              </td>
              <td className={`${td} ${ui.tone[profitTone(r.netProfit)]}`} style={end}>
                {formatUsd(r.netProfit)}
              </td>
              <td className={`${td} ${ui.muted}`} style={end}>
                {formatUsd(r.fees)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
