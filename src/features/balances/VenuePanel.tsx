import { currenciesOf, DEFAULT_SYMBOLS, type SymbolId } from '../../../contract/pairs';
import type { Prices, VenueBalances } from '../../../contract/entities';
import { formatCoins, formatUsd } from '../../lib/format';
import { Card } from '../../ui/Card';
import { usdValue } from './portfolio';
import * as styles from './balances.css';

export function VenuePanel({
  title,
  balances,
  prices,
  testId,
  pairs = DEFAULT_SYMBOLS,
}: {
  /** The pairs the server trades: their coins are listed (and any other coin the account holds). */
  pairs?: readonly SymbolId[];
  title: string;
  balances: VenueBalances | null;
  prices: Prices;
  testId: string;
}) {
  return (
    <Card title={title} data-testid={testId}>
      <ul className={styles.holdings}>
        {currenciesHeld(pairs, balances).map((c) => {
          const amount = balances?.[c] ?? 0;
          const value = usdValue(c, amount, prices);
          return (
            <li key={c} className={styles.holding}>
              <span className={styles.coin}>{c}</span>
              <span className={styles.amounts}>
                {c === 'USDT' ? (
                  <span className={styles.amountMain}>{formatUsd(amount)}</span>
                ) : (
                  <>
                    <div className={styles.amountMain}>
                      {formatCoins(amount)} {c}
                    </div>
                    <div className={styles.amountSub}>
                      {value === null ? 'Price data unavailable' : formatUsd(value)}
                    </div>
                  </>
                )}
              </span>
            </li>
          );
        })}
      </ul>
    </Card>
  );
}

/** USDT and every traded pair's coin, in the server's order, then any other coin the account holds. */
function currenciesHeld(pairs: readonly SymbolId[], balances: VenueBalances | null): string[] {
  const listed = currenciesOf(pairs);
  const others = Object.keys(balances ?? {}).filter((c) => !listed.includes(c) && (balances?.[c] ?? 0) !== 0);
  return [...listed, ...others];
}
