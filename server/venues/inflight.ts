// Concurrent calls for the same client order id share one attempt, so a hasty retry can never place a second order
// while the first is still on the wire (Binance accepts a repeated id once the first order is filled; Deriv has none).
export class InFlight<T> {
  private readonly running = new Map<string, Promise<T>>();

  run(key: string, attempt: () => Promise<T>): Promise<T> {
    const existing = this.running.get(key);
    if (existing) return existing;
    const promise = attempt().finally(() => this.running.delete(key));
    this.running.set(key, promise);
    return promise;
  }
}
