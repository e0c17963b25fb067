import {
  catchError,
  auditTime,
  defer,
  EMPTY,
  from,
  ignoreElements,
  map,
  merge,
  scan,
  share,
  startWith,
  switchMap,
  tap,
  type Observable,
  type ObservableInput,
  type SchedulerLike,
} from 'rxjs';

/** What a screen needs to know about one domain's data. */
export interface Live<T> {
  value: T;
  /** True until the first REST snapshot of this session answered (or failed). */
  loading: boolean;
  /** Where the current value came from: nothing yet, the IndexedDB cache, or the server (snapshot + deltas). */
  source: 'initial' | 'cache' | 'live';
  /** Epoch ms the value was last seen live (for cached values: when it was saved). */
  updatedAt: number | null;
  error: unknown;
}

type Step<T, E> =
  | { kind: 'cached'; value: T; savedAt: number }
  | { kind: 'snapshot'; value: T }
  | { kind: 'snapshotFailed'; error: unknown }
  | { kind: 'event'; event: E };

export interface LiveStateDeps<T, E> {
  initial: T;
  /** Cached value from IndexedDB, when any. */
  cached: () => ObservableInput<{ value: T; savedAt: number } | undefined>;
  /**
   * A promise in the app; tests pass cold observables to drive it in virtual time. `reason` is what started it: undefined
   * at the start, else the `resync$` emission (so a stream can fetch differently for its own reasons).
   */
  snapshot: (reason?: unknown) => ObservableInput<T>;
  events$: Observable<E>;
  /** Each emission refetches the snapshot (reconnects). */
  resync$: Observable<unknown>;
  fold: (state: T, event: E) => T;
  /** Debounced write of live state to the cache. */
  persist?: (value: T) => void;
  persistDebounceMs?: number;
  onSnapshotError?: (error: unknown) => void;
  scheduler?: SchedulerLike;
}

/**
 * Cached state first, then the REST snapshot, then realtime deltas folded by a pure reducer; the snapshot is fetched
 * again on every resync. A cached value arriving after the snapshot is ignored.
 */
export function liveState<T, E>(deps: LiveStateDeps<T, E>): Observable<Live<T>> {
  const now = () => deps.scheduler?.now() ?? Date.now();
  const initial: Live<T> = { value: deps.initial, loading: true, source: 'initial', updatedAt: null, error: null };

  const cached$ = defer(() => from(deps.cached())).pipe(
    catchError(() => EMPTY),
    switchMap((c) => (c ? [{ kind: 'cached', value: c.value, savedAt: c.savedAt } as Step<T, E>] : EMPTY)),
  );
  const snapshots$ = deps.resync$.pipe(
    startWith(undefined),
    switchMap((reason) =>
      defer(() => from(deps.snapshot(reason))).pipe(
        map((value): Step<T, E> => ({ kind: 'snapshot', value })),
        catchError((error: unknown) => {
          deps.onSnapshotError?.(error);
          return [{ kind: 'snapshotFailed', error } as Step<T, E>];
        }),
      ),
    ),
  );
  const events$ = deps.events$.pipe(map((event): Step<T, E> => ({ kind: 'event', event })));

  const state$ = merge(cached$, snapshots$, events$).pipe(
    scan((s: Live<T>, step: Step<T, E>): Live<T> => {
      switch (step.kind) {
        case 'cached':
          return s.source === 'live' ? s : { ...s, value: step.value, source: 'cache', updatedAt: step.savedAt };
        case 'snapshot':
          return { value: step.value, loading: false, source: 'live', updatedAt: now(), error: null };
        case 'snapshotFailed':
          return { ...s, loading: false, error: step.error };
        case 'event':
          return { ...s, value: deps.fold(s.value, step.event), updatedAt: s.source === 'live' ? now() : s.updatedAt };
      }
    }, initial),
    startWith(initial),
    share(),
  );

  const persist = deps.persist;
  if (!persist) return state$;
  const persisted$ = state$.pipe(
    // auditTime, not debounceTime: prices tick several times a second, and a debounce would never fire under a
    // steady stream, so nothing would reach IndexedDB for offline use. This writes the latest state once per window.
    auditTime(deps.persistDebounceMs ?? 400, deps.scheduler),
    tap((s) => {
      if (s.source === 'live') persist(s.value);
    }),
    ignoreElements(),
  );
  return merge(state$, persisted$);
}
