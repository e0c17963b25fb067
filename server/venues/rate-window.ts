// A venue's documented request rate, kept on our side: at most `limit` requests in any `windowMs`, callers served in
// order, each waiting for its turn rather than being refused. An exact sliding window, because a fixed-window counter
// (rate-limiter-flexible's) lets twice the rate through across a window boundary, which the venue may count as abuse.
const pause = (ms: number): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    timer.unref();
  });

/** The next slot is further away than the caller will wait. */
export class WindowFullError extends Error {
  constructor(readonly retryAfterMs: number) {
    super(`the next request fits in ${Math.ceil(retryAfterMs / 1000)} s`);
    this.name = 'WindowFullError';
  }
}

export class SlidingWindow {
  private readonly times: number[] = [];
  private queue: Promise<void> = Promise.resolve();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly now: () => number = Date.now,
    private readonly sleep: (ms: number) => Promise<void> = pause,
  ) {}

  /**
   * Resolves when one more request fits in the window; the request counts from then. Rejects with WindowFullError,
   * counting nothing, when its turn would come later than `maxWaitMs` from when it is next in line.
   */
  take(maxWaitMs = Infinity): Promise<void> {
    const turn = this.queue.then(() => this.wait(maxWaitMs));
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  private async wait(maxWaitMs: number): Promise<void> {
    for (;;) {
      const now = this.now();
      while (this.times.length > 0 && (this.times[0] ?? 0) <= now - this.windowMs) this.times.shift();
      if (this.times.length < this.limit) {
        this.times.push(now);
        return;
      }
      const delay = (this.times[0] ?? now) + this.windowMs - now;
      if (delay > maxWaitMs) throw new WindowFullError(delay);
      await this.sleep(delay);
    }
  }
}

/** One window per key (a venue that counts per token), made on first use. */
export class SlidingWindows {
  private readonly windows = new Map<string, SlidingWindow>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  take(key: string, maxWaitMs?: number): Promise<void> {
    let window = this.windows.get(key);
    if (!window) {
      window = new SlidingWindow(this.limit, this.windowMs);
      this.windows.set(key, window);
    }
    return window.take(maxWaitMs);
  }
}
