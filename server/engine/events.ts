// What the engine tells the rest of the server. The realtime gateway maps these onto Socket.IO rooms.
import type { ArbitrageOpportunity, Balances, Notice, Stats, SymbolPrice, Trade } from '../../contract';

export type EngineEvent =
  | { type: 'new_trade'; userId: string; trade: Trade }
  | { type: 'trade_updated'; userId: string; trade: Trade }
  | { type: 'balance_updated'; userId: string; balance: Partial<Balances> }
  | { type: 'stats_updated'; userId: string; stats: Partial<Stats> }
  | { type: 'notice'; userId: string; notice: Notice }
  /** Broadcast to every signed-in client. */
  | { type: 'priceUpdate'; price: SymbolPrice }
  | { type: 'arbitrage_opportunity'; opportunity: ArbitrageOpportunity };
