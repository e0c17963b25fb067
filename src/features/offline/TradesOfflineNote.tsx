import { useEffect, useState } from 'react';
import type { UserCache } from '../../cache/db';
import { localCoverage, type LocalCoverage } from '../../services/offline';
import * as styles from './offline.css';
import { coverageText } from './offlineText';

/** Under the Trades table while offline: the page is computed from the local copy, this says how far back it reaches. */
export function TradesOfflineNote({ cache, offline }: { cache: UserCache | null; offline: boolean }) {
  const [coverage, setCoverage] = useState<LocalCoverage | null | undefined>(undefined);
  useEffect(() => {
    if (!offline || !cache) return;
    let live = true;
    void localCoverage(cache).then((c) => live && setCoverage(c));
    return () => {
      live = false;
    };
  }, [cache, offline]);
  if (!offline || coverage === undefined) return null;
  return (
    <p className={styles.note} data-testid="offline-coverage">
      {coverageText(coverage)}
    </p>
  );
}
