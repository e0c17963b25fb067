import { useCallback, useEffect, useState } from 'react';
import { toast } from 'react-toastify';
import type { PublicUser } from '../../../contract/entities';
import {
  NOTIFICATION_KINDS,
  NOTIFICATION_LABELS,
  type NotificationKind,
  type NotificationPreferences,
} from '../../../contract/notifications';
import { useServices } from '../../hooks/services';
import { messageOf, pushErrorText } from '../../hooks/errors';
import type { DeviceState } from '../../services/notifications/pushDevice';
import { Button } from '../../ui/Button';
import { Checkbox } from '../../ui/Field';
import * as styles from './settings.css';

function deviceText(device: DeviceState | null): string {
  if (!device) return 'Checking this device...';
  if (!device.supported)
    return 'This browser cannot receive notifications. On iPhone and iPad, add the app to the Home Screen first.';
  if (device.permission === 'denied') return 'Notifications are blocked for this site in the browser’s settings.';
  return device.subscribed ? 'Notifications are on for this device.' : 'Notifications are off for this device.';
}

/**
 * Settings → Notifications: turn push on or off for this device, choose which events notify (saved at once, for every
 * device of the user), and send a test notification to all of them.
 */
export function NotificationsForm({ user }: { user: PublicUser }) {
  const { push } = useServices();
  const [device, setDevice] = useState<DeviceState | null>(null);
  const [prefs, setPrefs] = useState<NotificationPreferences | null>(null);
  const [devices, setDevices] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);

  const reload = useCallback(async () => {
    setDevice(await push.state());
    try {
      const res = await push.preferences();
      setPrefs(res.preferences);
      setDevices(res.devices);
    } catch (err) {
      toast.error(messageOf(err, 'Failed to load notification preferences'));
    }
  }, [push]);
  useEffect(() => void reload(), [reload]);

  async function run(action: () => Promise<unknown>, fallback: string) {
    setBusy(true);
    try {
      await action();
    } catch (err) {
      toast.error(pushErrorText(err, fallback));
    } finally {
      setBusy(false);
      void reload();
    }
  }

  const toggleDevice = () =>
    run(async () => {
      if (device?.subscribed) {
        await push.disable();
        toast.success('Notifications turned off for this device');
      } else {
        await push.enable(user._id);
        toast.success('Notifications turned on for this device');
      }
    }, 'Failed to change notifications for this device');

  const sendTest = () =>
    run(async () => {
      const res = await push.sendTest();
      toast.success(res.message);
    }, 'Failed to send a test notification');

  async function choose(kind: NotificationKind, on: boolean) {
    setPrefs((p) => (p ? { ...p, [kind]: on } : p));
    try {
      const res = await push.savePreferences({ [kind]: on });
      setPrefs(res.preferences);
      toast.success('Notification preferences saved', { toastId: 'notification-preferences' });
    } catch (err) {
      setPrefs((p) => (p ? { ...p, [kind]: !on } : p));
      toast.error(messageOf(err, 'Failed to save notification preferences'));
    }
  }

  return (
    <div className={styles.section}>
      <section className={styles.section} aria-labelledby="push-device">
        <h2 id="push-device" className={styles.sectionTitle}>
          This device
        </h2>
        <p className={styles.note} role="status" data-testid="push-device-state">
          {deviceText(device)}
          {devices !== null &&
            ` ${devices === 0 ? 'No device of yours' : devices === 1 ? 'One device of yours' : `${devices} devices of yours`} receive${devices <= 1 ? 's' : ''} notifications.`}
        </p>
        <div className={styles.actions}>
          <Button variant="secondary" onClick={() => void sendTest()} disabled={busy}>
            Send a test notification
          </Button>
          <Button onClick={() => void toggleDevice()} disabled={busy || !device?.supported}>
            {device?.subscribed ? 'Turn off on this device' : 'Turn on notifications'}
          </Button>
        </div>
      </section>
      <section className={styles.section} aria-labelledby="push-kinds">
        <h2 id="push-kinds" className={styles.sectionTitle}>
          Notify me when
        </h2>
        {prefs &&
          NOTIFICATION_KINDS.map((kind) => (
            <div key={kind}>
              <Checkbox
                label={NOTIFICATION_LABELS[kind].label}
                checked={prefs[kind]}
                onChange={(e) => void choose(kind, e.target.checked)}
              />
              <p className={styles.note}>{NOTIFICATION_LABELS[kind].hint}</p>
            </div>
          ))}
      </section>
    </div>
  );
}
