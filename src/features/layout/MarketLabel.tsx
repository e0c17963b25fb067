import type { MarketInfo } from '../../../contract/entities';
import { useMarket } from '../../hooks/data';
import * as styles from './layout.css';

/** What every screen says about the market: paper trading on a simulation (and which), or real money. */
export function marketLabel(market: MarketInfo): string {
  if (market.kind === 'live') return 'Live market';
  return market.simProfile === 'demo'
    ? 'Simulated market — demo: opportunities are exaggerated'
    : 'Simulated market — calibrated';
}

const toneOf = (market: MarketInfo) =>
  market.kind === 'live' ? 'live' : market.simProfile === 'demo' ? 'demo' : 'calibrated';

export function MarketLabel() {
  const { value: market } = useMarket();
  if (!market) return null;
  const tone = toneOf(market);
  return (
    <div
      className={`${styles.marketLabel} ${styles.marketTone[tone]}`}
      role="note"
      data-testid="market-label"
      data-market={tone}
    >
      {marketLabel(market)}
    </div>
  );
}
