// Each venue's connection as the server sees it (issue 24): connected or not, the round trip it last measured, the
// last error and when. The server's connectors measure it where the connections live (server/venues); the Dashboard
// shows it. On the simulated market there is no connection to measure, and it says so. No runtime dependencies.
import type { VenueId } from './domain';

/**
 * `connected`: the market-data connection is open and answering; `connecting`: being opened (or opened again after a
 * drop); `disconnected`: down, `lastError` says why; `simulated`: the simulated market, in process, no connection.
 */
export const VENUE_LINK_STATES = ['connected', 'connecting', 'disconnected', 'simulated'] as const;
export type VenueLinkState = (typeof VENUE_LINK_STATES)[number];

export const VENUE_LINK_LABELS: Record<VenueLinkState, string> = {
  connected: 'Connected',
  connecting: 'Connecting…',
  disconnected: 'Disconnected',
  simulated: 'Simulated — no connection',
};

export interface VenueHealth {
  venue: VenueId;
  state: VenueLinkState;
  /** Since when the state holds (ISO); null before the first connection attempt. */
  since: string | null;
  /** The last measured round trip to the venue, ms; null until one was measured, and always on the simulated market. */
  latencyMs: number | null;
  /** When it was measured (ISO). */
  latencyAt: string | null;
  /** What the round trip is, in a reader's words, e.g. 'ping over the market-data websocket'. */
  probe: string;
  /** The venue's or the connection's last error, kept after the connection recovers. */
  lastError: { message: string; at: string } | null;
  /** The server's clock when this report was made (ISO): ages on a device are counted from it. */
  reportedAt: string;
}

/** A realtime update or a snapshot of one venue's health, broadcast to every signed-in client. */
export type VenueHealthList = VenueHealth[];
