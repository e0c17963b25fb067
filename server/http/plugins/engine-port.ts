// What the routes need from the trading engine (the `engine` decorator). `app.engine` is null on an API-only instance
// (ENGINE=off): those routes then answer 503 with a message saying so — the engine instance and the realtime socket
// carry prices and trading; settings changes still land in the database, where the engine instance picks them up
// within seconds.
import type { SymbolId } from '../../../contract/domain';
import type { OpportunityOutcome, Prices } from '../../../contract/entities';
import type { VenueHealth } from '../../../contract/venue-health';
import type { CloseUserTradesResult, CommandResult } from '../../engine/engine';
import type { Venue } from '../../venues/types';

export interface TradingFacade {
  readonly isTrading: boolean;
  readonly venues: { binance: Venue; deriv: Venue };
  prices(minSpread: number, symbol?: SymbolId): Prices;
  /** Each venue's connection (state, round trip, last error), as the venues' connectors see it. */
  venueHealth(): VenueHealth[];
  /** The user's newest opportunity outcomes on this instance, newest first. */
  recentOutcomes(userId: string): OpportunityOutcome[];
  addUser(userId: string): Promise<void>;
  removeUser(userId: string): Promise<void>;
  refreshUser(userId: string): Promise<void>;
  createManualTrade(userId: string, symbol: SymbolId, totalAmount: number): Promise<CommandResult>;
  cancelTrade(userId: string, id: string): Promise<CommandResult>;
  /** Closes every open trade of the user (an admin removing the account), waiting up to `waitMs` for them to end. */
  closeUserTrades(
    userId: string,
    reason: string,
    waitMs: number,
  ): Promise<CloseUserTradesResult | { ok: false; message: string }>;
  /** The admin's kill switch was just saved; this instance's engine applies it at once. */
  setGlobalHalt(halted: boolean): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The trading engine of this process; null on an API-only instance (ENGINE=off). */
    engine: TradingFacade | null;
  }
}

export const API_ONLY_MESSAGE =
  'This server instance is API-only (ENGINE=off): prices and trading are handled by the engine instance. Live prices arrive over the realtime connection.';
