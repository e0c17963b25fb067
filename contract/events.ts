// Socket.IO event map, shared by the gateway and the client. No runtime dependencies.
import type { TradingHaltState } from './guard';
import type { SentNotification } from './notification-history';
import type { VenueHealth } from './venue-health';
import type { SymbolId } from './pairs';
import type {
  ArbitrageOpportunity,
  Balances,
  OpportunityOutcome,
  PublicUser,
  Stats,
  SymbolPrice,
  Trade,
} from './entities';

export const SERVER_EVENTS = {
  newTrade: 'new_trade',
  tradeUpdated: 'trade_updated',
  balanceUpdated: 'balance_updated',
  statsUpdated: 'stats_updated',
  priceUpdate: 'priceUpdate',
  arbitrageOpportunity: 'arbitrage_opportunity',
  /** A notice for one user, e.g. trading stopped after reaching maxLoss. */
  notice: 'notice',
  /** Per user: what the engine did with an opportunity (taken, or skipped and why); rate-limited per symbol. */
  opportunityOutcome: 'opportunity_outcome',
  /** To every signed-in user: the admin's global kill switch changed. */
  tradingHalt: 'trading_halt',
  /** Per user: a notification was just sent them (its entry in their notifications history). */
  notification: 'notification',
  /** To every signed-in client: a venue's connection changed (state, round trip, error). */
  venueHealth: 'venue_health',
} as const;

export const CLIENT_EVENTS = {
  joinRoom: 'join_room',
  leaveRoom: 'leave_room',
  /** The pairs whose `priceUpdate`s this connection wants (null: every pair, as a connection starts). */
  watchPairs: 'watch_pairs',
} as const;

export interface Notice {
  level: 'info' | 'warning' | 'error';
  message: string;
  /** When the engine changed the user's trading settings (a pause or a halt): the fields as they are now saved. */
  user?: Partial<Pick<PublicUser, 'tradingEnabled' | 'tradingStop' | 'tradingPausedAt' | 'tradingPauseReason'>>;
}

export interface RoomAck {
  ok: boolean;
  message?: string;
}

export interface WatchAck {
  ok: boolean;
  /** The pairs now watched (null: every pair). */
  pairs?: SymbolId[] | null;
  message?: string;
}

export interface ServerToClientEvents {
  new_trade: (trade: Trade) => void;
  trade_updated: (trade: Trade) => void;
  balance_updated: (balance: Partial<Balances>) => void;
  stats_updated: (stats: Partial<Stats>) => void;
  /** One symbol's price; the client merges it into its map. `arbitrage.profitable` is against the default 0.002. */
  priceUpdate: (price: SymbolPrice) => void;
  arbitrage_opportunity: (opportunity: ArbitrageOpportunity) => void;
  notice: (notice: Notice) => void;
  opportunity_outcome: (outcome: OpportunityOutcome) => void;
  trading_halt: (halt: TradingHaltState) => void;
  notification: (notification: SentNotification) => void;
  venue_health: (health: VenueHealth) => void;
}

export interface ClientToServerEvents {
  join_room: (room: string, ack?: (result: RoomAck) => void) => void;
  leave_room: (room: string, ack?: (result: RoomAck) => void) => void;
  /**
   * Beyond the spec: only these pairs' prices from now on (a screen without prices watches none, and saves a phone
   * about PRICE_HZ messages a second per pair). A client that never asks gets every pair's.
   */
  watch_pairs: (pairs: SymbolId[] | null, ack?: (result: WatchAck) => void) => void;
}
