import { useTradingHalt } from '../../hooks/data';
import * as styles from './killSwitch.css';

/** Shown to every signed-in user while an admin has halted trading (from GET /meta and the `trading_halt` event). */
export function HaltBanner() {
  const { value: halt } = useTradingHalt();
  if (!halt?.halted) return null;
  return (
    <div className={styles.banner} role="alert" data-testid="halt-banner">
      Trading is halted by an admin{halt.reason ? `: ${halt.reason}` : ''}. No new trades open until an admin resumes
      it; open trades close as usual.
    </div>
  );
}
