// Socket.IO event map, shared by the gateway and the client. No runtime dependencies.
import type { ArbitrageOpportunity, Balances, Stats, SymbolPrice, Trade } from './entities';

export const SERVER_EVENTS = {
  newTrade: 'new_trade',
  tradeUpdated: 'trade_updated',
  balanceUpdated: 'balance_updated',
  statsUpdated: 'stats_updated',
  priceUpdate: 'priceUpdate',
  arbitrageOpportunity: 'arbitrage_opportunity',
  /** A notice for one user, e.g. trading stopped after reaching maxLoss. */
  notice: 'notice',
} as const;

export const CLIENT_EVENTS = { joinRoom: 'join_room', leaveRoom: 'leave_room' } as const;

export interface Notice {
  level: 'info' | 'warning' | 'error';
  message: string;
}

export interface RoomAck {
  ok: boolean;
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
}

export interface ClientToServerEvents {
  join_room: (room: string, ack?: (result: RoomAck) => void) => void;
  leave_room: (room: string, ack?: (result: RoomAck) => void) => void;
}
