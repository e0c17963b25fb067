import { SYMBOLS, VENUES, VENUE_NAMES } from '../../../contract/domain';
import type { Prices, RiskSummary, SymbolPrice } from '../../../contract/entities';
import { ENGINE_STATE_LABELS } from '../../../contract/trading-state';
import { formatAge, formatUsd } from '../../lib/format';
import * as styles from './cockpit.css';

const STATE_TEXT = ENGINE_STATE_LABELS;

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

/** The oldest quote of a venue over both pairs: what the engine would trade on. */
function venueAge(prices: Prices, venue: (typeof VENUES)[number]): number | null {
  // A price cached by an older version may carry no ages.
  const ages = SYMBOLS.map((s) => (prices[s]?.ageMs as SymbolPrice['ageMs'] | undefined)?.[venue]).filter(
    (a): a is number => typeof a === 'number',
  );
  return ages.length ? Math.max(...ages) : null;
}

/** The Dashboard's risk strip: drawdown against maxLoss, exposure against maxExposure, engine state, price ages. */
export function RiskStrip({ risk, prices }: { risk: RiskSummary | null; prices: Prices }) {
  const stale = SYMBOLS.some((s) => prices[s]?.stale);
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
        <span className={styles.stripValue} data-state={risk?.state ?? 'unknown'}>
          {risk ? STATE_TEXT[risk.state] : '—'}
        </span>
        {risk?.reason && <span className={styles.stripSub}>{risk.reason}</span>}
        {risk?.state === 'off' && <span className={styles.stripSub}>Turn it on in Settings</span>}
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
