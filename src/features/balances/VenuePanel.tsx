import { CURRENCIES } from '../../../contract/domain';
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
}: {
  title: string;
  balances: VenueBalances | null;
  prices: Prices;
  testId: string;
}) {
  return (
    <Card title={title} data-testid={testId}>
      <ul className={styles.holdings}>
        {CURRENCIES.map((c) => {
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
