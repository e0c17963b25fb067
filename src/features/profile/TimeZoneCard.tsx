import { memo, useMemo, useState } from 'react';
import { toast } from 'react-toastify';
import { deviceTimeZone, timeZoneChoices } from '../../../contract/time-zone';
import { messageOf } from '../../hooks/errors';
import { useAuth, useServices } from '../../hooks/services';
import { useTimeZone } from '../../hooks/timeZone';
import { useNow } from '../../hooks/clock';
import { formatDateTime } from '../../lib/format';
import { Card } from '../../ui/Card';
import { SelectField } from '../../ui/Field';
import * as styles from './profile.css';

/** An IANA name as a reader says it: 'America/New_York' → 'America / New York'. */
const spoken = (zone: string) => zone.replaceAll('_', ' ').replaceAll('/', ' / ');

/**
 * Profile → Time zone: the zone every date in the app is shown in. Saved with the account, so it follows the user to
 * each device (and is kept with the cached user offline); "this browser's" clears it, and each device then uses its own.
 * Memoised: its few hundred options are not rebuilt at every keystroke of the Profile form beside it.
 */
export const TimeZoneCard = memo(function TimeZoneCard() {
  const { user } = useAuth();
  const { actions, auth } = useServices();
  const shown = useTimeZone();
  const now = useNow(30_000);
  const device = useMemo(deviceTimeZone, []);
  const saved = user?.timeZone ?? null;
  const choices = useMemo(() => timeZoneChoices(device, saved), [device, saved]);
  const [busy, setBusy] = useState(false);

  async function choose(value: string) {
    setBusy(true);
    try {
      const res = await actions.setTimeZone({ timeZone: value === '' ? null : value });
      auth.updateUser(res.user);
      toast.success(
        res.user.timeZone ? `Dates are shown in ${spoken(res.user.timeZone)}` : "Dates follow each browser's time zone",
      );
    } catch (err) {
      toast.error(messageOf(err, 'The time zone could not be saved'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card title="Time zone" data-testid="time-zone-card">
      <div className={styles.zoneField}>
        <SelectField
          label="Show dates in"
          value={saved ?? ''}
          disabled={busy}
          onChange={(e) => void choose(e.target.value)}
          data-testid="time-zone-select"
          hint="Saved with your account: every device shows the same times, and the P&L report's days follow it."
        >
          <option value="">This browser&apos;s time zone ({spoken(device)})</option>
          {choices.map((zone) => (
            <option key={zone} value={zone}>
              {spoken(zone)}
            </option>
          ))}
        </SelectField>
      </div>
      <p className={styles.zoneNow} data-testid="time-zone-now">
        Now: {formatDateTime(now, shown)} ({spoken(shown)})
      </p>
    </Card>
  );
});
