import { ENGINE_BUSY_RECENT_MS, VENUES, VENUE_NAMES } from '../../../contract/domain';
import type { OpportunityOutcome, Prices, RiskSummary, SymbolPrice } from '../../../contract/entities';
import type { EngineStatus } from '../../../contract/trading-state';
import { formatAge, formatUsd } from '../../lib/format';
import * as styles from './cockpit.css';

/** Tone of a used/limit ratio: amber from 75 %, red at the limit. */
const toneOf = (used: number, limit: number) =>
  limit <= 0 ? (used > 0 ? 'loss' : 'ok') : used >= limit ? 'loss' : used / limit >= 0.75 ? 'warning' : 'ok';

function Meter({ used, limit, label }: { used: number; limit: number; label: string }) {
  const pct = limit > 0 ? Math.min(100, Math.max(0, (used / limit) * 100)) : used > 0 ? 100 : 0;
  return (
    <div
      className={styles.meter}
      role="meter"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={limit}
      aria-valuenow={Math.min(used, Math.max(limit, 0))}
    >
      <div className={styles.meterFill} data-tone={toneOf(used, limit)} style={{ width: `${pct}%` }} />
    </div>
  );
}

/** The oldest quote of a venue over every pair with a price: what the engine would trade on. */
function venueAge(prices: Prices, venue: (typeof VENUES)[number]): number | null {
  // A price cached by an older version may carry no ages.
  const ages = Object.values(prices)
    .map((p) => (p.ageMs as SymbolPrice['ageMs'] | undefined)?.[venue])
    .filter((a): a is number => typeof a === 'number');
  return ages.length ? Math.max(...ages) : null;
}

/** Whether the engine dropped one of the user's decisions lately because it could not send it in time. */
export const sheddingSince = (outcomes: readonly OpportunityOutcome[], now: number): boolean =>
  outcomes.some((o) => o.outcome === 'engine_busy' && now - Date.parse(o.at) < ENGINE_BUSY_RECENT_MS);

/**
 * The Dashboard's risk strip: drawdown against maxLoss, exposure against maxExposure, engine state (and whether it is
 * shedding work: decisions dropped because they could not be sent while their prices were fresh), price ages.
 */
export function RiskStrip({
  risk,
  status,
  prices,
  outcomes = [],
  now = Date.now(),
}: {
  risk: RiskSummary | null;
  /** The engine's state in the contract's words (global halt included); null until known. */
  status: EngineStatus | null;
  prices: Prices;
  outcomes?: readonly OpportunityOutcome[];
  now?: number;
}) {
  const stale = Object.values(prices).some((p) => p.stale);
  const shedding = sheddingSince(outcomes, now);
  return (
    <section className={styles.strip} aria-label="Risk" data-testid="risk-strip">
      <div className={styles.stripItem} data-testid="risk-drawdown">
        <span className={styles.stripLabel}>Drawdown / max loss</span>
        <span className={styles.stripValue}>
          {risk ? `${formatUsd(risk.drawdown)} of ${formatUsd(risk.maxLoss)}` : '—'}
        </span>
        {risk && <Meter used={risk.drawdown} limit={risk.maxLoss} label="Drawdown against max loss" />}
      </div>
      <div className={styles.stripItem} data-testid="risk-exposure">
        <span className={styles.stripLabel}>Exposure / max</span>
        <span className={styles.stripValue}>
          {risk ? `${formatUsd(risk.exposure)} of ${formatUsd(risk.maxExposure)}` : '—'}
        </span>
        {risk && <Meter used={risk.exposure} limit={risk.maxExposure} label="Exposure against max exposure" />}
      </div>
      <div className={styles.stripItem} data-testid="risk-engine">
        <span className={styles.stripLabel}>Automated trading</span>
        <span className={styles.stripValue} data-state={status?.kind ?? 'unknown'}>
          {status ? status.label : '—'}
        </span>
        {status && status.kind !== 'running' && <span className={styles.stripSub}>{status.sentence}</span>}
        {status?.remedy && <span className={styles.stripSub}>{status.remedy}</span>}
        {shedding && (
          <span className={styles.stripSub} data-testid="risk-shedding" role="status">
            Engine busy: some opportunities skipped, nothing sent late
          </span>
        )}
      </div>
      <div className={styles.stripItem} data-testid="risk-price-age">
        <span className={styles.stripLabel}>Price age{stale ? ' · stale' : ''}</span>
        {VENUES.map((v) => (
          <span key={v} className={styles.stripSub}>
            {VENUE_NAMES[v]} {formatAge(venueAge(prices, v))}
          </span>
        ))}
      </div>
    </section>
  );
}
