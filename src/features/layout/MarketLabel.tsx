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

const DEMO_HINT = 'To see trades often, start the server with SIM_PROFILE=demo.';

/**
 * What a user can expect on the calibrated market, measured from its own recorded history (GET /snapshot's
 * market.pace), and how to see the demo profile; null on the other markets.
 */
export function marketPaceLine(market: MarketInfo): string | null {
  if (market.kind !== 'sim' || market.simProfile !== 'calibrated') return null;
  const pace = market.pace;
  if (!pace) return `Real-market pace: opportunities are rare. ${DEMO_HINT}`;
  const span = pace.days === 1 ? 'the one day recorded' : `the last ${pace.days} days recorded`;
  const count = pace.perDay >= 10 ? Math.round(pace.perDay) : pace.perDay;
  const rate =
    pace.perDay === 0 ? 'No opportunities' : `About ${count} ${count === 1 ? 'opportunity' : 'opportunities'} a day`;
  return `${rate} over ${span}. ${DEMO_HINT}`;
}

const toneOf = (market: MarketInfo) =>
  market.kind === 'live' ? 'live' : market.simProfile === 'demo' ? 'demo' : 'calibrated';

export function MarketLabel() {
  const { value: market } = useMarket();
  if (!market) return null;
  const tone = toneOf(market);
  const pace = marketPaceLine(market);
  return (
    <>
      <div
        className={`${styles.marketLabel} ${styles.marketTone[tone]}`}
        role="note"
        data-testid="market-label"
        data-market={tone}
      >
        {marketLabel(market)}
      </div>
      {pace && (
        <div className={`${styles.marketPace} ${styles.marketTone[tone]}`} role="note" data-testid="market-pace">
          {pace}
        </div>
      )}
    </>
  );
}
