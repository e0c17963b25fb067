import { useState, type FormEvent } from 'react';
import { toast } from 'react-toastify';
import type { SymbolId, TradeStatus } from '../../../contract/domain';
import { useAuth, useServices } from '../../hooks/services';
import { useLocalCoverage } from '../../hooks/data';
import { messageOf } from '../../hooks/errors';
import { useTimeZone } from '../../hooks/timeZone';
import { dayRange } from '../../lib/dayRange';
import { saveFile } from '../../lib/download';
import type { ExportResult } from '../../services/trades/tradesExport';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/Field';
import * as common from '../../ui/page.css';
import * as ui from '../../ui/ui.css';
import { coverageText } from '../offline/offlineText';

/** The streamed or device-built file, handed to the browser's download. */
const save = (result: ExportResult) => saveFile(result.blob, result.fileName);

/**
 * "Export CSV" under the trade list: the list's status and pair filters plus a range of days. Online the server
 * streams the file; offline it is built from the trades kept on this device, and the note says how far back they go.
 */
export function ExportCsv({
  status,
  symbol,
  offline,
}: {
  status: TradeStatus | '';
  symbol: SymbolId | '';
  offline: boolean;
}) {
  const { tradesExport } = useServices();
  const { user } = useAuth();
  const coverage = useLocalCoverage(offline);
  const timeZone = useTimeZone();
  const [fromDay, setFromDay] = useState('');
  const [toDay, setToDay] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!user) return;
    let range;
    try {
      range = dayRange(fromDay, toDay, timeZone);
    } catch (err) {
      setError((err as Error).message);
      return;
    }
    setError(undefined);
    setBusy(true);
    try {
      const result = await tradesExport.exportCsv(user._id, { status, symbol, ...range }, !offline);
      save(result);
      toast.success(
        result.source === 'device'
          ? `CSV exported from this device. ${coverageText(result.coverage ?? null, timeZone)}`
          : 'CSV exported',
      );
    } catch (err) {
      toast.error(messageOf(err, 'Failed to export trades'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} aria-label="Export trades as CSV" noValidate>
      <div className={common.toolbar}>
        <div className={common.toolbarItem}>
          <TextField
            label="From (day)"
            type="date"
            value={fromDay}
            max={toDay || undefined}
            onChange={(e) => setFromDay(e.target.value)}
          />
        </div>
        <div className={common.toolbarItem}>
          <TextField
            label="To (day)"
            type="date"
            value={toDay}
            min={fromDay || undefined}
            onChange={(e) => setToDay(e.target.value)}
            aria-invalid={error ? true : undefined}
          />
        </div>
        <Button type="submit" variant="secondary" disabled={busy}>
          {busy ? 'Exporting...' : offline ? 'Export CSV (this device)' : 'Export CSV'}
        </Button>
      </div>
      {error && (
        <p className={ui.fieldError} role="alert">
          {error}
        </p>
      )}
      {offline && coverage !== undefined && (
        <p className={common.cachedNote} data-testid="export-coverage">
          Offline, the file holds only the trades saved on this device. {coverageText(coverage, timeZone)}
        </p>
      )}
    </form>
  );
}
