// What the engine tells the rest of the server. The realtime gateway maps these onto Socket.IO rooms; each event's
// type is the contract's event name, so the two never drift apart.
import type {
  ArbitrageOpportunity,
  Balances,
  Notice,
  OpportunityOutcome,
  Stats,
  SymbolPrice,
  Trade,
} from '../../contract';
import type { SERVER_EVENTS } from '../../contract/events';
import type { VenueHealth } from '../../contract/venue-health';

type Name = typeof SERVER_EVENTS;

export type EngineEvent =
  | { type: Name['newTrade']; userId: string; trade: Trade }
  | { type: Name['tradeUpdated']; userId: string; trade: Trade }
  | { type: Name['balanceUpdated']; userId: string; balance: Partial<Balances> }
  | { type: Name['statsUpdated']; userId: string; stats: Partial<Stats> }
  | { type: Name['notice']; userId: string; notice: Notice }
  | { type: Name['opportunityOutcome']; userId: string; outcome: OpportunityOutcome }
  /** Broadcast to every signed-in client. */
  | { type: Name['priceUpdate']; price: SymbolPrice }
  | { type: Name['arbitrageOpportunity']; opportunity: ArbitrageOpportunity }
  /** Broadcast to every signed-in client: a venue's connection changed. */
  | { type: Name['venueHealth']; health: VenueHealth };
