// The one interface through which the engine knows a venue. Decimal values cross it as strings.
import type { Observable } from 'rxjs';
import type { DerivAccountInfo, DerivApi } from '../../contract/deriv';
import type { Currency, SymbolId, VenueId } from '../../contract/domain';
import type { VenueHealthSource } from './health';

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
    /** A Deriv personal access token (new API, with derivAppId) or a legacy API token. */
    derivToken?: string;
    derivAppId?: string;
    /** Which Deriv API the token was last found to belong to; found out (new API first) when absent. */
    derivApi?: DerivApi;
    /** The Deriv Options account chosen to trade (new API). */
    derivAccountId?: string;
  };
  /**
   * Where a connector writes down what the venue said about these credentials (Deriv: the API, the accounts), so
   * that the next process and Settings know it. Absent for credentials that are not saved (a test of typed ones).
   */
  remember?: (facts: VenueFacts) => Promise<void>;
}

/** What a connector found out about saved credentials. */
export interface VenueFacts {
  /** `chosen`: the account the connector took because the token reaches only that one. */
  deriv: { api: DerivApi; accounts: DerivAccountInfo[]; chosen?: string };
}

/**
 * How a venue without client order ids (Deriv) recognises an order it was sent: written down before the order goes
 * out, so that after a crash the order can be matched in the account's own records. Plain values, stored with the leg.
 */
export type OrderPlacement = Record<string, string | number>;

/** What a connector tells the engine about an opening order while it is on its way (write-ahead). */
export type OrderNote =
  /** About to be sent: how to recognise it at the venue. The order is sent only after this is recorded. */
  | { kind: 'attempt'; placement: OrderPlacement }
  /** The venue answered with its id (Deriv's contract id) before the fill is known in full. */
  | { kind: 'placed'; venueOrderId: string };

export interface PriceProtection {
  /** The decision's quote for this side: Binance ask for a buy, bid for a sell; the same on Deriv. */
  price: string;
  /** How far the fill may be from it, a fraction (0.001 = 10 bp). */
  maxSlippage: number;
}

export interface LegOrder {
  /** Idempotency key: the venue never executes two orders with the same id. */
  clientOrderId: string;
  symbol: SymbolId;
  /** 'buy' = long the asset on this venue; 'sell' = short (Deriv MULTDOWN) or sell held coins (Binance). */
  side: 'buy' | 'sell';
  /** Notional in USDT, decimal string. */
  notional: string;
  /** When given, the order must not fill further than this from the decision's quote; it is refused instead. */
  protection?: PriceProtection;
  /** Awaited write-ahead notes (see OrderNote); a failure to record an attempt stops the order from being sent. */
  journal?: (note: OrderNote) => Promise<void>;
}

/** What is known about an order from the engine's own records, for finding it again (crash recovery). */
export interface KnownOrder {
  /** The venue's id of the opening order/contract, when it was recorded. */
  venueOrderId: string | null;
  /** The attempt written down before the order went out. */
  placement: OrderPlacement | null;
  /** Venue order ids that other trades already own: never matched to this one. */
  claimed?: ReadonlySet<string>;
  /** Whether the order opened or closed the leg (an opening buy holds its quantity net of a commission in the coin). */
  role?: 'open' | 'close';
}

/** A venue's own limits and costs for one symbol on one account, as the venue states them. */
export interface TradeRules {
  /** The currency an order is paid from (Binance: USDT for a buy; Deriv: the account currency). */
  currency: string;
  /** Smallest and largest notional of one order, USDT; null where the venue states none. */
  minNotional: string | null;
  maxNotional: string | null;
  /** Binance LOT_SIZE: the quantity step and the smallest quantity; null where orders are sized by stake. */
  stepSize: string | null;
  minQuantity: string | null;
  /** Deriv: the multiplier orders use (the lowest the venue offers for the symbol) and the stake bounds. */
  multiplier: number | null;
  minStake: string | null;
  maxStake: string | null;
  /** Fee of one order as a fraction of its notional (Binance taker rate; Deriv commission). */
  feeRate: string;
}

/** An open position the venue reports for an account (Deriv's portfolio). */
export interface VenuePosition {
  venueOrderId: string;
  symbol: SymbolId | null;
  /** In the venue's words, e.g. 'MULTDOWN cryBTCUSD, stake 25 USD'. */
  description: string;
  openedAt: number;
}

/** The venue closed a position the engine holds (a stop-out, or a sale the engine did not order). */
export interface PositionClosed {
  fill: LegFill;
  /** In the trader's words, e.g. 'Deriv stopped the contract out'. */
  reason: string;
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
  /** Base quantity (coins) the position holds, decimal string: net of a commission the venue took in the coin. */
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
  /**
   * Looks an order up by client order id (crash recovery, unknown outcomes); null when the venue never saw it. A venue
   * without client order ids uses what the engine knows of the order (its id, the attempt written before it).
   */
  findOrder(
    account: VenueAccount,
    symbol: SymbolId,
    clientOrderId: string,
    known?: KnownOrder,
  ): Promise<LegFill | null>;
  /** The venue's limits and costs for the symbol on this account (pre-trade checks). */
  tradeRules(account: VenueAccount, symbol: SymbolId): Promise<TradeRules>;
  /** Emits once if the venue closes an open position by itself (stop-out); venues without such positions omit it. */
  watchPosition?(
    account: VenueAccount,
    symbol: SymbolId,
    venueOrderId: string,
    quantity: string,
  ): Observable<PositionClosed>;
  /** The account's open positions as the venue lists them (after a restart, to find what no trade tracks). */
  openPositions?(account: VenueAccount): Promise<VenuePosition[]>;
  /** Checks credentials; resolves with a human-readable summary or rejects with a VenueError. */
  testConnection(account: VenueAccount): Promise<string>;
  /** The market-data connection's health (state, round trip, last error); test doubles without one omit it. */
  readonly health?: VenueHealthSource;
  close(): Promise<void>;
}

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
  recordFill(
    userId: string,
    venue: VenueId,
    symbol: SymbolId,
    fill: LegFill,
    deltas: Partial<Record<Currency, string>>,
  ): Promise<LegFill>;
  balances(userId: string, venue: VenueId): Promise<Record<Currency, string>>;
}
