import { map, merge, type Observable } from 'rxjs';
import type { SnapshotResponse } from '../../../contract/api';
import { SERVER_EVENTS } from '../../../contract/events';
import type { Http } from '../http';

/**
 * GET /snapshot shared by the domain services: everything the signed-in layout and the Dashboard paint first, in one
 * call instead of one a domain. The services that start together (they subscribe in the same render) share one
 * request: a call made while one is in flight joins it, and an answer is reused for `reuseMs` after it arrived, for
 * the panels whose code loads a moment later, unless `invalidate$` dropped it. A reconnect drops it (deltas may have
 * been missed in the gap), so the streams' resync after a reconnect is again one shared call, and so does every event
 * that changes what it holds.
 */
export interface SnapshotSource {
  get(userId: string): Promise<SnapshotResponse>;
  /**
   * The shared answer when there is one to join (in flight or fresh), or this user's first one (asked now); null once
   * the first paint is past. For a stream that has a cheaper endpoint of its own for later starts (a Trades page).
   */
  join(userId: string): Promise<SnapshotResponse> | null;
}

export interface SnapshotSourceDeps {
  http: Pick<Http, 'get'>;
  /** Each emission drops the kept answer: the next get() asks the server. Subscribed at once, ahead of the streams. */
  invalidate$: Observable<unknown>;
  /** Called with every answer (the user record in it refreshes the stored one). */
  onAnswer?: (snapshot: SnapshotResponse) => void;
  reuseMs?: number;
  now?: () => number;
}

/**
 * Streams that start together share the request in flight, and a screen whose code loads a moment after the layout's
 * streams started takes the same answer, so a cold start asks once. An answer is handed to a stream that starts later
 * only while nothing it holds has changed: `invalidate$` drops it at every event that changes what it holds (a trade
 * opened or updated, a balance, the figures, the engine or kill-switch state), or it would predate an event the later
 * stream never saw (a trade opened meanwhile would vanish from the positions). Prices and opportunities are replaced by
 * the next tick anyway; this bound keeps an answer from serving a screen opened long after.
 */
export const SNAPSHOT_REUSE_MS = 10_000;

/** The server events after which a kept snapshot no longer holds: each changes a figure it carries. */
export const SNAPSHOT_CHANGING_EVENTS: ReadonlySet<string> = new Set([
  SERVER_EVENTS.newTrade,
  SERVER_EVENTS.tradeUpdated,
  SERVER_EVENTS.balanceUpdated,
  SERVER_EVENTS.statsUpdated,
  SERVER_EVENTS.notice,
  SERVER_EVENTS.tradingHalt,
]);

export function createSnapshotSource(deps: SnapshotSourceDeps): SnapshotSource {
  const now = deps.now ?? Date.now;
  const reuseMs = deps.reuseMs ?? SNAPSHOT_REUSE_MS;
  let kept: { userId: string; answer: Promise<SnapshotResponse>; answeredAt: number | null } | null = null;
  const asked = new Set<string>();
  deps.invalidate$.subscribe(() => (kept = null));

  const usable = (userId: string) =>
    kept !== null && kept.userId === userId && (kept.answeredAt === null || now() - kept.answeredAt <= reuseMs);

  const get = (userId: string): Promise<SnapshotResponse> => {
    if (usable(userId)) return kept!.answer;
    asked.add(userId);
    const entry: NonNullable<typeof kept> = {
      userId,
      answeredAt: null,
      answer: deps.http.get<SnapshotResponse>('/snapshot').then(
        (snapshot) => {
          entry.answeredAt = now();
          deps.onAnswer?.(snapshot);
          return snapshot;
        },
        (err: unknown) => {
          // A failure is shared by the callers waiting on it, never kept: the next call asks again.
          if (kept === entry) kept = null;
          throw err;
        },
      ),
    };
    kept = entry;
    return entry.answer;
  };
  return { get, join: (userId) => (usable(userId) || !asked.has(userId) ? get(userId) : null) };
}

/** Why a stream fetches its snapshot: its start or a reconnect (the shared snapshot), or a reason of its own. */
export const OWN_REASON = Symbol('own endpoint');

/** A stream's own resync triggers, marked so that its snapshot comes from its own endpoint, not the shared one. */
export const ownReason = (trigger$: Observable<unknown>): Observable<typeof OWN_REASON> =>
  trigger$.pipe(map(() => OWN_REASON));

/**
 * A stream's snapshot function for liveState: the shared first-paint answer at the start and after a reconnect, its
 * own endpoint when one of its own triggers (marked with `ownReason`) asked.
 */
export function sharedOrOwn<T>(
  source: SnapshotSource,
  userId: string,
  pick: (s: SnapshotResponse) => T,
  own: () => Promise<T>,
) {
  return async (reason?: unknown): Promise<T> => (reason === OWN_REASON ? own() : pick(await source.get(userId)));
}

/** Resync triggers: reconnects (shared snapshot) and the stream's own (own endpoint). */
export const resyncs = (reconnected$: Observable<void>, own$?: Observable<unknown>): Observable<unknown> =>
  own$ ? merge(reconnected$, ownReason(own$)) : reconnected$;
