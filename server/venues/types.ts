// The one interface through which the engine knows a venue. Decimal values cross it as strings.
import type { Observable } from 'rxjs';
import type { Currency, SymbolId, VenueId } from '../../contract/domain';

export interface Quote {
  venue: VenueId;
  symbol: SymbolId;
  bid: number;
  ask: number;
  /** Venue timestamp, ms since epoch. */
  ts: number;
}

/** Whose account an operation acts on. Credentials are decrypted only by the caller that signs orders. */
export interface VenueAccount {
  userId: string;
  credentials: {
    binanceApiKey?: string;
    binanceSecretKey?: string;
    derivToken?: string;
    derivAppId?: string;
  };
}

export interface LegOrder {
  /** Idempotency key: the venue never executes two orders with the same id. */
  clientOrderId: string;
  symbol: SymbolId;
  /** 'buy' = long the asset on this venue; 'sell' = short (Deriv MULTDOWN) or sell held coins (Binance). */
  side: 'buy' | 'sell';
  /** Notional in USDT, decimal string. */
  notional: string;
}

export interface CloseOrder {
  clientOrderId: string;
  symbol: SymbolId;
  /** The open leg's side; closing does the opposite. */
  side: 'buy' | 'sell';
  quantity: string;
  /** The venue's id of the opening order/contract (Deriv needs the contract id to sell). */
  venueOrderId: string | null;
}

export interface LegFill {
  clientOrderId: string;
  venueOrderId: string;
  /** Average price, USDT, decimal string. */
  price: string;
  /** Base quantity (coins), decimal string. */
  quantity: string;
  /** Fee in USDT, decimal string. */
  fee: string;
  at: number;
}

export type VenueErrorKind =
  | 'auth' // bad key, bad signature, bad token, forbidden scope
  | 'insufficient-balance'
  | 'rate-limit'
  | 'rejected' // the venue refused the order for another stated reason
  | 'unknown-outcome' // 5xx or dropped connection while placing: query before assuming anything
  | 'unavailable'; // cannot reach the venue

export class VenueError extends Error {
  constructor(
    readonly venue: VenueId,
    readonly kind: VenueErrorKind,
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'VenueError';
  }
}

export interface Venue {
  readonly id: VenueId;
  /** Best bid/ask stream for a symbol; hot, shared, never completes while the venue runs. */
  quotes(symbol: SymbolId): Observable<Quote>;
  /** Taker fee as a fraction (Binance: the account's own rate, 0.001 when unknown; Deriv: commission per proposal, so 0 here). */
  takerFeeRate(account: VenueAccount): Promise<string>;
  balances(account: VenueAccount): Promise<Record<Currency, string>>;
  /** Places the opening order. Idempotent on clientOrderId: a retry returns the first fill. */
  openLeg(account: VenueAccount, order: LegOrder): Promise<LegFill>;
  /** Closes an open leg. Idempotent on clientOrderId. */
  closeLeg(account: VenueAccount, order: CloseOrder): Promise<LegFill>;
  /** Looks an order up by client order id (crash recovery, unknown outcomes); null when the venue never saw it. */
  findOrder(account: VenueAccount, symbol: SymbolId, clientOrderId: string): Promise<LegFill | null>;
  /** Checks credentials; resolves with a human-readable summary or rejects with a VenueError. */
  testConnection(account: VenueAccount): Promise<string>;
  close(): Promise<void>;
}

/** Paper balances a user starts with in the simulated market, per venue. */
export const PAPER_SEED: Record<VenueId, Record<Currency, string>> = {
  binance: { USDT: '10000', BTC: '0.1', ETH: '2' },
  deriv: { USDT: '10000', BTC: '0', ETH: '0' },
};

/**
 * Where simulated venues keep paper orders and balances, so that both survive a restart and a retried
 * client order id finds its first fill. The database implementation lives under server/db/repositories.
 */
export interface PaperBook {
  findOrder(userId: string, venue: VenueId, clientOrderId: string): Promise<LegFill | null>;
  /**
   * Atomically records the fill and applies the balance deltas, unless an order with the same client order id
   * exists, in which case nothing changes and the first fill is returned. Rejects with VenueError
   * 'insufficient-balance' when a delta would take a balance below zero.
   */
  recordFill(userId: string, venue: VenueId, symbol: SymbolId, fill: LegFill, deltas: Partial<Record<Currency, string>>): Promise<LegFill>;
  balances(userId: string, venue: VenueId): Promise<Record<Currency, string>>;
}
