import { useObservableState } from 'observable-hooks';
import type { Observable } from 'rxjs';
import type { OfflineStatus } from '../../services/offline';
import * as styles from './offline.css';
import { offlineBannerText } from './offlineText';

const ONLINE: OfflineStatus = { offline: false, dataFrom: null };

/**
 * 'Offline — showing data from {time}' above every screen while the app cannot show live data; gone as soon as the
 * link is back. The live region stays mounted so screen readers announce the change both ways.
 */
export function OfflineBanner({ status$, timeZone }: { status$: Observable<OfflineStatus>; timeZone: string }) {
  const status = useObservableState(status$, ONLINE);
  return (
    <div role="status" aria-live="polite" data-testid="offline-banner-region">
      {status.offline && (
        <div className={styles.banner} data-testid="offline-banner">
          <span className={styles.dot} aria-hidden="true" />
          {offlineBannerText(status.dataFrom, timeZone)}
        </div>
      )}
    </div>
  );
}
