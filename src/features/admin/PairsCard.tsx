import { useEffect, useState } from 'react';
import type { AdminPairsResponse } from '../../../contract/api';
import { useServices } from '../../hooks/services';
import { messageOf } from '../../hooks/errors';
import { Badge } from '../../ui/Badge';
import { Card } from '../../ui/Card';
import * as ui from '../../ui/ui.css';
import * as styles from './admin.css';

/** User Management: the pairs the product knows, which the venues offer and which SYMBOLS enables on this server. */
export function PairsCard() {
  const { actions } = useServices();
  const [view, setView] = useState<AdminPairsResponse | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    actions.adminPairs().then(
      (res) => live && (setView(res), setError(null)),
      (err: unknown) => live && setError(messageOf(err, 'The pairs could not be loaded. Try again.')),
    );
    return () => {
      live = false;
    };
  }, [actions]);

  const enabled = view?.pairs.filter((p) => p.enabled).length ?? 0;
  return (
    <Card title="Pairs" data-testid="admin-pairs">
      {error ? (
        <div className={ui.empty}>{error}</div>
      ) : !view ? (
        <div className={ui.empty}>Loading pairs...</div>
      ) : (
        <>
          <p className={styles.backupText} style={{ marginBottom: '12px' }}>
            {enabled} of {view.pairs.length} pairs enabled (SYMBOLS); a pair is enabled at start only when both venues
            {view.market === 'sim' ? ' of the simulated market' : ''} offer it.
            {view.message && ` ${view.message}`}
          </p>
          <ul className={styles.instanceList}>
            {view.pairs.map((p) => (
              <li key={p.symbol} className={styles.instanceRow} data-testid={`admin-pair-${p.symbol}`}>
                <div>
                  <div className={styles.instanceHost}>{p.symbol}</div>
                  <div className={styles.instanceMeta}>
                    {p.name} · Binance {p.binance ? 'offers it' : 'does not offer it'} · Deriv{' '}
                    {p.deriv ? 'offers it' : 'does not offer it'}
                  </div>
                </div>
                <div className={styles.instanceBadges}>
                  {p.enabled ? (
                    <Badge tone="profit">Enabled</Badge>
                  ) : p.binance && p.deriv ? (
                    <Badge tone="neutral">Available</Badge>
                  ) : (
                    <Badge tone="warning">Not offered</Badge>
                  )}
                </div>
              </li>
            ))}
          </ul>
        </>
      )}
    </Card>
  );
}
