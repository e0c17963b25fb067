// Follows the open legs of trades on venues that can close a position by themselves (Deriv stops a multiplier out):
// one subscription per open leg, ended when the trade ends. A stop-out reaches the engine at once, which records it
// and closes the other leg. After a restart it also checks that every open position a venue lists belongs to a trade.
import type { Subscription } from 'rxjs';
import { VENUE_NAMES, type VenueId } from '../../contract/domain';
import type { Notice } from '../../contract/events';
import type { PositionClosed, Venue } from '../venues/types';
import { messageOf } from './executor';
import type { AccountLoader, EngineLogger } from './ports';
import type { TradeState } from './trade-state';

export interface PositionWatchDeps {
  venues: Record<VenueId, Venue>;
  account: AccountLoader;
  logger(): EngineLogger;
  onClosed(tradeId: string, venue: VenueId, closed: PositionClosed): void;
  /** Pause before watching again after a watch failed (a dropped connection resubscribes by itself). */
  retryMs?: number;
}

export class PositionWatch {
  private readonly watching = new Map<string, Subscription | null>();
  private stopped = false;

  constructor(private readonly deps: PositionWatchDeps) {}

  /** Starts following every open leg of the trade that its venue can close by itself. */
  watch(state: TradeState): void {
    for (const leg of state.legs) {
      const venue = this.deps.venues[leg.venue];
      if (leg.status !== 'open' || !leg.venueOrderId || !leg.open || !venue.watchPosition) continue;
      const key = `${state.tradeId}|${leg.venue}`;
      if (this.watching.has(key)) continue;
      this.watching.set(key, null);
      void this.follow(key, state, leg.venue, leg.venueOrderId, leg.open.quantity);
    }
  }

  /**
   * After a restart: every open position a venue lists for these users must belong to a trade. One that does not (a
   * contract bought just before a crash that no record matches, or one the user opened by hand) is logged and shown
   * to the user; it is not closed, since it may not be the engine's.
   */
  async audit(
    userIds: Set<string>,
    tracked: (userId: string, venue: VenueId) => Set<string>,
    tell: (userId: string, notice: Notice) => void,
  ): Promise<void> {
    for (const venueId of Object.keys(this.deps.venues) as VenueId[]) {
      const venue = this.deps.venues[venueId];
      if (!venue.openPositions) continue;
      const name = VENUE_NAMES[venueId];
      for (const userId of userIds) {
        try {
          const positions = await venue.openPositions(await this.deps.account(userId));
          const known = tracked(userId, venueId);
          for (const position of positions.filter((p) => !known.has(p.venueOrderId))) {
            this.deps.logger().error(
              {
                event: 'untracked_position',
                userId,
                venue: venueId,
                venueOrderId: position.venueOrderId,
                position: position.description,
              },
              'an open position on the venue belongs to no trade',
            );
            tell(userId, {
              level: 'error',
              message: `An open ${name} position is not tracked by any trade: ${position.description} (id ${position.venueOrderId}). Close it on ${name} unless you opened it yourself.`,
            });
          }
        } catch (error) {
          this.deps
            .logger()
            .warn({ err: error, userId, venue: venueId }, `could not list open positions: ${messageOf(error)}`);
        }
      }
    }
  }

  unwatch(tradeId: string): void {
    for (const [key, subscription] of this.watching) {
      if (!key.startsWith(`${tradeId}|`)) continue;
      subscription?.unsubscribe();
      this.watching.delete(key);
    }
  }

  stop(): void {
    this.stopped = true;
    for (const subscription of this.watching.values()) subscription?.unsubscribe();
    this.watching.clear();
  }

  private async follow(
    key: string,
    state: TradeState,
    venueId: VenueId,
    venueOrderId: string,
    quantity: string,
  ): Promise<void> {
    const venue = this.deps.venues[venueId];
    try {
      const account = await this.deps.account(state.userId);
      if (this.stopped || !this.watching.has(key) || !venue.watchPosition) return;
      const subscription = venue.watchPosition(account, state.symbol, venueOrderId, quantity).subscribe({
        next: (closed) => {
          this.unwatch(state.tradeId);
          this.deps.onClosed(state.tradeId, venueId, closed);
        },
        error: (error: unknown) => this.retry(key, state, venueId, venueOrderId, quantity, error),
      });
      if (this.watching.has(key)) this.watching.set(key, subscription);
      else subscription.unsubscribe();
    } catch (error) {
      this.retry(key, state, venueId, venueOrderId, quantity, error);
    }
  }

  private retry(
    key: string,
    state: TradeState,
    venueId: VenueId,
    venueOrderId: string,
    quantity: string,
    error: unknown,
  ): void {
    if (this.stopped || !this.watching.has(key)) return;
    this.deps
      .logger()
      .warn(
        { tradeId: state.tradeId, venue: venueId, err: error },
        `could not follow the open ${venueId} leg: ${messageOf(error)}; trying again`,
      );
    this.watching.set(key, null);
    const timer = setTimeout(() => {
      if (this.watching.has(key)) void this.follow(key, state, venueId, venueOrderId, quantity);
    }, this.deps.retryMs ?? 5_000);
    timer.unref();
  }
}
