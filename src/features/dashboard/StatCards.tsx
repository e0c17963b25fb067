import type { Stats } from '../../../contract/entities';
import { formatUsd, profitTone, winRateView } from '../../lib/format';
import { StatCard } from '../../ui/StatCard';
import * as styles from '../../ui/page.css';

export function DashboardStats({ stats }: { stats: Stats | null }) {
  const s = stats ?? {
    totalValue: 0,
    netProfit: 0,
    totalTrades: 0,
    winRate: 0,
    decidedTrades: 0,
    successfulTrades: 0,
    failedTrades: 0,
    totalProfit: 0,
  };
  const win = winRateView(stats);
  return (
    <div className={styles.statGrid}>
      <StatCard label="Total Value" value={formatUsd(s.totalValue)} testId="stat-total-value" />
      <StatCard
        label="Net Profit"
        value={formatUsd(s.netProfit)}
        tone={profitTone(s.netProfit)}
        testId="stat-net-profit"
      />
      <StatCard
        label="Total Trades"
        value={s.totalTrades}
        sub={`${s.successfulTrades} successful`}
        testId="stat-total-trades"
      />
      <StatCard label="Win Rate" value={win.text} tone={win.tone} testId="stat-win-rate" />
    </div>
  );
}
