import { TestScheduler } from 'rxjs/testing';
import { animationFrameScheduler, map, type Observable } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { perFrame } from './frames';
import { liveState, type Live } from './liveState';

const newScheduler = () => new TestScheduler((a, b) => expect(a).toEqual(b));
type Counter = { n: number };

describe('liveState: cache, snapshot, deltas, resync', () => {
  it('shows the cached value first, then the snapshot, then folds deltas', () => {
    const ts = newScheduler();
    ts.run(({ cold, hot, expectObservable }) => {
      const out$ = liveState<number, number>({
        initial: 0,
        cached: () => cold('-a|', { a: { value: 5, savedAt: 1 } }),
        snapshot: () => cold('---s|', { s: 10 }),
        events$: hot('-----d--d', { d: 1 }),
        resync$: hot(''),
        fold: (s, d) => s + d,
        scheduler: ts,
      }).pipe(map((l: Live<number>) => `${l.source}:${l.value}`));
      expectObservable(out$).toBe('ic-s-d--e', {
        i: 'initial:0',
        c: 'cache:5',
        s: 'live:10',
        d: 'live:11',
        e: 'live:12',
      });
    });
  });

  it('fetches the snapshot again on every reconnect, so a delta lost in the gap is recovered', () => {
    const ts = newScheduler();
    ts.run(({ cold, hot, expectObservable }) => {
      let server = 0;
      // The server's value at the time of each snapshot: deltas reached it while the socket was down.
      const out$ = liveState<Counter, never>({
        initial: { n: 0 },
        cached: () => cold('|'),
        snapshot: () => cold('-s|', { s: { n: (server += 3) } }),
        events$: hot(''),
        resync$: hot('-----r-----r'),
        fold: (s) => s,
        scheduler: ts,
      }).pipe(map((l) => l.value.n));
      expectObservable(out$).toBe('0s----t-----u', { 0: 0, s: 3, t: 6, u: 9 });
    });
  });

  it('a cached value that arrives after the snapshot is ignored', () => {
    const ts = newScheduler();
    ts.run(({ cold, hot, expectObservable }) => {
      const out$ = liveState<number, never>({
        initial: 0,
        cached: () => cold('---a|', { a: { value: 5, savedAt: 1 } }),
        snapshot: () => cold('-s|', { s: 10 }),
        events$: hot(''),
        resync$: hot(''),
        fold: (s) => s,
        scheduler: ts,
      }).pipe(map((l) => `${l.source}:${l.value}`));
      expectObservable(out$).toBe('is-c', { i: 'initial:0', s: 'live:10', c: 'live:10' });
    });
  });

  it('a failed snapshot ends loading and keeps the cached value', () => {
    const ts = newScheduler();
    ts.run(({ cold, hot, expectObservable }) => {
      const errors: unknown[] = [];
      const out$ = liveState<number, never>({
        initial: 0,
        cached: () => cold('-a|', { a: { value: 5, savedAt: 1 } }),
        snapshot: () => cold('--#', undefined, new Error('offline')),
        events$: hot(''),
        resync$: hot(''),
        fold: (s) => s,
        onSnapshotError: (e) => errors.push(e),
        scheduler: ts,
      }).pipe(map((l) => `${l.source}:${l.value}:${l.loading}`));
      expectObservable(out$).toBe('icf', { i: 'initial:0:true', c: 'cache:5:true', f: 'cache:5:false' });
    });
  });

  it('persists live state debounced, never the cached copy', () => {
    const ts = newScheduler();
    ts.run(({ cold, hot, expectObservable, flush }) => {
      const written: number[] = [];
      const out$ = liveState<number, number>({
        initial: 0,
        cached: () => cold('-a|', { a: { value: 5, savedAt: 1 } }),
        snapshot: () => cold('--s|', { s: 10 }),
        events$: hot('----d-d', { d: 1 }),
        resync$: hot(''),
        fold: (s, d) => s + d,
        persist: (v) => written.push(v),
        persistDebounceMs: 5,
        scheduler: ts,
      });
      expectObservable(out$.pipe(map((l) => l.value))).toBe('ics-d-e', { i: 0, c: 5, s: 10, d: 11, e: 12 });
      flush();
      expect(written).toEqual([12]);
    });
  });
});

describe('price coalescing', () => {
  it('reaches React at most once per animation frame, with the latest merged map (c and d share one frame)', () => {
    const ts = newScheduler();
    ts.run(({ hot, animate, expectObservable }) => {
      animate('            ----x-----x-----x');
      const prices$: Observable<string> = hot('-a-b-c---d-------', { a: 'A', b: 'AB', c: 'ABC', d: 'ABCD' });
      expectObservable(prices$.pipe(perFrame(animationFrameScheduler))).toBe('----b-----d', { b: 'AB', d: 'ABCD' });
    });
  });
});
