import { useConnectionState } from '../../hooks/data';
import { useServices } from '../../hooks/services';
import { Button } from '../../ui/Button';
import { vars } from '../../styles/theme.css';
import * as styles from './layout.css';

const LABEL = {
  idle: 'Not connected',
  connecting: 'Connecting…',
  connected: 'Live',
  retrying: 'Reconnecting…',
  'gave-up': 'Disconnected',
} as const;
const COLOUR = {
  idle: vars.color.neutral,
  connecting: vars.color.warning,
  connected: vars.color.profit,
  retrying: vars.color.warning,
  'gave-up': vars.color.loss,
} as const;

export function ConnectionDot() {
  const state = useConnectionState();
  return (
    <span className={styles.connection} data-connection={state} title="Realtime connection">
      <span className={styles.dot} style={{ background: COLOUR[state] }} aria-hidden="true" />
      <span>{LABEL[state]}</span>
    </span>
  );
}

/** After three failed retries the socket gives up (spec section 4); say so and offer to try again. */
export function GaveUpBanner() {
  const { realtime } = useServices();
  const state = useConnectionState();
  if (state !== 'gave-up') return null;
  return (
    <div className={styles.banner} role="status" data-testid="realtime-gave-up">
      <span>Live updates stopped: the realtime connection gave up after 3 retries.</span>
      <Button small variant="secondary" onClick={() => realtime.retryNow()}>
        Retry now
      </Button>
    </div>
  );
}
