import { lazy, memo, Suspense, useMemo, useRef, useState } from 'react';
import type { SymbolId } from '../../../contract/domain';
import { usePairs } from '../../hooks/data';
import { SelectField } from '../../ui/Field';
import type { Trade } from '../../../contract/entities';
import { useSpreadRange } from '../../hooks/cockpit';
import { useNow } from '../../hooks/clock';
import { useOnScreen } from '../../hooks/onScreen';
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
import { useTimeZone } from '../../hooks/timeZone';
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

/**
 * Spread history per pair over 15 min / 1 h / 24 h / 7 d, live, with the user's threshold, the cost floor and trades.
 * Rendered again only when its own data changes (not with every price frame of the screen around it), and its live
 * updates wait while the chart is scrolled off screen or the page is hidden.
 */
export const SpreadChartCard = memo(function SpreadChartCard({ trades, minSpread, costFloor }: Props) {
  const pairs = usePairs();
  const [picked, setSymbol] = useState<SymbolId | null>(null);
  const symbol = picked !== null && pairs.includes(picked) ? picked : (pairs[0] ?? 'BTC/USDT');
  const timeZone = useTimeZone();
  const [rangeId, setRangeId] = useState<SpreadRangeId>('1h');
  const [showVenues, setShowVenues] = useState(false);
  const range = SPREAD_RANGES.find((r) => r.id === rangeId) ?? SPREAD_RANGES[1];
  const chartArea = useRef<HTMLDivElement>(null);
  const raw = useSpreadRange(symbol, range.ms, useOnScreen(chartArea));
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
        {pairs.length <= 2 ? (
          <div role="group" aria-label="Pair" className={styles.controls} style={{ margin: 0 }}>
            {pairs.map((s) => (
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
        ) : (
          <SelectField label="Pair" value={symbol} onChange={(e) => setSymbol(e.target.value as SymbolId)}>
            {pairs.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </SelectField>
        )}
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
      <div ref={chartArea}>
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
              timeZone={timeZone}
            />
          </Suspense>
        )}
      </div>
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
});
