import { distinctUntilChanged, filter, map, of, shareReplay, switchMap, type Observable } from 'rxjs';
import type { UserCache } from '../../cache/db';
import type { SnapshotKind } from '../../cache/schema';
import type { Http } from '../http';
import type { SnapshotSource } from '../snapshot/firstPaint';
import type { ServerToClientEvents } from '../../../contract/events';
import type { ServerEvent, ServerEventName } from '../realtime/socketLink';
import type { Live } from './liveState';

export type Session = { userId: string; token: string };

/** What every domain service is built from: the transport, the session, the socket's events and the user's cache. */
export interface DomainDeps {
  http: Http;
  session$: Observable<Session | null>;
  events$: Observable<ServerEvent>;
  /** Every reconnection of the socket: snapshots are fetched again so no delta is lost in a gap. */
  reconnected$: Observable<void>;
  cacheFor: (userId: string) => UserCache;
  /** GET /snapshot, shared: the streams' first values (and their resync after a reconnect) in one call. */
  firstPaint: SnapshotSource;
  /** Load failures (spec section 8); the caller decides whether to show them (not on 401, not offline). */
  onLoadError: (message: string, error: unknown) => void;
}

/** Shared streams replay the latest value and let go when the last subscriber leaves. */
export const replay = <T>(o: Observable<T>): Observable<T> => o.pipe(shareReplay({ bufferSize: 1, refCount: true }));

/** The state of a stream while nobody is signed in. */
export const idle = <T>(value: T): Live<T> => ({
  value,
  loading: false,
  source: 'initial',
  updatedAt: null,
  error: null,
});

/** The payloads of one server event. */
export function eventsOf<K extends ServerEventName>(
  events$: Observable<ServerEvent>,
  name: K,
): Observable<Parameters<ServerToClientEvents[K]>[0]> {
  return events$.pipe(
    filter((e) => e.name === name),
    map((e) => e.payload as Parameters<ServerToClientEvents[K]>[0]),
  );
}

/** One stream per signed-in user, built on that user's cache; `idle` while signed out. */
export function perUser<T>(
  deps: Pick<DomainDeps, 'session$' | 'cacheFor'>,
  whenSignedOut: T,
  build: (cache: UserCache) => Observable<T>,
): Observable<T> {
  return deps.session$.pipe(
    map((s) => s?.userId ?? null),
    distinctUntilChanged(),
    switchMap((userId) => (userId ? build(deps.cacheFor(userId)) : of(whenSignedOut))),
  );
}

/** A snapshot kept in the user's cache, in the shape liveState reads it. */
export const cachedSnapshot =
  <T>(cache: UserCache, kind: SnapshotKind) =>
  async (): Promise<{ value: T; savedAt: number } | undefined> => {
    const rec = await cache.readSnapshot<T>(kind);
    return rec ? { value: rec.data, savedAt: rec.savedAt } : undefined;
  };
