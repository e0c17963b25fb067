import {
  asyncScheduler,
  catchError,
  concat,
  defer,
  ignoreElements,
  of,
  tap,
  timer,
  type Observable,
  type SchedulerLike,
} from 'rxjs';

// Spec section 4/9: after a server-initiated disconnect or a connection error, retry at most 3 times, 10 s apart,
// then give up. A successful connection resets the count, so a later drop gets three fresh retries.

export type LinkSignal<E> = { type: 'connected' } | { type: 'event'; event: E };
export type LinkStatus =
  | { type: 'status'; status: 'connecting' }
  | { type: 'status'; status: 'retrying'; attempt: number }
  | { type: 'status'; status: 'gave-up' };

export interface RetryPolicy {
  retries: number;
  delayMs: number;
}
export const SOCKET_RETRY_POLICY: RetryPolicy = { retries: 3, delayMs: 10_000 };

/**
 * `connectOnce` is one connection attempt: it emits 'connected', then events, and errors when the link is lost in a
 * way that warrants a retry; it completes when the client itself closed the link.
 */
export function withRetryPolicy<E>(
  connectOnce: () => Observable<LinkSignal<E>>,
  policy: RetryPolicy = SOCKET_RETRY_POLICY,
  scheduler: SchedulerLike = asyncScheduler,
): Observable<LinkSignal<E> | LinkStatus> {
  const attempt = (retriesUsed: number): Observable<LinkSignal<E> | LinkStatus> =>
    defer(() => {
      let connected = false;
      return connectOnce().pipe(
        tap((s) => {
          if (s.type === 'connected') connected = true;
        }),
        catchError(() => {
          const used = connected ? 0 : retriesUsed;
          if (used >= policy.retries) return of<LinkStatus>({ type: 'status', status: 'gave-up' });
          return concat(
            of<LinkStatus>({ type: 'status', status: 'retrying', attempt: used + 1 }),
            timer(policy.delayMs, scheduler).pipe(ignoreElements()),
            attempt(used + 1),
          );
        }),
      );
    });
  return concat(of<LinkStatus>({ type: 'status', status: 'connecting' }), attempt(0));
}
