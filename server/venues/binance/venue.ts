// Binance spot through ccxt, per user account: orders with client order ids (LIMIT IOC at the decision's price and a
// tolerance when price protection is asked, else MARKET), balances, the account's own taker fee, the symbol's filters
// from exchangeInfo, and "query, don't assume" whenever an order's outcome is unknown.
import { TRADING_COSTS } from '../../../contract/costs';
import ccxt from 'ccxt';
import Decimal from 'decimal.js';
import { performance } from 'node:perf_hooks';
import { filter, Observable, share, shareReplay } from 'rxjs';
import type { VenueHealth } from '../../../contract/venue-health';
import type { Currency, SymbolId } from '../../../contract/domain';
import type { BackoffOptions } from '../backoff';
import { LinkHealth, type VenueHealthSource } from '../health';
import { enabledCurrencies } from '../enabled-pairs';
import { InFlight } from '../inflight';
import {
  VenueError,
  type CloseOrder,
  type KnownOrder,
  type LegFill,
  type LegOrder,
  type Quote,
  type TradeRules,
  type Venue,
  type VenueAccount,
} from '../types';
import { toVenueError, isDuplicateOrder } from './errors';
import { createBinanceExchange, type BinanceEndpoints, type BinanceExchange } from './exchange';
import { toLegFill, type RawFill, type RawOrder } from './fills';
import { binanceQuoteStream } from './quotes';

export interface BinanceVenueOptions {
  endpoints: BinanceEndpoints;
  backoff?: BackoffOptions;
  /** How long an account's fee rate is reused before it is read again. */
  feeCacheMs?: number;
  onStreamError?: (error: unknown, attempt: number) => void;
  /** How often the REST round trip is measured while someone watches the venue's health. */
  probeIntervalMs?: number;
}

/** When the account does not say (contract/costs.ts). */
const DEFAULT_TAKER_FEE = String(TRADING_COSTS.defaultTakerFee);

interface AccountClient {
  secret: string;
  client: Promise<BinanceExchange>;
}

export class BinanceVenue implements Venue {
  private readonly inflight = new InFlight<LegFill>();
  readonly id = 'binance' as const;
  private readonly endpoints: BinanceEndpoints;
  private publicClient: Promise<BinanceExchange> | null = null;
  private readonly accountClients = new Map<string, AccountClient>();
  private readonly feeCache = new Map<string, { rate: string; until: number }>();
  private readonly stream: Observable<Quote>;
  private readonly perSymbol = new Map<SymbolId, Observable<Quote>>();
  private readonly feeCacheMs: number;
  private closed = false;
  private readonly link = new LinkHealth('binance', 'round trip of GET /api/v3/ping to the REST API');
  /**
   * The quote stream's connection (connected while ccxt's bookTicker watches answer, down with the error that broke
   * it) and the REST round trip, measured at once and then every probeIntervalMs while the health is watched.
   */
  readonly health: VenueHealthSource;

  constructor(options: BinanceVenueOptions) {
    this.endpoints = options.endpoints;
    this.feeCacheMs = options.feeCacheMs ?? 5 * 60_000;
    this.stream = binanceQuoteStream(() => (this.closed ? Promise.resolve(null) : this.publicExchange()), {
      backoff: options.backoff,
      onError: options.onStreamError,
      health: this.link,
    });
    const probeEvery = options.probeIntervalMs ?? 30_000;
    this.health = {
      current: () => this.link.current(),
      changes$: new Observable<VenueHealth>((subscriber) => {
        const changes = this.link.changes$.subscribe(subscriber);
        void this.probeLatency();
        const timer = setInterval(() => void this.probeLatency(), probeEvery);
        timer.unref();
        return () => {
          clearInterval(timer);
          changes.unsubscribe();
        };
      }).pipe(share()),
    };
  }

  /** One REST round trip (GET /api/v3/ping, weight 1), timed from the request to its answer. */
  private async probeLatency(): Promise<void> {
    if (this.closed) return;
    try {
      const client = await this.publicExchange();
      const started = performance.now();
      await client.publicGetPing();
      if (!this.closed) this.link.roundTrip(performance.now() - started);
    } catch (error) {
      if (!this.closed) this.link.failed(toVenueError(error, 'read'));
    }
  }

