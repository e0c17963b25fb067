import { useState } from 'react';
import { toast } from 'react-toastify';
import { useServices } from '../../hooks/services';
import { messageOf } from '../../hooks/errors';
import { Button } from '../../ui/Button';
import { Card } from '../../ui/Card';
import { saveFile } from '../../lib/download';
import * as styles from './admin.css';

/** User Management: a consistent backup of the server's database, downloaded by an admin (the server audits it). */
export function BackupCard() {
  const { actions } = useServices();
  const [busy, setBusy] = useState(false);

  async function download() {
    setBusy(true);
    try {
      const { blob, fileName } = await actions.downloadBackup();
      saveFile(blob, fileName ?? 'arbitrage-backup.tar.gz');
      toast.success('Backup downloaded. Keep the server’s encryption key file apart from it.');
    } catch (err) {
      toast.error(messageOf(err, 'The backup could not be downloaded. Try again.'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card title="Database backup" data-testid="backup">
      <div className={styles.backupRow}>
        <p className={styles.backupText}>
          Every account, setting, trade and audit event as one file, taken while the server runs; restore it with npm
          run restore. Venue keys in it are encrypted: keep the server&apos;s credential-encryption.key apart from the
          file.
        </p>
        <Button variant="secondary" onClick={() => void download()} disabled={busy}>
          {busy ? 'Preparing backup...' : 'Download backup'}
        </Button>
      </div>
    </Card>
  );
}
