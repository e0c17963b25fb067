import { lazy, Suspense, useMemo, useState } from 'react';
import { SYMBOLS, type SymbolId } from '../../../contract/domain';
import type { Trade } from '../../../contract/entities';
import { useSpreadRange } from '../../hooks/cockpit';
import { useNow } from '../../hooks/clock';
import { Button } from '../../ui/Button';
import { Card } from '../../ui/Card';
import {
  CHART_MAX_POINTS,
  gridStepMs,
  SPREAD_RANGES,
  spreadGrid,
  spreadSummary,
  tradeMarks,
  type SpreadRangeId,
} from './chartData';
import { browserTimeZone } from './chartTime';
import { useChartColors } from './chartTheme';
import { canDrawCharts } from './canvasSupport';
import * as styles from './charts.css';

// The chart library is its own chunk, fetched only when a chart is drawn.
const SpreadCanvas = lazy(() => import('./SpreadCanvas'));

interface Props {
  trades: Trade[];
  minSpread: number | null;
  costFloor: number | null;
}

/** Spread history per pair over 15 min / 1 h / 24 h / 7 d, live, with the user's threshold, the cost floor and trades. */
export function SpreadChartCard({ trades, minSpread, costFloor }: Props) {
  const [symbol, setSymbol] = useState<SymbolId>('BTC/USDT');
  const [rangeId, setRangeId] = useState<SpreadRangeId>('1h');
  const [showVenues, setShowVenues] = useState(false);
  const range = SPREAD_RANGES.find((r) => r.id === rangeId) ?? SPREAD_RANGES[1];
  const raw = useSpreadRange(symbol, range.ms);
  // The window's end moves with the clock (every 5 s is plenty for a chart), the points with each live sample.
  const now = useNow(5000);
  const to = Math.max(now, raw[raw.length - 1]?.t ?? 0);
  const from = to - range.ms;
  const inRange = useMemo(() => raw.filter((p) => p.t >= from && p.t <= to), [raw, from, to]);
  const points = useMemo(() => spreadGrid(inRange, from, to), [inRange, from, to]);
  const marks = useMemo(() => tradeMarks(trades, symbol, from, to), [trades, symbol, from, to]);
  const colors = useChartColors();
  const summary = spreadSummary(inRange, range.label);

  return (
    <Card title="Spread history" data-testid="spread-chart">
      <div className={styles.controls}>
        <div role="group" aria-label="Pair" className={styles.controls} style={{ margin: 0 }}>
          {SYMBOLS.map((s) => (
            <Button
              key={s}
              small
              variant={s === symbol ? 'primary' : 'secondary'}
              aria-pressed={s === symbol}
              onClick={() => setSymbol(s)}
            >
              {s}
            </Button>
          ))}
        </div>
        <div role="group" aria-label="Range" className={styles.controls} style={{ margin: 0 }}>
          {SPREAD_RANGES.map((r) => (
            <Button
              key={r.id}
              small
              variant={r.id === rangeId ? 'primary' : 'secondary'}
              aria-pressed={r.id === rangeId}
              onClick={() => setRangeId(r.id)}
            >
              {r.label}
            </Button>
          ))}
        </div>
        <Button small variant="ghost" aria-pressed={showVenues} onClick={() => setShowVenues((v) => !v)}>
          {showVenues ? 'Hide venue prices' : 'Show venue prices'}
        </Button>
      </div>
      {points.length === 0 ? (
        <div className={styles.placeholder}>No spread history for this range yet</div>
      ) : !canDrawCharts() ? null : (
        <Suspense fallback={<div className={styles.placeholder}>Loading chart…</div>}>
          <SpreadCanvas
            points={points}
            stepMs={gridStepMs(from, to, CHART_MAX_POINTS)}
            marks={marks}
            minSpread={minSpread}
            costFloor={costFloor}
            showVenues={showVenues}
            colors={colors}
            timeZone={browserTimeZone()}
          />
        </Suspense>
      )}
      <div className={styles.legend} aria-hidden="true">
        <span>Spread = (Deriv − Binance) / Binance: above 0, Deriv is above Binance</span>
        <span>Dashed: your min spread (amber) and the cost floor (red), either way</span>
        <span>▲ open · ▼ close, with how many when trades are too close to mark one by one</span>
        {showVenues && <span>Left scale: Binance (amber) and Deriv (green) prices</span>}
      </div>
      <p className={styles.summary} data-testid="spread-summary" aria-live="polite">
        {symbol}: {summary}
      </p>
    </Card>
  );
}
