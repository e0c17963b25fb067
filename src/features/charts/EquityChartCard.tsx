import { lazy, Suspense } from 'react';
import type { EquityPoint } from '../../../contract/figures';
import { useNow } from '../../hooks/clock';
import { useTimeZone } from '../../hooks/timeZone';
import { Card } from '../../ui/Card';
import { equitySummary } from './chartData';
import { useChartColors } from './chartTheme';
import { canDrawCharts } from './canvasSupport';
import * as styles from './charts.css';

const EquityCanvas = lazy(() => import('./EquityCanvas'));

/** Cumulative realised P&L over time, net of fees (contract/figures.ts equityCurve), with its text summary. */
export function EquityChartCard({ points }: { points: EquityPoint[] }) {
  const colors = useChartColors();
  const now = useNow(60_000);
  const timeZone = useTimeZone();
  return (
    <Card title="Equity curve" data-testid="equity-chart">
      {points.length === 0 ? (
        <div className={styles.placeholder}>Your realised P&L is drawn here from the first finished trade</div>
      ) : !canDrawCharts() ? null : (
        <Suspense fallback={<div className={styles.placeholder}>Loading chart…</div>}>
          <EquityCanvas points={points} to={now} colors={colors} timeZone={timeZone} />
        </Suspense>
      )}
      <p className={styles.summary} data-testid="equity-summary">
        {equitySummary(points)}
      </p>
    </Card>
  );
}
