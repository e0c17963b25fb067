// What a paper account starts with on the simulated venues: the seed (10,000 USDT on each venue, some BTC and ETH
// on Binance), and for another configured pair's coin about 5,000 USDT of it on Binance, so a mirror trade can sell it.
import Decimal from 'decimal.js';
import type { Currency, VenueId } from '../../../contract/domain';
import { PAIR_CATALOGUE } from '../../../contract/pairs';
import { modelledPair } from './profiles';

/** Paper balances a user starts with in the simulated market, per venue. */
export const PAPER_SEED: Record<VenueId, Record<Currency, string>> = {
  binance: { USDT: '10000', BTC: '0.1', ETH: '2' },
  deriv: { USDT: '10000', BTC: '0', ETH: '0' },
};

/**
 * A paper account's starting amount of a currency: the seed's; for another pair's coin on Binance, about 5,000 USDT
 * of it at the middle of the simulated market's range for it (as the seed holds BTC and ETH), so a mirror trade can
 * sell it; none elsewhere.
 */
export function paperSeedOf(
  seed: Record<VenueId, Record<Currency, string>>,
  venue: VenueId,
  currency: Currency,
): string {
  const named = seed[venue][currency];
  if (named !== undefined) return named;
  return venue === 'binance' ? paperCoinSeed(currency) : '0';
}

const PAPER_COIN_USDT = 5_000;

function paperCoinSeed(currency: Currency): string {
  const spec = PAIR_CATALOGUE.find((p) => p.base === currency);
  const modelled = spec && modelledPair(spec.symbol);
  if (!spec || !modelled) return '0';
  const [low, high] = modelled.priceRange;
  const step = new Decimal(spec.lotStep);
  return new Decimal(PAPER_COIN_USDT)
    .dividedBy((low + high) / 2)
    .dividedToIntegerBy(step)
    .times(step)
    .toFixed();
}
