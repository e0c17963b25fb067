import { useState } from 'react';
import { toast } from 'react-toastify';
import type { FlattenResponse } from '../../../contract/guard';
import { tradeLifeOf } from '../../../contract/trade-life';
import { useOfflineStatus } from '../../hooks/data';
import { useServices } from '../../hooks/services';
import { needsServerText } from '../offline/offlineText';
import { formatUsd } from '../../lib/format';
import { messageOf } from '../../hooks/errors';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { Card } from '../../ui/Card';
import { Modal } from '../../ui/Modal';
import { ConfirmDialog } from '../admin/ConfirmDialog';
import * as styles from './killSwitch.css';

const tone = (status: string) => (status === 'pending' ? 'warning' : status === 'failed' ? 'loss' : 'neutral');
const OFFLINE_REASON = needsServerText('Stop & flatten');

/** The user's kill switch on the Dashboard: two taps (the button, then Confirm) stop automation and close everything. */
export function StopAndFlatten() {
  const { actions, auth } = useServices();
  const { offline } = useOfflineStatus();
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<FlattenResponse | null>(null);

  async function run() {
    setBusy(true);
    try {
      const res = await actions.stopAndFlatten();
      auth.updateUser({ tradingEnabled: false, tradingStop: 'flattened' });
      setResult(res);
      (res.stillClosing > 0 ? toast.warning : toast.success)(res.message);
    } catch (err) {
      toast.error(messageOf(err, 'Stop & flatten failed. Check your connection and try again.'));
    } finally {
      setBusy(false);
      setAsking(false);
    }
  }

  return (
    <Card title="Kill switch" data-testid="kill-switch">
      <div className={styles.row}>
        <p className={styles.text}>Stop automated trading and close every open trade now.</p>
        <Button
          variant="danger"
          onClick={() => setAsking(true)}
          disabled={busy || offline}
          title={offline ? OFFLINE_REASON : undefined}
        >
          Stop &amp; flatten
        </Button>
      </div>
      {offline && (
        <p className={styles.text} data-testid="flatten-offline">
          {OFFLINE_REASON}
        </p>
      )}
      {asking && (
        <ConfirmDialog
          title="Stop & flatten"
          text="Automated trading will be turned off and every open trade closed at the current prices. Continue?"
          confirmLabel={busy ? 'Closing...' : 'Confirm'}
          busy={busy}
          onConfirm={() => void run()}
          onCancel={() => !busy && setAsking(false)}
        />
      )}
      {result && (
        <Modal
          title="Stop & flatten"
          onClose={() => setResult(null)}
          footer={<Button onClick={() => setResult(null)}>Done</Button>}
        >
          <p style={{ margin: 0 }}>{result.message}</p>
          {result.trades.length > 0 && (
            <ul className={styles.results} data-testid="flatten-results">
              {result.trades.map((t) => (
                <li key={t._id} className={styles.result}>
                  <span>{t.symbol}</span>
                  <span>
                    <Badge tone={tone(t.status)} asWritten>
                      {t.status === 'pending' ? 'Closing' : tradeLifeOf(t).label}
                    </Badge>{' '}
                    {t.status === 'pending' ? '' : formatUsd(t.actualProfit)}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </Modal>
      )}
    </Card>
  );
}
