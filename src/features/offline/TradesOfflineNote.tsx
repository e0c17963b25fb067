import { useLocalCoverage } from '../../hooks/data';
import { useTimeZone } from '../../hooks/timeZone';
import * as styles from './offline.css';
import { coverageText } from './offlineText';

/** Under the Trades table while offline: the page is computed from the local copy, this says how far back it reaches. */
export function TradesOfflineNote({ offline }: { offline: boolean }) {
  const coverage = useLocalCoverage(offline);
  const timeZone = useTimeZone();
  if (!offline || coverage === undefined) return null;
  return (
    <p className={styles.note} data-testid="offline-coverage">
      {coverageText(coverage, timeZone)}
    </p>
  );
}
