import type { SymbolId } from '../../../contract/domain';
import type { Prices, SymbolPrice } from '../../../contract/entities';
import { DEFAULT_SYMBOLS, pairSpec } from '../../../contract/pairs';
import { describeSpread, formatPrice, formatSpread } from '../../lib/format';
import { Badge } from '../../ui/Badge';
import { Card } from '../../ui/Card';
import * as styles from './dashboard.css';
import { sortedPairs } from './pairOrder';

/** A spread with its sign, as percent; one that rounds to zero has none ('0.00%', never '-0.00%'). */
function signedSpread(spread: number): string {
  const size = formatSpread(Math.abs(spread));
  return size === '0.00%' ? size : `${spread > 0 ? '+' : '-'}${size}`;
}

/** A price is highlighted only when it can be traded: a stale one (a venue stopped quoting) never is. */
const profitableNow = (p: SymbolPrice | undefined): boolean => p?.stale !== true && p?.arbitrage.profitable === true;

/**
 * Live Prices. The spec's two pairs as its two cards, in its order; more pairs as a compact list sorted by spread
 * with the user's own pairs first, so a dozen stay readable on a phone.
 */
export function LivePrices({
  prices,
  pairs = DEFAULT_SYMBOLS,
  mine = pairs,
}: {
  prices: Prices;
  /** The pairs the server trades. */
  pairs?: readonly SymbolId[];
  /** The pairs the user trades (listed first). */
  mine?: readonly SymbolId[];
}) {
  return (
    <Card title="Live Prices" data-testid="live-prices">
      {pairs.length <= 2 ? <PriceCards prices={prices} pairs={pairs} /> : <PairList {...{ prices, pairs, mine }} />}
    </Card>
  );
}

function PriceCards({ prices, pairs }: { prices: Prices; pairs: readonly SymbolId[] }) {
  return (
    <div className={styles.priceGrid}>
      {pairs.map((symbol) => {
        const p = prices[symbol];
        const stale = p?.stale === true;
        const profitable = profitableNow(p);
        return (
          <div
            key={symbol}
            className={styles.priceCard}
            data-profitable={profitable}
            data-stale={stale}
            data-testid={`price-${symbol}`}
          >
            <div className={styles.priceHead}>
              <span className={styles.priceSymbol}>{symbol}</span>
              {stale ? (
                <Badge tone="warning">Stale prices</Badge>
              ) : (
                <span className={styles.priceName}>{pairSpec(symbol).name}</span>
              )}
            </div>
            <div className={styles.priceRows}>
              <span>Binance</span>
              <span className={styles.priceValue} data-testid="price-binance">
                {formatPrice(p?.binance)}
              </span>
              <span>Deriv</span>
              <span className={styles.priceValue} data-testid="price-deriv">
                {formatPrice(p?.deriv)}
              </span>
              <span>Spread</span>
              <span className={styles.priceValue} data-testid="price-spread">
                {/* The sign explained: spread = (Deriv − Binance) / Binance. */}
                {p?.spread === null || p?.spread === undefined ? 'N/A' : describeSpread(p.spread)}
                {profitable && ' · profitable'}
              </span>
            </div>
          </div>
        );
      })}
    </div>
  );
}

function PairList({ prices, pairs, mine }: { prices: Prices; pairs: readonly SymbolId[]; mine: readonly SymbolId[] }) {
  return (
    <ul className={styles.pairList} aria-label="Pairs by spread, yours first">
      {sortedPairs(pairs, mine, prices).map((symbol) => {
        const p = prices[symbol];
        const stale = p?.stale === true;
        const profitable = profitableNow(p);
        const decimals = pairSpec(symbol).priceDecimals;
        const yours = mine.includes(symbol);
        return (
          <li
            key={symbol}
            className={styles.pairRow}
            data-profitable={profitable}
            data-stale={stale}
            data-mine={yours}
            data-testid={`price-${symbol}`}
          >
            <span className={styles.pairName}>
              <strong>{symbol}</strong> <span className={styles.priceName}>{pairSpec(symbol).name}</span>
              {!yours && <span className={styles.priceName}> · not traded by you</span>}
            </span>
            <span className={styles.pairSpread} data-testid="price-spread" title={describeSpread(p?.spread)}>
              {stale ? (
                <Badge tone="warning">Stale</Badge>
              ) : p?.spread === null || p?.spread === undefined ? (
                'N/A'
              ) : (
                `${signedSpread(p.spread)}${profitable ? ' · profitable' : ''}`
              )}
            </span>
            <span className={styles.pairVenues}>
              Binance <span data-testid="price-binance">{formatPrice(p?.binance, decimals)}</span> · Deriv{' '}
              <span data-testid="price-deriv">{formatPrice(p?.deriv, decimals)}</span>
            </span>
          </li>
        );
      })}
    </ul>
  );
}
