import { format } from 'date-fns';
import { lazy, Suspense, useMemo, useState } from 'react';
import {
  pnlByPair,
  pnlByPeriod,
  REPORT_PERIODS,
  reportCsv,
  reportTotal,
  type ReportPeriod,
} from '../../../contract/reports';
import { useReportSource } from '../../hooks/data';
import { useTimeZone } from '../../hooks/timeZone';
import { saveFile } from '../../lib/download';
import { Button } from '../../ui/Button';
import { Card } from '../../ui/Card';
import * as ui from '../../ui/ui.css';
import { canDrawCharts } from '../charts/canvasSupport';
import { useChartColors } from '../charts/chartTheme';
import { coverageText } from '../offline/offlineText';
import { ReportTable } from './ReportTable';
import * as styles from './reports.css';

const ReportCanvas = lazy(() => import('./ReportCanvas'));

const PERIOD_NAMES: Record<ReportPeriod, string> = { day: 'Day', week: 'Week', month: 'Month' };

/** A period key ('2026-11-23', '2026-11') as a reader says it. */
function periodLabel(key: string, period: ReportPeriod): string {
  const [y, m, d = 1] = key.split('-').map(Number) as [number, number, number?];
  const date = new Date(y, m - 1, d, 12);
  if (period === 'month') return format(date, 'MMM yyyy');
  if (period === 'week') return `Week of ${format(date, 'd MMM yyyy')}`;
  return format(date, 'EEE d MMM yyyy');
}

/**
 * P&L by day, week or month and by pair (contract/reports.ts), from the trades kept on this device — the history the
 * app keeps in step with the server, so the report reads the same offline. The CSV holds the period table.
 */
export function ReportsCard() {
  const source = useReportSource();
  const colors = useChartColors();
  const [period, setPeriod] = useState<ReportPeriod>('day');
  // The user's zone (Profile, else the browser's): the days of the table, the chart and the CSV.
  const timeZone = useTimeZone();
  const trades = source?.trades;
  const rows = useMemo(() => pnlByPeriod(trades ?? [], period, timeZone), [trades, period, timeZone]);
  const pairs = useMemo(() => pnlByPair(trades ?? []), [trades]);

  function exportCsv() {
    const blob = new Blob([reportCsv(rows, period)], { type: 'text/csv;charset=utf-8' });
    saveFile(blob, `pnl-by-${period}.csv`);
  }

  return (
    <Card title="P&L report" data-testid="pnl-report">
      <div className={styles.controls}>
        <div className={styles.segments} role="group" aria-label="Report period">
          {REPORT_PERIODS.map((p) => (
            <button
              key={p}
              type="button"
              className={styles.segment}
              aria-pressed={p === period}
              onClick={() => setPeriod(p)}
            >
              {PERIOD_NAMES[p]}
            </button>
          ))}
        </div>
        <Button small variant="secondary" onClick={exportCsv} disabled={rows.length === 0}>
          Export report CSV
        </Button>
      </div>
      {source === undefined ? (
        <div className={ui.empty}>Loading report…</div>
      ) : rows.length === 0 ? (
        <div className={ui.empty}>No finished trades yet: the report fills in as trades finish.</div>
      ) : (
        <>
          {canDrawCharts() && (
            <Suspense fallback={<div className={styles.placeholder}>Loading chart…</div>}>
              <ReportCanvas rows={rows} colors={colors} />
            </Suspense>
          )}
          <ReportTable
            rows={rows}
            total={reportTotal(rows)}
            first={PERIOD_NAMES[period]}
            label={(key) => periodLabel(key, period)}
            testId="report-periods"
          />
          <h3 className={styles.subTitle}>By pair</h3>
          <ReportTable rows={pairs} total={reportTotal(pairs)} first="Pair" label={(k) => k} testId="report-pairs" />
        </>
      )}
      <p className={styles.note} data-testid="report-note">
        Realised P&L of finished trades, net of fees, by when they finished; days in {timeZone}, weeks from Monday.{' '}
        {source ? coverageText(source.coverage, timeZone) : ''}
      </p>
    </Card>
  );
}
