import { useFramePrices, useRecentTrades, useStats } from '../hooks/data';
import { useAuth } from '../hooks/services';
import * as common from '../ui/page.css';
import { LivePrices } from '../features/dashboard/LivePrices';
import { RecentTrades } from '../features/dashboard/RecentTrades';
import { DashboardStats } from '../features/dashboard/StatCards';
import { StopAndFlatten } from '../features/kill-switch/StopAndFlatten';

export function DashboardScreen() {
  const { user } = useAuth();
  const stats = useStats();
  const trades = useRecentTrades();
  const prices = useFramePrices();
  return (
    <div className={common.stack}>
      <p className={common.cachedNote} style={{ margin: 0 }}>
        Welcome back{user?.firstName ? `, ${user.firstName}` : ''}. Trading is {user?.tradingEnabled ? 'enabled' : 'disabled'}.
      </p>
      <DashboardStats stats={stats.value} />
      <StopAndFlatten />
      <div className={common.twoCols}>
        <RecentTrades trades={trades.value} loading={trades.loading} />
        <LivePrices prices={prices.value} />
      </div>
    </div>
  );
}
