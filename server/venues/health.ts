// A venue connection's health, kept where the connection lives (the Deriv socket client, the Binance stream and its
// REST probe): state and since when, the last measured round trip, the last error and when. Every change is
// published, so the engine can pass it on to the Dashboard as it happens.
import { Subject, type Observable } from 'rxjs';
import type { VenueId } from '../../contract/domain';
import type { VenueHealth, VenueLinkState } from '../../contract/venue-health';

/** What a venue tells the engine about its connection; venues without one (test doubles) omit it. */
export interface VenueHealthSource {
  current(): VenueHealth;
  /** Each change as it happens; hot. A subscription may start the venue's latency probe (Binance). */
  readonly changes$: Observable<VenueHealth>;
}

/** An error as a reader sees it: one line, no stack, capped. URLs are never part of it (Deriv's carry credentials). */
export function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const line = text.split('\n')[0]?.trim() || 'Unknown error';
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

export class LinkHealth implements VenueHealthSource {
  private state: VenueLinkState = 'disconnected';
  private since: number | null = null;
  private latency: { ms: number; at: number } | null = null;
  private lastError: { message: string; at: number } | null = null;
  private readonly subject = new Subject<VenueHealth>();
  readonly changes$: Observable<VenueHealth> = this.subject.asObservable();

  constructor(
    readonly venue: VenueId,
    private readonly probe: string,
    private readonly now: () => number = Date.now,
  ) {}

  current(): VenueHealth {
    const iso = (ms: number | null | undefined) =>
      ms === null || ms === undefined ? null : new Date(ms).toISOString();
    return {
      venue: this.venue,
      state: this.state,
      since: iso(this.since),
      latencyMs: this.latency ? Math.round(this.latency.ms * 10) / 10 : null,
      latencyAt: iso(this.latency?.at),
      probe: this.probe,
      lastError: this.lastError ? { message: this.lastError.message, at: iso(this.lastError.at)! } : null,
      reportedAt: new Date(this.now()).toISOString(),
    };
  }

  connecting(): void {
    // A reconnect after a drop stays 'disconnected' until it succeeds: the drop is what the reader needs to see.
    if (this.state === 'disconnected' && this.since !== null) return;
    this.move('connecting');
  }

  connected(): void {
    this.move('connected');
  }

  /** The connection went down; `error` says why (kept as the last error). */
  disconnected(error?: unknown): void {
    if (error !== undefined) this.lastError = { message: errorText(error), at: this.now() };
    if (this.state === 'disconnected' && this.since !== null) {
      if (error !== undefined) this.publish();
      return;
    }
    this.move('disconnected');
  }

  /** An error that did not take the connection down (a probe that failed, a request refused). */
  failed(error: unknown): void {
    this.lastError = { message: errorText(error), at: this.now() };
    this.publish();
  }

  /** A round trip measured now, ms. */
  roundTrip(ms: number): void {
    this.latency = { ms, at: this.now() };
    this.publish();
  }

  private move(state: VenueLinkState): void {
    if (this.state === state && this.since !== null) return;
    this.state = state;
    this.since = this.now();
    this.publish();
  }

  private publish(): void {
    if (this.subject.observed) this.subject.next(this.current());
  }
}

/** The simulated market's venues: no connection, nothing measured, said as it is. */
export function simulatedHealth(venue: VenueId, now: () => number = Date.now): VenueHealthSource {
  const subject = new Subject<VenueHealth>();
  return {
    current: () => ({
      venue,
      state: 'simulated',
      since: null,
      latencyMs: null,
      latencyAt: null,
      probe: 'None: the simulated market runs inside the server, with no connection to the venue',
      lastError: null,
      reportedAt: new Date(now()).toISOString(),
    }),
    changes$: subject.asObservable(),
  };
}
