import type { Stats } from '../../../contract/entities';
import { formatUsd, profitTone, winRateView } from '../../lib/format';
import { StatCard } from '../../ui/StatCard';
import * as styles from '../../ui/page.css';

export function TradesSummary({ stats }: { stats: Stats | null }) {
  const s = stats;
  const win = winRateView(s);
  return (
    <div className={styles.statGrid}>
      <StatCard label="Total Trades" value={s?.totalTrades ?? 0} testId="summary-total" />
      <StatCard label="Successful" value={s?.successfulTrades ?? 0} tone="profit" testId="summary-successful" />
      <StatCard
        label="Total Profit"
        value={formatUsd(s?.totalProfit ?? 0)}
        tone={profitTone(s?.totalProfit ?? 0)}
        testId="summary-profit"
      />
      <StatCard label="Win Rate" value={win.text} tone={win.tone} testId="summary-win-rate" />
    </div>
  );
}
