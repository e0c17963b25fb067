import { SYMBOLS, type SymbolId } from '../../../contract/domain';
import type { Prices } from '../../../contract/entities';
import { describeSpread, formatPrice } from '../../lib/format';
import { Badge } from '../../ui/Badge';
import { Card } from '../../ui/Card';
import * as styles from './dashboard.css';

const NAMES: Record<SymbolId, string> = { 'BTC/USDT': 'Bitcoin', 'ETH/USDT': 'Ethereum' };

export function LivePrices({ prices }: { prices: Prices }) {
  return (
    <Card title="Live Prices" data-testid="live-prices">
      <div className={styles.priceGrid}>
        {SYMBOLS.map((symbol) => {
          const p = prices[symbol];
          // A stale price (a venue stopped quoting) is never highlighted: it cannot be traded.
          const stale = p?.stale === true;
          const profitable = !stale && p?.arbitrage.profitable === true;
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
                  <span className={styles.priceName}>{NAMES[symbol]}</span>
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
    </Card>
  );
}
