import { useState } from 'react';
import { Button } from '../../ui/Button';
import { copyText } from './copyAndSave';
import * as styles from './twoFactor.css';

type Outcome = 'copied' | 'unavailable' | null;

/** A Copy button that says what happened beside it: copied, or how to copy by hand when the browser will not. */
export function CopyButton({ text, label, what }: { text: string; label: string; what: string }) {
  const [outcome, setOutcome] = useState<Outcome>(null);
  return (
    <span className={styles.copyRow}>
      <Button
        variant="secondary"
        small
        onClick={async () => setOutcome((await copyText(text)) ? 'copied' : 'unavailable')}
      >
        {label}
      </Button>
      <span role="status" className={styles.text}>
        {outcome === 'copied'
          ? `${what} copied`
          : outcome === 'unavailable'
            ? `This browser does not allow copying here. Select the ${what.toLowerCase()} and copy it by hand.`
            : ''}
      </span>
    </span>
  );
}
