import { memo } from 'react';
import { Opportunities } from '../features/cockpit/Opportunities';
import { OpenPositions } from '../features/cockpit/OpenPositions';
import { RiskStrip } from '../features/cockpit/RiskStrip';
import { EquityChartCard } from '../features/charts/EquityChartCard';
import { SpreadChartCard } from '../features/charts/SpreadChartCard';
import * as layout from '../features/dashboard/dashboard.css';
import { LivePrices } from '../features/dashboard/LivePrices';
import { RecentTrades } from '../features/dashboard/RecentTrades';
import { DashboardStats } from '../features/dashboard/StatCards';
import { NextStep } from '../features/dashboard/NextStep';
import { VenueHealthCard } from '../features/dashboard/VenueHealthCard';
import { useEquity, useOutcomes, useRisk, useVenueHealth } from '../hooks/cockpit';
import { useFramePrices, useMarket, usePairs, useRecentTrades, useStats } from '../hooks/data';
import { useAuth } from '../hooks/services';
import { useEngineStatus } from '../hooks/engineStatus';
import * as common from '../ui/page.css';
import { StopAndFlatten } from '../features/kill-switch/StopAndFlatten';
import { useCloseTrade } from '../features/trades/useCloseTrade';

// The screen renders again with every price frame; the panels that do not show prices only when their own data
// changes (the spread chart card memoizes itself).
const StatsPanel = memo(DashboardStats);
const EquityPanel = memo(EquityChartCard);
const OpportunitiesPanel = memo(Opportunities);
const RecentPanel = memo(RecentTrades);

/** The trader's cockpit: prices and positions first, then risk, the spread chart, figures, equity and opportunities. */
export function DashboardScreen() {
  const { user } = useAuth();
  const stats = useStats();
  const trades = useRecentTrades();
  const prices = useFramePrices();
  const market = useMarket();
  const pairs = usePairs();
  const risk = useRisk();
  const outcomes = useOutcomes();
  const equity = useEquity();
  const venues = useVenueHealth();
  const status = useEngineStatus(risk.value);
  const { close, closing, disabled: closeDisabled } = useCloseTrade();

  return (
    <div className={common.stack}>
      <p className={common.cachedNote} style={{ margin: 0 }} data-testid="dashboard-greeting">
        Welcome back{user?.firstName ? `, ${user.firstName}` : ''}.{status ? ` ${status.sentence}` : ''}
      </p>
      <NextStep user={user} stats={stats.value} />
      <div className={layout.cockpit}>
        <div className={`${layout.areaPrices} ${common.stack}`}>
          <LivePrices prices={prices.value} pairs={pairs} mine={user?.symbols ?? pairs} />
          <VenueHealthCard view={venues} />
        </div>
        <div className={layout.areaPositions}>
          <OpenPositions
            trades={trades.value}
            prices={prices.value}
            maxExposure={user?.maxExposure ?? null}
            maxHoldMs={market.value?.tradeMaxHoldMs ?? null}
            onClose={(t) => void close(t)}
            closing={closing}
            closeDisabled={closeDisabled}
          />
        </div>
        <div className={layout.areaRisk}>
          <RiskStrip risk={risk.value} status={status} prices={prices.value} outcomes={outcomes.value} />
          <StopAndFlatten />
        </div>
        <div className={layout.areaSpread}>
          <SpreadChartCard
            trades={trades.value}
            minSpread={user?.minSpread ?? null}
            costFloor={market.value?.costFloor ?? null}
          />
        </div>
        <div className={layout.areaStats}>
          <StatsPanel stats={stats.value} />
        </div>
        <div className={layout.areaEquity}>
          <EquityPanel points={equity} />
        </div>
        <div className={layout.areaOpportunities}>
          <OpportunitiesPanel
            outcomes={outcomes.value}
            minSpread={user?.minSpread ?? null}
            trades={trades.value}
            pairs={pairs}
          />
        </div>
        <div className={layout.areaRecent}>
          <RecentPanel trades={trades.value} loading={trades.loading} />
        </div>
      </div>
    </div>
  );
}
