import { Link } from '@tanstack/react-router';
import { useMarket } from '../../hooks/data';
import * as styles from './settings.css';

/**
 * Sign-in lands on API Keys (the spec's landing), but on the simulated market no keys are needed: the page says so and
 * offers the Dashboard in one tap. Nothing on the live market, where the keys are what trading needs.
 */
export function SimKeysNote() {
  const { value: market } = useMarket();
  if (market?.kind !== 'sim') return null;
  return (
    <p className={styles.simNote} role="note" data-testid="sim-keys-note">
      <span>
        Simulated market: keys are optional here. Trading uses paper balances, and the keys you save are only checked
        for their shape.
      </span>
      <Link to="/dashboard" className={styles.simNoteLink}>
        Go to the Dashboard
      </Link>
    </p>
  );
}