  quotes(symbol: SymbolId): Observable<Quote> {
    let stream = this.perSymbol.get(symbol);
    if (!stream) {
      stream = this.stream.pipe(
        filter((q) => q.symbol === symbol),
        shareReplay({ bufferSize: 1, refCount: true }),
      );
      this.perSymbol.set(symbol, stream);
    }
    return stream;
  }

  async takerFeeRate(account: VenueAccount): Promise<string> {
    const cached = this.feeCache.get(account.userId);
    if (cached && cached.until > Date.now()) return cached.rate;
    const info = await this.accountInfo(account);
    const rate =
      info.commissionRates?.taker ??
      (info.takerCommission !== undefined ? String(info.takerCommission / 10_000) : DEFAULT_TAKER_FEE);
    const normalised = new Decimal(rate).toFixed();
    this.feeCache.set(account.userId, { rate: normalised, until: Date.now() + this.feeCacheMs });
    return normalised;
  }

  async balances(account: VenueAccount): Promise<Record<Currency, string>> {
    const info = await this.accountInfo(account);
    const free = (asset: Currency): string =>
      new Decimal(info.balances?.find((b) => b.asset === asset)?.free ?? '0').toFixed();
    // USDT and the coin of every pair the server trades (SYMBOLS), not only the spec's two.
    return Object.fromEntries(enabledCurrencies().map((c) => [c, free(c)]));
  }

  openLeg(account: VenueAccount, order: LegOrder): Promise<LegFill> {
    return this.inflight.run(`${account.userId}|${order.clientOrderId}`, () => this.open(account, order));
  }

  closeLeg(account: VenueAccount, order: CloseOrder): Promise<LegFill> {
    return this.inflight.run(`${account.userId}|${order.clientOrderId}`, () => this.closePosition(account, order));
  }

  /** NOTIONAL and LOT_SIZE from exchangeInfo (as ccxt parses them into the market), and the account's taker fee. */
  async tradeRules(account: VenueAccount, symbol: SymbolId): Promise<TradeRules> {
    const client = await this.accountExchange(account);
    const market = client.market(symbol);
    const text = (value: number | undefined): string | null =>
      value === undefined || value === null ? null : new Decimal(value).toFixed();
    return {
      currency: 'USDT',
      minNotional: text(market.limits.cost?.min),
      maxNotional: text(market.limits.cost?.max),
      stepSize: text(market.precision.amount),
      minQuantity: text(market.limits.amount?.min),
      multiplier: null,
      minStake: null,
      maxStake: null,
      feeRate: await this.takerFeeRate(account).catch(() => DEFAULT_TAKER_FEE),
    };
  }

  private async open(account: VenueAccount, order: LegOrder): Promise<LegFill> {
    const notional = new Decimal(order.notional);
    if (!notional.isFinite() || notional.lte(0))
      throw new VenueError('binance', 'rejected', `Invalid notional: ${order.notional}`);
    const { protection } = order;
    return this.placeOnce(account, order.symbol, order.clientOrderId, 'open', (client) => {
      // quoteOrderQty spends (buy) or raises (sell) exactly this much USDT.
      if (!protection)
        return client.createOrder(order.symbol, 'market', order.side, notional.toNumber(), undefined, {
          quoteOrderQty: notional.toFixed(),
          newClientOrderId: order.clientOrderId,
        });
      // Price protection: a limit at the decision's price plus the tolerance, filled at once or not at all (IOC).
      const decided = new Decimal(protection.price);
      const limit = decided.times(order.side === 'buy' ? 1 + protection.maxSlippage : 1 - protection.maxSlippage);
      const amount = Number(client.amountToPrecision(order.symbol, notional.dividedBy(decided).toNumber()));
      if (!(amount > 0))
        throw new VenueError('binance', 'rejected', `${order.notional} USDT is below one step of ${order.symbol}`);
      const price = Number(client.priceToPrecision(order.symbol, limit.toNumber()));
      return client.createOrder(order.symbol, 'limit', order.side, amount, price, {
        timeInForce: 'IOC',
        newClientOrderId: order.clientOrderId,
      });
    });
  }

