import { useObservableEagerState } from 'observable-hooks';
import { useServices } from '../../hooks/services';
import { Checkbox } from '../../ui/Field';
import * as styles from './settings.css';

/** Preferences of this device only (services/preferences): saved at once, no Save button, nothing sent to the server. */
export function DeviceNotifications() {
  const { preferences } = useServices();
  const prefs = useObservableEagerState(preferences.preferences$);
  return (
    <section className={styles.section} aria-labelledby="device-notifications">
      <h2 id="device-notifications" className={styles.sectionTitle}>
        Toasts on this device
      </h2>
      <Checkbox
        label="Show a toast for each arbitrage opportunity"
        checked={prefs.opportunityToasts}
        onChange={(e) => preferences.update({ opportunityToasts: e.target.checked })}
      />
    </section>
  );
}
