import { useEffect, useState } from 'react';
import { toast } from 'react-toastify';
import { EquityChartCard } from '../features/charts/EquityChartCard';
import { useEquity } from '../hooks/cockpit';
import { useBalances, usePairs, usePrices } from '../hooks/data';
import { useServices } from '../hooks/services';
import * as styles from '../features/balances/balances.css';
import { VenuePanel } from '../features/balances/VenuePanel';
import * as common from '../ui/page.css';
import { StatCard } from '../ui/StatCard';
import { formatUsd, profitTone, winRateView } from '../lib/format';
import { ApiError } from '../services/http';
import { OfflineRefusal } from '../services/offline';
import { Button } from '../ui/Button';
import { Card } from '../ui/Card';
import { Spinner } from '../ui/Spinner';

export function BalancesScreen() {
  const { balances: balancesService, actions } = useServices();
  const balances = useBalances();
  const prices = usePrices();
  const pairs = usePairs();
  const [syncing, setSyncing] = useState(false);
  // Balances load on open (spec section 2), on top of the live stream the layout keeps.
  useEffect(() => balancesService.reload(), [balancesService]);

  // Refresh: sync with the venues, then reload the balances.
  async function refresh() {
    setSyncing(true);
    try {
      const r = await actions.syncBalances();
      if (r.success) toast.success('Balances synced successfully');
      else toast.error('Failed to sync balances');
    } catch (err) {
      // Offline the refusal says the action needs a connection, as every other action does.
      if (err instanceof OfflineRefusal) toast.error(err.message);
      else if (!(err instanceof ApiError && err.unauthorized))
        toast.error('Failed to sync balances. Please try again.');
    } finally {
      balancesService.reload();
      setSyncing(false);
    }
  }

  const equity = useEquity();
  const b = balances.value;
  if (!b && balances.loading) return <Spinner label="Loading balances..." />;
  // The server's figure, as the Dashboard shows it (contract/figures.ts: one definition of totalValue).
  const total = b?.totalValue ?? 0;
  const win = winRateView(b);
  return (
    <div className={common.stack}>
      <div style={{ display: 'flex', justifyContent: 'flex-end' }}>
        <Button onClick={() => void refresh()} disabled={syncing}>
          {syncing ? 'Refreshing...' : 'Refresh'}
        </Button>
      </div>
      <div className={common.statGrid3}>
        <StatCard label="Total Portfolio Value" value={formatUsd(total)} sub="Both venues" testId="balance-total" />
        <StatCard
          label="Net Profit"
          value={formatUsd(b?.netProfit ?? 0)}
          tone={profitTone(b?.netProfit ?? 0)}
          testId="balance-net-profit"
        />
        <StatCard label="Win Rate" value={win.text} tone={win.tone} testId="balance-win-rate" />
      </div>
      <EquityChartCard points={equity} />
      <div className={common.halves}>
        <VenuePanel
          title="Binance"
          balances={b?.binance ?? null}
          prices={prices.value}
          pairs={pairs}
          testId="venue-binance"
        />
        <VenuePanel
          title="Deriv"
          balances={b?.deriv ?? null}
          prices={prices.value}
          pairs={pairs}
          testId="venue-deriv"
        />
      </div>
      <Card title="Trading Statistics">
        <dl className={styles.statsList}>
          <div className={styles.statsItem}>
            <dt className={styles.statsTerm}>Total Trades</dt>
            <dd className={styles.statsValue}>{b?.totalTrades ?? 0}</dd>
          </div>
          <div className={styles.statsItem}>
            <dt className={styles.statsTerm}>Successful</dt>
            <dd className={styles.statsValue}>{b?.successfulTrades ?? 0}</dd>
          </div>
          <div className={styles.statsItem}>
            <dt className={styles.statsTerm}>Failed</dt>
            <dd className={styles.statsValue}>{b?.failedTrades ?? 0}</dd>
          </div>
          <div className={styles.statsItem}>
            <dt className={styles.statsTerm}>Win Rate</dt>
            <dd className={styles.statsValue}>{win.text}</dd>
          </div>
        </dl>
      </Card>
    </div>
  );
}