  private async closePosition(account: VenueAccount, order: CloseOrder): Promise<LegFill> {
    const closingSide = order.side === 'buy' ? 'sell' : 'buy';
    let quantity = new Decimal(order.quantity);
    if (!quantity.isFinite() || quantity.lte(0))
      throw new VenueError('binance', 'rejected', `Invalid quantity: ${order.quantity}`);
    return this.placeOnce(account, order.symbol, order.clientOrderId, 'close', async (client) => {
      if (closingSide === 'sell') {
        // A buyer paid its commission in the coin, so it holds a little less than it bought: sell what is there.
        const coin = order.symbol.split('/')[0] as Currency;
        const held = new Decimal((await this.balances(account))[coin] ?? 0);
        quantity = Decimal.min(quantity, held);
      }
      const amount = Number(client.amountToPrecision(order.symbol, quantity.toNumber()));
      if (!(amount > 0))
        throw new VenueError('binance', 'insufficient-balance', `No ${order.symbol} quantity left to sell`);
      return client.createOrder(order.symbol, 'market', closingSide, amount, undefined, {
        newClientOrderId: order.clientOrderId,
      });
    });
  }

  async findOrder(
    account: VenueAccount,
    symbol: SymbolId,
    clientOrderId: string,
    known?: KnownOrder,
  ): Promise<LegFill | null> {
    return this.lookUp(account, symbol, clientOrderId, known?.role ?? 'open');
  }

  private async lookUp(
    account: VenueAccount,
    symbol: SymbolId,
    clientOrderId: string,
    role: 'open' | 'close',
  ): Promise<LegFill | null> {
    const client = await this.accountExchange(account);
    let raw: RawOrder;
    try {
      const order = await client.fetchOrder(undefined as unknown as string, symbol, {
        origClientOrderId: clientOrderId,
      });
      raw = order.info as RawOrder;
    } catch (error) {
      if (error instanceof ccxt.OrderNotFound) return null;
      throw toVenueError(error, 'read');
    }
    if (new Decimal(raw.executedQty).lte(0)) return null;
    try {
      const trades = await client.fetchOrderTrades(String(raw.orderId), symbol);
      const fills = trades.map((t) => t.info as RawFill);
      const takerRate = await this.takerFeeRate(account).catch(() => DEFAULT_TAKER_FEE);
      const heldAfter = await this.coinAfterBuy(account, symbol, raw, role);
      return toLegFill(symbol, raw, fills, takerRate, role, lotStep(client, symbol), heldAfter);
    } catch (error) {
      throw toVenueError(error, 'read');
    }
  }

  async testConnection(account: VenueAccount): Promise<string> {
    const info = await this.accountInfo(account);
    if (info.canTrade === false)
      throw new VenueError('binance', 'auth', 'The Binance API key cannot trade: enable Spot trading for it');
    const fee = new Decimal(await this.takerFeeRate(account)).times(100).toFixed();
    return `Binance connected: spot trading enabled, taker fee ${fee} %`;
  }

  async close(): Promise<void> {
    this.closed = true;
    const clients = [this.publicClient, ...[...this.accountClients.values()].map((a) => a.client)].filter(
      (c) => c !== null,
    );
    this.publicClient = null;
    this.accountClients.clear();
    await Promise.all(clients.map(async (c) => (await c.catch(() => null))?.close()));
  }

