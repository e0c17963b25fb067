import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import type { OpportunityOutcomeKind, SymbolId } from '../../../contract/domain';
import { DEFAULT_SYMBOLS } from '../../../contract/pairs';
import type { OpportunityOutcome, Trade } from '../../../contract/entities';
import { useTimeZone } from '../../hooks/timeZone';
import { describeSpread, formatClock, formatSpread } from '../../lib/format';
import { Badge, type Tone } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { Card } from '../../ui/Card';
import { SelectField } from '../../ui/Field';
import * as ui from '../../ui/ui.css';
import * as styles from './cockpit.css';

const OUTCOME_TEXT: Record<OpportunityOutcomeKind, string> = {
  taken: 'Taken',
  below_min_spread: 'Below your min spread',
  exposure_full: 'Exposure full',
  paused: 'Paused',
  halted: 'Halted',
  quote_stale: 'Quote stale',
  quotes_apart: 'Quotes apart in time',
  pretrade_failed: 'Pre-trade check failed',
  backing_off: 'Backing off',
  engine_busy: 'Skipped: engine busy',
};
const toneOf = (o: OpportunityOutcomeKind): Tone =>
  o === 'taken' ? 'profit' : o === 'below_min_spread' ? 'neutral' : 'warning';

const SHOWN = 8;

/** Recent opportunities per pair with the spread, the user's threshold and what the engine did about each (a Dashboard panel). */
export function Opportunities({
  outcomes,
  minSpread,
  trades,
  pairs = DEFAULT_SYMBOLS,
}: {
  outcomes: OpportunityOutcome[];
  minSpread: number | null;
  trades: Trade[];
  /** The pairs the server trades: a button each for two, a list to pick from beyond. */
  pairs?: readonly SymbolId[];
}) {
  // An outcome names its trade by the readable tradeId; the detail screen is reached by the trade's _id.
  const idOf = new Map(trades.map((t) => [t.tradeId, t._id]));
  const [pair, setPair] = useState<SymbolId | 'all'>('all');
  const timeZone = useTimeZone();
  const shown = outcomes.filter((o) => pair === 'all' || o.symbol === pair).slice(0, SHOWN);
  return (
    <Card title="Opportunities" data-testid="opportunities">
      {pairs.length <= 2 ? (
        <div className={styles.filters} role="group" aria-label="Pair">
          {(['all', ...pairs] as const).map((p) => (
            <Button
              key={p}
              small
              variant={pair === p ? 'primary' : 'secondary'}
              aria-pressed={pair === p}
              onClick={() => setPair(p)}
            >
              {p === 'all' ? 'Both pairs' : p}
            </Button>
          ))}
        </div>
      ) : (
        <div className={styles.filters}>
          <SelectField label="Pair" value={pair} onChange={(e) => setPair(e.target.value as SymbolId | 'all')}>
            <option value="all">All pairs</option>
            {pairs.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </SelectField>
        </div>
      )}
      <p className={styles.exposure}>
        Your threshold: {minSpread === null ? '—' : formatSpread(minSpread)} either way (and the costs).
      </p>
      {shown.length === 0 && (
        <div className={ui.empty}>No opportunities seen yet. They appear here as the engine evaluates them.</div>
      )}
      {shown.length > 0 && (
        <ul className={styles.list}>
          {shown.map((o) => (
            <li
              key={`${o.symbol}-${o.at}-${o.outcome}`}
              className={styles.row}
              data-testid="opportunity"
              data-outcome={o.outcome}
            >
              <div className={styles.rowMain}>
                <span>{o.symbol}</span>
                <Badge tone={toneOf(o.outcome)}>{OUTCOME_TEXT[o.outcome]}</Badge>
              </div>
              <div className={styles.rowRight}>
                <span className={`${ui.numeric} ${ui.muted}`}>{formatClock(o.at, timeZone)}</span>
              </div>
              <div className={styles.rowMeta} style={{ gridColumn: '1 / -1' }}>
                <span>{describeSpread(o.spread)}</span>
                {o.outcome === 'taken' && o.tradeId && idOf.has(o.tradeId) ? (
                  <Link to="/trades/$id" params={{ id: idOf.get(o.tradeId) as string }}>
                    See trade {o.tradeId}
                  </Link>
                ) : (
                  <span>{o.reason}</span>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
