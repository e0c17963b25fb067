import type { SymbolId } from '../../../contract/domain';
import { pairSpec } from '../../../contract/pairs';
import { Checkbox } from '../../ui/Field';
import * as styles from './settings.css';

/** The pairs the user trades, picked among those the server trades (at least one; all by default). */
export function PairPicker({
  pairs,
  picked,
  error,
  onChange,
}: {
  pairs: readonly SymbolId[];
  picked: readonly SymbolId[];
  error?: string;
  onChange: (symbols: SymbolId[]) => void;
}) {
  const toggle = (symbol: SymbolId, on: boolean) =>
    onChange(pairs.filter((s) => (s === symbol ? on : picked.includes(s))));
  return (
    <fieldset className={styles.pairPicker} data-testid="pair-picker" aria-describedby="pair-picker-hint">
      <legend className={styles.sectionTitle}>Pairs to trade</legend>
      <p className={styles.note} id="pair-picker-hint">
        The engine trades only the pairs ticked here.
      </p>
      <div className={styles.pairGrid}>
        {pairs.map((s) => (
          <Checkbox
            key={s}
            label={`${s} · ${pairSpec(s).name}`}
            checked={picked.includes(s)}
            onChange={(e) => toggle(s, e.target.checked)}
          />
        ))}
      </div>
      {error && (
        <p className={styles.pairError} role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}
