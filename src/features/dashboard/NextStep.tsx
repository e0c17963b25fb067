import { Link } from '@tanstack/react-router';
import type { PublicUser, Stats } from '../../../contract/entities';
import { useMarket } from '../../hooks/data';
import * as common from '../../ui/page.css';

/**
 * An empty Dashboard says what to do next instead of showing zeros only: save the venue keys, switch automated
 * trading on, or place a first manual trade. Nothing once the user has a trade. On the simulated market keys are
 * optional (paper balances), so the keys step is the live market's only.
 */
export function NextStep({ user, stats }: { user: PublicUser | null; stats: Stats | null }) {
  const { value: market } = useMarket();
  if (!user || !stats || stats.totalTrades > 0) return null;
  const needsKeys = market?.kind !== 'sim';
  const hasKeys = !needsKeys || (user.hasBinanceApiKey && user.hasBinanceSecretKey && user.hasDerivToken);
  return (
    <p className={common.cachedNote} style={{ margin: 0 }} data-testid="dashboard-next-step">
      {!hasKeys ? (
        <>
          No trades yet. <Link to="/settings">Save your Binance and Deriv keys</Link> to start trading.
        </>
      ) : !user.tradingEnabled ? (
        <>
          No trades yet. <Link to="/settings">Turn on automated trading</Link> or place a manual trade on{' '}
          <Link to="/trades">Trades</Link>.
        </>
      ) : (
        <>
          No trades yet: the engine trades when a spread beats your minimum. You can also place a manual trade on{' '}
          <Link to="/trades">Trades</Link>.
        </>
      )}
    </p>
  );
}
