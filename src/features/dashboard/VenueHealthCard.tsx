import { VENUE_NAMES } from '../../../contract/domain';
import { VENUE_LINK_LABELS, type VenueLinkState } from '../../../contract/venue-health';
import { useTimeZone } from '../../hooks/timeZone';
import { formatAgo, formatClock, formatLatency } from '../../lib/format';
import type { VenueHealthView } from '../../services/venues/venueHealthService';
import { Badge, type Tone } from '../../ui/Badge';
import { Card } from '../../ui/Card';
import * as ui from '../../ui/ui.css';
import * as styles from './dashboard.css';

const TONES: Record<VenueLinkState, Tone> = {
  connected: 'profit',
  connecting: 'warning',
  disconnected: 'loss',
  simulated: 'neutral',
};

type Held = VenueHealthView['venues'][number];

/** How long a state has held: 'for 38 s', 'for 3 min', or 'just now'. */
const lasted = (ms: number) => (ms < 1000 ? 'just now' : `for ${formatAgo(ms).replace(/ ago$/, '')}`);

function VenueRow({ held, live, timeZone }: { held: Held; live: boolean; timeZone: string }) {
  const h = held.health;
  const simulated = h.state === 'simulated';
  const { since, reported, latency: measured, error: errorAge } = held.ages;
  return (
    <li className={styles.venueRow} data-testid={`venue-health-${h.venue}`} data-state={live ? h.state : 'unknown'}>
      <div className={styles.venueHead}>
        <span className={styles.venueName}>{VENUE_NAMES[h.venue]}</span>
        {live ? (
          <Badge tone={TONES[h.state]} asWritten>
            {VENUE_LINK_LABELS[h.state]}
          </Badge>
        ) : (
          // Offline the server cannot be asked: what it last said is shown as that, never as the state now.
          <Badge tone="neutral" asWritten>
            Unknown — offline
          </Badge>
        )}
      </div>
      <div className={styles.venueMeta} data-testid="venue-state-line">
        {live
          ? !simulated && since !== null && `${VENUE_LINK_LABELS[h.state]} ${lasted(since)}`
          : `Last known ${formatAgo(reported)}: ${VENUE_LINK_LABELS[h.state].toLowerCase()}`}
      </div>
      <div className={styles.venueMeta} data-testid="venue-latency">
        {simulated
          ? 'Round trip: none, the simulated market runs inside the server'
          : h.latencyMs === null
            ? 'Round trip: not measured yet'
            : // Down, the figure is the last one measured before the drop, and says so.
              `${h.state === 'connected' ? 'Round trip' : 'Last round trip'} ${formatLatency(h.latencyMs)}, measured ${formatAgo(measured)}`}
      </div>
      <div className={styles.venueMeta} data-testid="venue-error">
        {h.lastError ? (
          <span title={h.lastError.message}>
            Last error {formatClock(h.lastError.at, timeZone)} ({formatAgo(errorAge)}): {h.lastError.message}
          </span>
        ) : simulated ? null : (
          'No errors since the server started'
        )}
      </div>
    </li>
  );
}

/**
 * Venue health on the Dashboard: per venue, connected or not, the round trip the server last measured, the last error
 * and when. Offline the last report is shown as last known, its ages counting on.
 */
export function VenueHealthCard({ view }: { view: VenueHealthView | null }) {
  const timeZone = useTimeZone();
  const venues = view?.venues ?? [];
  return (
    <Card title="Venue connections" data-testid="venue-health">
      {venues.length === 0 ? (
        <div className={ui.empty}>{view && !view.live ? 'Not known offline yet.' : 'Waiting for the server…'}</div>
      ) : (
        <ul className={styles.venueList}>
          {venues.map((held) => (
            <VenueRow key={held.health.venue} held={held} live={view!.live} timeZone={timeZone} />
          ))}
        </ul>
      )}
    </Card>
  );
}
