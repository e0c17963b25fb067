import {
  EMPTY,
  filter,
  map,
  merge,
  of,
  share,
  scan,
  shareReplay,
  distinctUntilChanged,
  startWith,
  Subject,
  switchMap,
  type Observable,
  type SchedulerLike,
} from 'rxjs';
import { withRetryPolicy, type LinkSignal, type LinkStatus, type RetryPolicy } from './retryPolicy';
import type { ServerEvent } from './socketLink';

export type ConnectionState = 'idle' | 'connecting' | 'connected' | 'retrying' | 'gave-up';

export interface RealtimeDeps {
  session$: Observable<{ userId: string; token: string } | null>;
  connect: (session: { userId: string; token: string }) => Observable<LinkSignal<ServerEvent>>;
  /** Emits when the browser comes back online: a link that gave up starts over. */
  online$?: Observable<unknown>;
  policy?: RetryPolicy;
  scheduler?: SchedulerLike;
}

export interface RealtimeService {
  state$: Observable<ConnectionState>;
  events$: Observable<ServerEvent>;
  /** Every connection after the first one of a session: snapshots are fetched again so no delta is lost in a gap. */
  reconnected$: Observable<void>;
  /** Start over now (the 'Retry' button after giving up). */
  retryNow(): void;
}

export function createRealtimeService(deps: RealtimeDeps): RealtimeService {
  const manual$ = new Subject<void>();
  const restart$ = merge(manual$, deps.online$ ?? EMPTY);

  const signals$: Observable<LinkSignal<ServerEvent> | LinkStatus | { type: 'idle' }> = deps.session$.pipe(
    switchMap((session) =>
      session
        ? restart$.pipe(
            startWith(undefined),
            switchMap(() => withRetryPolicy(() => deps.connect(session), deps.policy, deps.scheduler)),
          )
        : of({ type: 'idle' as const }),
    ),
    share(),
  );

  const state$ = signals$.pipe(
    map((s): ConnectionState => (s.type === 'idle' ? 'idle' : s.type === 'status' ? s.status : 'connected')),
    startWith<ConnectionState>('idle'),
    distinctUntilChanged(),
    shareReplay({ bufferSize: 1, refCount: true }),
  );

  const events$ = signals$.pipe(
    filter((s): s is { type: 'event'; event: ServerEvent } => s.type === 'event'),
    map((s) => s.event),
    share(),
  );

  // Counts connections within one session (idle = signed out resets); every one after the first is a reconnect.
  const reconnected$ = signals$.pipe(
    scan(
      (acc, s) =>
        s.type === 'idle'
          ? { n: 0, fire: false }
          : s.type === 'connected'
            ? { n: acc.n + 1, fire: acc.n >= 1 }
            : { ...acc, fire: false },
      { n: 0, fire: false },
    ),
    filter((a) => a.fire),
    map(() => undefined),
    share(),
  );

  return { state$, events$, reconnected$, retryNow: () => manual$.next() };
}
