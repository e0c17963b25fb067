import {
  animationFrameScheduler,
  asapScheduler,
  audit,
  auditTime,
  distinctUntilChanged,
  filter,
  fromEvent,
  map,
  of,
  shareReplay,
  startWith,
  switchMap,
  take,
  timer,
  type MonoTypeOperatorFunction,
  type Observable,
  type SchedulerLike,
} from 'rxjs';

/** At most one emission per tick of `frames` (an animation frame in the browser), carrying the latest value. */
export const perFrame = <T>(frames: SchedulerLike) => auditTime<T>(0, frames);

/**
 * At most one emission per tick of `frames`, carrying the latest value, and none while `shown$` says the consumer is
 * not seen (a hidden tab, a chart scrolled off screen): what arrives meanwhile is held, the latest only, and emitted
 * once on the first frame after it is shown again. The source stays subscribed throughout, so no state is lost and
 * nothing is fetched again. `shown$` must give its current state on subscription.
 */
export const perShownFrame =
  <T>(frames: SchedulerLike, shown$: Observable<boolean>): MonoTypeOperatorFunction<T> =>
  (source) =>
    source.pipe(
      audit(() =>
        shown$.pipe(
          filter(Boolean),
          take(1),
          switchMap(() => timer(0, frames)),
        ),
      ),
    );

export const defaultFrameScheduler = (): SchedulerLike =>
  typeof requestAnimationFrame === 'function' ? animationFrameScheduler : asapScheduler;

let visibility: Observable<boolean> | undefined;

/** Whether the page is visible (document.visibilityState), now and at every change; always true without a document. */
export function documentVisible$(): Observable<boolean> {
  if (typeof document === 'undefined') return of(true);
  visibility ??= fromEvent(document, 'visibilitychange').pipe(
    map(() => document.visibilityState !== 'hidden'),
    startWith(document.visibilityState !== 'hidden'),
    distinctUntilChanged(),
    shareReplay({ bufferSize: 1, refCount: true }),
  );
  return visibility;
}