  /** Places an order unless the venue already has one with this id; on an unknown outcome, asks before failing. */
  private async placeOnce(
    account: VenueAccount,
    symbol: SymbolId,
    clientOrderId: string,
    role: 'open' | 'close',
    place: (client: BinanceExchange) => Promise<{ info: unknown }>,
  ): Promise<LegFill> {
    const client = await this.accountExchange(account);
    // Binance refuses a repeated client order id only while the first order is open, and neither a market nor an
    // IOC order stays open: ask first, so a retry returns the first fill instead of trading twice.
    const first = await this.lookUp(account, symbol, clientOrderId, role);
    if (first) return first;
    // Read before placing: once the order has executed, nothing may turn its fill into an error.
    const takerRate = await this.takerFeeRate(account).catch(() => DEFAULT_TAKER_FEE);
    try {
      const order = await place(client);
      const raw = order.info as RawOrder & { fills?: RawFill[] };
      const heldAfter = await this.coinAfterBuy(account, symbol, raw, role);
      return toLegFill(symbol, raw, raw.fills ?? [], takerRate, role, lotStep(client, symbol), heldAfter);
    } catch (error) {
      const mapped = toVenueError(error, 'order');
      if (mapped.kind !== 'unknown-outcome' && !isDuplicateOrder(error)) throw mapped;
      let found: LegFill | null;
      try {
        found = await this.lookUp(account, symbol, clientOrderId, role);
      } catch {
        throw mapped;
      }
      if (found) return found;
      if (isDuplicateOrder(error))
        throw new VenueError(
          'binance',
          'rejected',
          `Binance reports order ${clientOrderId} as a duplicate but has no fill for it`,
        );
      throw new VenueError(
        'binance',
        'unavailable',
        `Binance failed while placing order ${clientOrderId}; it was not executed (${mapped.message})`,
      );
    }
  }

  /**
   * After an opening buy filled: the account's coin, from which the position takes in the remainder earlier buys left
   * (fills.ts). Read after the order, so it never delays one; a failed read leaves the position at the whole steps
   * received, and never turns the fill into an error.
   */
  private async coinAfterBuy(
    account: VenueAccount,
    symbol: SymbolId,
    raw: RawOrder,
    role: 'open' | 'close',
  ): Promise<string | undefined> {
    if (role !== 'open' || raw.side !== 'BUY' || !(Number(raw.executedQty) > 0)) return undefined;
    const coin = symbol.split('/')[0] as Currency;
    return this.balances(account)
      .then((held) => held[coin])
      .catch(() => undefined);
  }

  private async accountInfo(account: VenueAccount): Promise<AccountInfo> {
    const client = await this.accountExchange(account);
    try {
      return (await client.privateGetAccount({ omitZeroBalances: 'false' })) as AccountInfo;
    } catch (error) {
      throw toVenueError(error, 'read');
    }
  }

  private publicExchange(): Promise<BinanceExchange> {
    this.publicClient ??= this.loaded(createBinanceExchange(this.endpoints));
    return this.publicClient;
  }

  private accountExchange(account: VenueAccount): Promise<BinanceExchange> {
    if (this.closed) throw new VenueError('binance', 'unavailable', 'The Binance connector is closed');
    const { binanceApiKey: apiKey, binanceSecretKey: secret } = account.credentials;
    if (!apiKey || !secret) throw new VenueError('binance', 'auth', 'Binance API key and secret are not set');
    const existing = this.accountClients.get(apiKey);
    if (existing && existing.secret === secret) return existing.client;
    if (existing) void existing.client.then((c) => c.close()).catch(() => undefined);
    const client = this.loaded(createBinanceExchange(this.endpoints, { apiKey, secret }));
    this.accountClients.set(apiKey, { secret, client });
    return client;
  }

  /** Markets are needed by every call; a failed load is not cached, so the next call tries again. */
  private loaded(exchange: Promise<BinanceExchange>): Promise<BinanceExchange> {
    const ready = exchange.then(async (client) => {
      try {
        await client.loadMarkets();
      } catch (error) {
        throw toVenueError(error, 'read');
      }
      return client;
    });
    ready.catch(() => {
      if (this.publicClient === ready) this.publicClient = null;
      for (const [key, entry] of this.accountClients) if (entry.client === ready) this.accountClients.delete(key);
    });
    return ready;
  }
}

/** LOT_SIZE's step as ccxt parses it from exchangeInfo (its amount precision is the step size). */
function lotStep(client: BinanceExchange, symbol: SymbolId): string | null {
  const step = client.market(symbol).precision.amount;
  return step === undefined || step === null ? null : new Decimal(step).toFixed();
}

interface AccountInfo {
  canTrade?: boolean;
  takerCommission?: number;
  commissionRates?: { taker?: string };
  balances?: { asset: string; free: string; locked: string }[];
}
