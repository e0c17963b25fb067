import { Link } from '@tanstack/react-router';
import { VENUE_NAMES } from '../../../contract/domain';
import type { Prices, Trade } from '../../../contract/entities';
import { exposureUsed, holdTimeLeftMs, unrealisedPnl } from '../../../contract/positions';
import { useNow } from '../../hooks/clock';
import { formatCountdown, formatPrice, formatUsd, profitTone } from '../../lib/format';
import { Button } from '../../ui/Button';
import { Card } from '../../ui/Card';
import * as ui from '../../ui/ui.css';
import * as styles from './cockpit.css';

interface Props {
  /** The recent trades; the open ones are the positions (one per pair at most). */
  trades: Trade[];
  prices: Prices;
  maxExposure: number | null;
  /** The engine's hold limit; null while unknown (the countdown is left out). */
  maxHoldMs: number | null;
  onClose: (trade: Trade) => void;
  closing: ReadonlySet<string>;
  /** Why Close cannot be used now (offline), else null. */
  closeDisabled: string | null;
}

/** Each open trade with both legs, its entry, the unrealised P&L at current prices, time left, and Close. */
export function OpenPositions({ trades, prices, maxExposure, maxHoldMs, onClose, closing, closeDisabled }: Props) {
  const now = useNow();
  const open = trades.filter((t) => t.status === 'pending');
  const used = exposureUsed(open);
  return (
    <Card title="Open trades" data-testid="open-positions">
      <p className={styles.exposure} data-testid="positions-exposure">
        Exposure {formatUsd(used)}
        {maxExposure !== null && ` of ${formatUsd(maxExposure)} max`}
      </p>
      {open.length === 0 && (
        <div className={ui.empty}>
          No open trades. The engine opens one when a spread beats your min spread and the costs.
        </div>
      )}
      {open.length > 0 && (
        <ul className={styles.list}>
          {open.map((t) => {
            const pnl = unrealisedPnl(t, prices[t.symbol]);
            const left = maxHoldMs === null ? null : holdTimeLeftMs(t, maxHoldMs, now);
            return (
              <li key={t._id} className={styles.row} data-testid="open-position">
                <div className={styles.rowMain}>
                  <Link to="/trades/$id" params={{ id: t._id }}>
                    {t.symbol}
                  </Link>
                  <span className={styles.stripSub}>{formatUsd(t.totalAmount)}</span>
                </div>
                <div className={styles.rowRight}>
                  <span
                    className={`${ui.numeric} ${pnl === null ? ui.muted : ui.tone[profitTone(pnl)]}`}
                    data-testid="position-pnl"
                  >
                    {pnl === null ? 'P&L —' : `${pnl >= 0 ? '+' : ''}${formatUsd(pnl)}`}
                  </span>
                </div>
                <div className={styles.legs}>
                  {t.legs.map((leg) => (
                    <div key={leg.venue} className={styles.leg}>
                      {VENUE_NAMES[leg.venue]} {leg.side === 'buy' ? 'long' : 'short'} ·{' '}
                      {leg.open ? `in at ${formatPrice(leg.open.price)}` : leg.status}
                      <br />
                      <span className={ui.muted}>now {formatPrice(prices[t.symbol]?.[leg.venue])}</span>
                    </div>
                  ))}
                </div>
                <div className={styles.rowMeta}>
                  {left !== null && (
                    <span data-testid="position-time-left">Closes in {formatCountdown(left)} at the latest</span>
                  )}
                </div>
                <div className={styles.rowRight}>
                  <Button
                    small
                    variant="secondary"
                    disabled={Boolean(closeDisabled) || closing.has(t._id)}
                    title={closeDisabled ?? undefined}
                    onClick={() => onClose(t)}
                    aria-label={`Close trade ${t.tradeId}`}
                  >
                    {closing.has(t._id) ? 'Closing…' : 'Close'}
                  </Button>
                </div>
              </li>
            );
          })}
        </ul>
      )}
      {open.length > 0 && closeDisabled && (
        <p className={styles.exposure} data-testid="positions-close-disabled">
          {closeDisabled}
        </p>
      )}
    </Card>
  );
}
