import { animationFrameScheduler, asapScheduler, auditTime, type SchedulerLike } from 'rxjs';

/** At most one emission per tick of `frames` (an animation frame in the browser), carrying the latest value. */
export const perFrame = <T>(frames: SchedulerLike) => auditTime<T>(0, frames);

export const defaultFrameScheduler = (): SchedulerLike =>
  typeof requestAnimationFrame === 'function' ? animationFrameScheduler : asapScheduler;
