// A user's balances (from the venues) and stats (from the database) sent after something changed them: a fill, a
// pause. Coalesced per user, so a burst of fills costs one refresh; and only a few users are refreshed at once, so on a
// burst of a thousand users these reads, which only inform the screens, do not fill the database pool ahead of the
// trades' own reads and writes (the others wait their turn, each still refreshed once with what it holds by then).
import { SERVER_EVENTS } from '../../contract/events';
import type { VenueId } from '../../contract/domain';
import type { Venue } from '../venues/types';
import type { EngineEvent } from './events';
import { balancesOf } from './figures';
import type { AccountLoader, EngineLogger, FigureSources, PriceBook } from './ports';

export interface FigureRefreshDeps {
  venues: Record<VenueId, Venue>;
  account: AccountLoader;
  figures: FigureSources;
  prices: PriceBook;
  now(): Date;
  emit(event: EngineEvent): void;
  logger(): EngineLogger;
  /** Users refreshed at once (4 when omitted). */
  maxAtOnce?: number;
}

export class FigureRefresh {
  /** Users being refreshed; true when another refresh was asked for meanwhile. */
  private readonly busy = new Map<string, boolean>();
  /** Users waiting for a refresh slot, in the order they asked (each once). */
  private readonly waiting = new Set<string>();
  private running = 0;
  private readonly maxAtOnce: number;

  constructor(private readonly deps: FigureRefreshDeps) {
    this.maxAtOnce = deps.maxAtOnce ?? 4;
  }

  request(userId: string): void {
    if (this.busy.has(userId)) {
      this.busy.set(userId, true);
      return;
    }
    this.waiting.add(userId);
    this.pump();
  }

  private pump(): void {
    for (const userId of this.waiting) {
      if (this.running >= this.maxAtOnce) return;
      this.waiting.delete(userId);
      this.running += 1;
      this.busy.set(userId, false);
      void this.refresh(userId).finally(() => {
        this.busy.delete(userId);
        this.running -= 1;
        this.pump();
      });
    }
  }

  private async refresh(userId: string): Promise<void> {
    try {
      for (;;) {
        await this.send(userId);
        if (!this.busy.get(userId)) break;
        this.busy.set(userId, false);
      }
    } catch (error) {
      this.deps.logger().warn({ err: error, userId }, 'could not refresh balances and stats');
    }
  }

  private async send(userId: string): Promise<void> {
    const { venues, figures } = this.deps;
    const account = await this.deps.account(userId);
    const [binance, deriv] = await Promise.all([venues.binance.balances(account), venues.deriv.balances(account)]);
    if (figures.saveBalances) {
      await figures.saveBalances(userId, 'binance', binance);
      await figures.saveBalances(userId, 'deriv', deriv);
    }
    const stats = await figures.stats(userId, this.deps.prices);
    this.deps.emit({
      type: SERVER_EVENTS.balanceUpdated,
      userId,
      balance: balancesOf({ binance, deriv }, stats, this.deps.now()),
    });
    this.deps.emit({ type: SERVER_EVENTS.statsUpdated, userId, stats });
  }
}
