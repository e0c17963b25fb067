import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { type Observable } from 'rxjs';
import { withRetryPolicy, type LinkSignal } from './retryPolicy';

// Virtual time: 1 frame = 1 ms. A group '(ab)' occupies as many frames as it has characters, hence the odd gaps.
const policy = { retries: 3, delayMs: 10_000 };
const newScheduler = () => new TestScheduler((a, b) => expect(a).toEqual(b));

const values = {
  c: { type: 'connected' } as const,
  s: { type: 'status', status: 'connecting' } as const,
  '1': { type: 'status', status: 'retrying', attempt: 1 } as const,
  '2': { type: 'status', status: 'retrying', attempt: 2 } as const,
  '3': { type: 'status', status: 'retrying', attempt: 3 } as const,
  g: { type: 'status', status: 'gave-up' } as const,
  e: { type: 'event', event: 'tick' } as const,
};

/** connectOnce returns the next cold observable of the list on each attempt and records the attempt times. */
function attempts(
  helpers: { cold: TestScheduler['createColdObservable'] },
  marbles: string[],
  scheduler: TestScheduler,
) {
  const started: number[] = [];
  let i = 0;
  const connect = (): Observable<LinkSignal<string>> => {
    started.push(scheduler.now());
    const m = marbles[Math.min(i++, marbles.length - 1)] as string;
    return helpers.cold(m, values) as unknown as Observable<LinkSignal<string>>;
  };
  return { connect, started };
}

describe('socket retry policy', () => {
  it('retries a failing connection 3 times, 10 s apart, then gives up', () => {
    const ts = newScheduler();
    ts.run((h) => {
      const { connect, started } = attempts(h, ['#'], ts);
      h.expectObservable(withRetryPolicy(connect, policy, ts)).toBe('(s1) 9996ms 2 9999ms 3 9999ms (g|)', values);
      h.flush();
      expect(started).toEqual([0, 10_000, 20_000, 30_000]);
    });
  });

  it('passes connection and events through while connected', () => {
    const ts = newScheduler();
    ts.run((h) => {
      const { connect } = attempts(h, ['-c-e-e-|'], ts);
      h.expectObservable(withRetryPolicy(connect, policy, ts)).toBe('sc-e-e-|', values);
    });
  });

  it('recovers when a retry connects, and a later server disconnect gets three fresh retries', () => {
    const ts = newScheduler();
    ts.run((h) => {
      // attempt 1 fails, attempt 2 connects at 10001 and is dropped by the server at 10006, then everything fails.
      const { connect, started } = attempts(h, ['#', '-c----#', '#'], ts);
      h.expectObservable(withRetryPolicy(connect, policy, ts)).toBe(
        '(s1) 9997ms c----1 9999ms 2 9999ms 3 9999ms (g|)',
        values,
      );
      h.flush();
      expect(started).toEqual([0, 10_000, 20_006, 30_006, 40_006]);
    });
  });

  it('a client-side close completes without retrying', () => {
    const ts = newScheduler();
    ts.run((h) => {
      const { connect, started } = attempts(h, ['-c--|'], ts);
      h.expectObservable(withRetryPolicy(connect, policy, ts)).toBe('sc--|', values);
      h.flush();
      expect(started).toEqual([0]);
    });
  });
});
