import { describe, expect, it } from 'vitest';
import { SlidingWindow } from './rate-window';

/** A window on a clock the test moves: sleeping advances it. */
function clocked(limit: number, windowMs: number) {
  let now = 0;
  const sleeps: number[] = [];
  const window = new SlidingWindow(
    limit,
    windowMs,
    () => now,
    async (ms) => {
      sleeps.push(ms);
      now += ms;
    },
  );
  return { window, sleeps, at: () => now, set: (t: number) => (now = t) };
}

describe('SlidingWindow', () => {
  it('lets `limit` through at once, then each next one when the oldest leaves the window', async () => {
    const c = clocked(3, 1000);
    const times: number[] = [];
    await Promise.all(Array.from({ length: 7 }, () => c.window.take().then(() => times.push(c.at()))));
    expect(times).toEqual([0, 0, 0, 1000, 1000, 1000, 2000]);
  });

  it('never lets more than `limit` into any window, across what a fixed window would call its boundary', async () => {
    const c = clocked(60, 60_000);
    const times: number[] = [];
    c.set(59_000);
    for (let i = 0; i < 60; i += 1) await c.window.take().then(() => times.push(c.at()));
    c.set(60_500);
    for (let i = 0; i < 60; i += 1) await c.window.take().then(() => times.push(c.at()));
    for (let i = 0; i < times.length; i += 1) {
      const inWindow = times.filter((t) => t > (times[i] ?? 0) - 60_000 && t <= (times[i] ?? 0));
      expect(inWindow.length).toBeLessThanOrEqual(60);
    }
    expect(times.at(-1)).toBe(119_000);
  });
});

describe('SlidingWindow with a longest wait', () => {
  it('refuses, counting nothing, a request whose turn is further away than the caller waits', async () => {
    const c = clocked(2, 60_000);
    await c.window.take(1000);
    await c.window.take(1000);
    await expect(c.window.take(1000)).rejects.toMatchObject({ name: 'WindowFullError', retryAfterMs: 60_000 });
    c.set(60_000);
    await expect(c.window.take(1000)).resolves.toBeUndefined();
    expect(c.sleeps).toEqual([]);
  });
});
