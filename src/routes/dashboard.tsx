import { useAuth, useFrameLive, useLive, useServices } from '../features/app/services';
import * as common from '../features/common/common.css';
import { LivePrices } from '../features/dashboard/LivePrices';
import { RecentTrades } from '../features/dashboard/RecentTrades';
import { DashboardStats } from '../features/dashboard/StatCards';

export function DashboardScreen() {
  const { data } = useServices();
  const { user } = useAuth();
  const stats = useLive(data.stats$, null);
  const trades = useLive(data.trades$, []);
  const prices = useFrameLive(data.prices$, {});
  return (
    <div className={common.stack}>
      <p className={common.cachedNote} style={{ margin: 0 }}>
        Welcome back{user?.firstName ? `, ${user.firstName}` : ''}. Trading is {user?.tradingEnabled ? 'enabled' : 'disabled'}.
      </p>
      <DashboardStats stats={stats.value} />
      <div className={common.twoCols}>
        <RecentTrades trades={trades.value} loading={trades.loading} />
        <LivePrices prices={prices.value} />
      </div>
    </div>
  );
}
