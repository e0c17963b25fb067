import { Link } from '@tanstack/react-router';
import type { Trade } from '../../../contract/entities';
import { useTimeZone } from '../../hooks/timeZone';
import { formatTradeDate, formatUsd } from '../../lib/format';
import { Card } from '../../ui/Card';
import * as ui from '../../ui/ui.css';
import { Profit, Spread, StatusBadge, TradeLink } from '../trades/TradeBits';
import * as styles from './dashboard.css';

export const DASHBOARD_RECENT = 5;

export function RecentTrades({ trades, loading }: { trades: Trade[]; loading: boolean }) {
  const first = trades.slice(0, DASHBOARD_RECENT);
  const timeZone = useTimeZone();
  return (
    <Card title="Recent Trades" action={<Link to="/trades">View all</Link>} data-testid="recent-trades">
      {first.length === 0 && loading && <div className={ui.empty}>Loading trades...</div>}
      {first.length === 0 && !loading && (
        <div className={ui.empty}>
          <div className={ui.emptyTitle}>No trades yet</div>
          <div>Trades will appear here once executed</div>
        </div>
      )}
      {first.length > 0 && (
        <ul className={styles.tradeList}>
          {first.map((t) => (
            <li key={t._id} className={styles.tradeRow} data-testid="recent-trade">
              <div className={styles.tradeMain}>
                <TradeLink trade={t} />
                <StatusBadge trade={t} />
              </div>
              <div className={styles.tradeRight}>
                <Profit trade={t} />
              </div>
              <div className={styles.tradeMeta}>
                <span>{formatUsd(t.totalAmount)}</span>
                <span>
                  Spread <Spread trade={t} />
                </span>
              </div>
              <div className={`${styles.tradeMeta} ${styles.tradeRight}`}>{formatTradeDate(t.createdAt, timeZone)}</div>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
