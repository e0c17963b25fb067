import { useState } from 'react';
import { toast } from 'react-toastify';
import { HALT_REASON_MAX } from '../../../contract/guard';
import { useTradingHalt } from '../../hooks/data';
import { useServices } from '../../hooks/services';
import { useTimeZone } from '../../hooks/timeZone';
import { formatTradeDate } from '../../lib/format';
import { messageOf } from '../../hooks/errors';
import { Button } from '../../ui/Button';
import { Card } from '../../ui/Card';
import { TextField } from '../../ui/Field';
import { ConfirmDialog } from '../admin/ConfirmDialog';
import * as styles from './killSwitch.css';

/** The admin's global kill switch (User Management). The banner and every engine follow the saved state. */
export function GlobalHaltCard() {
  const { actions } = useServices();
  const { value: halt } = useTradingHalt();
  const timeZone = useTimeZone();
  const [reason, setReason] = useState('');
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const halted = halt?.halted ?? false;

  async function apply() {
    setBusy(true);
    try {
      const res = halted ? await actions.resumeTrading() : await actions.haltTrading(reason.trim());
      toast.success(res.message);
      setReason('');
    } catch (err) {
      toast.error(messageOf(err, 'The kill switch could not be changed. Try again.'));
    } finally {
      setBusy(false);
      setAsking(false);
    }
  }

  return (
    <Card title="Global kill switch" data-testid="global-halt">
      <div className={styles.row}>
        <p className={styles.text}>
          {halted
            ? `Trading is halted for every user${halt?.changedBy ? ` (by ${halt.changedBy}, ${formatTradeDate(halt.changedAt, timeZone)})` : ''}.`
            : 'Halts trading for every user: no automated or manual trade opens until you resume.'}
        </p>
        {!halted && (
          <div style={{ flex: '1 1 200px' }}>
            <TextField
              label="Reason (optional)"
              value={reason}
              maxLength={HALT_REASON_MAX}
              onChange={(e) => setReason(e.target.value)}
            />
          </div>
        )}
        <Button variant={halted ? 'primary' : 'danger'} onClick={() => setAsking(true)} disabled={busy}>
          {halted ? 'Resume trading' : 'Halt all trading'}
        </Button>
      </div>
      {asking && (
        <ConfirmDialog
          title={halted ? 'Resume trading' : 'Halt all trading'}
          text={
            halted
              ? 'Trading resumes for every user within their own settings. Continue?'
              : 'No new trades will open for any user until an admin resumes. Open trades close as usual. Continue?'
          }
          confirmLabel="Confirm"
          busy={busy}
          onConfirm={() => void apply()}
          onCancel={() => !busy && setAsking(false)}
        />
      )}
    </Card>
  );
}
