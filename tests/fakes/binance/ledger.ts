// The fake Binance's accounts, order book tops and market-order matching.
import Decimal from 'decimal.js';
import { FAKE_SYMBOLS, type FakeSymbol } from './exchange-info';

export interface FakeBinanceAccount {
  apiKey: string;
  secret: string;
  /** Free balances per asset, decimal strings. */
  balances?: Record<string, string>;
  /** Taker fee as a fraction, e.g. '0.001'. */
  takerCommission?: string;
  makerCommission?: string;
}

export interface BookTop {
  bid: string;
  bidQty: string;
  ask: string;
  askQty: string;
  updateId: number;
}

export interface FakeOrder {
  symbol: string;
  orderId: number;
  clientOrderId: string;
  side: 'BUY' | 'SELL';
  price: string;
  origQty: string;
  executedQty: string;
  cummulativeQuoteQty: string;
  origQuoteOrderQty: string;
  commission: string;
  commissionAsset: string;
  tradeId: number;
  time: number;
  /** 'FILLED' unless an IOC order expired unfilled. */
  status?: 'FILLED' | 'EXPIRED';
}

export class BinanceError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

interface AccountState {
  account: FakeBinanceAccount;
  balances: Map<string, Decimal>;
  orders: Map<string, FakeOrder>;
}

const fmt = (value: Decimal): string => value.toFixed(8);

export class Ledger {
  private readonly accounts = new Map<string, AccountState>();
  readonly books = new Map<string, BookTop>();
  private nextOrderId = 1000;
  private nextTradeId = 5000;
  private nextUpdateId = 1;

  constructor(accounts: FakeBinanceAccount[]) {
    for (const account of accounts) this.addAccount(account);
    this.setQuote('BTCUSDT', '80000.00', '80000.01');
    this.setQuote('ETHUSDT', '3000.00', '3000.01');
    this.setQuote('LTCUSDT', '90.00', '90.01');
    this.setQuote('BCHUSDT', '450.0', '450.1');
    this.setQuote('SOLUSDT', '150.00', '150.01');
  }

  addAccount(account: FakeBinanceAccount): void {
    const balances = new Map<string, Decimal>();
    for (const [asset, amount] of Object.entries(account.balances ?? { USDT: '10000', BTC: '0', ETH: '0' }))
      balances.set(asset, new Decimal(amount));
    this.accounts.set(account.apiKey, { account, balances, orders: new Map() });
  }

  find(apiKey: string): AccountState | undefined {
    return this.accounts.get(apiKey);
  }

  setBalances(apiKey: string, balances: Record<string, string>): void {
    const state = this.require(apiKey);
    for (const [asset, amount] of Object.entries(balances)) state.balances.set(asset, new Decimal(amount));
  }

  balances(apiKey: string): Record<string, string> {
    return Object.fromEntries([...this.require(apiKey).balances].map(([asset, amount]) => [asset, amount.toFixed()]));
  }

  orders(apiKey: string): FakeOrder[] {
    return [...this.require(apiKey).orders.values()];
  }

  setQuote(symbol: string, bid: string, ask: string, bidQty = '1.50000000', askQty = '2.00000000'): BookTop {
    const top = { bid, ask, bidQty, askQty, updateId: this.nextUpdateId++ };
    this.books.set(symbol, top);
    return top;
  }

  accountPayload(apiKey: string, now: number): unknown {
    const { account, balances } = this.require(apiKey);
    const taker = account.takerCommission ?? '0.001';
    const maker = account.makerCommission ?? '0.001';
    return {
      makerCommission: Number(maker) * 10_000,
      takerCommission: Number(taker) * 10_000,
      buyerCommission: 0,
      sellerCommission: 0,
      commissionRates: {
        maker: fmt(new Decimal(maker)),
        taker: fmt(new Decimal(taker)),
        buyer: '0.00000000',
        seller: '0.00000000',
      },
      canTrade: true,
      canWithdraw: false,
      canDeposit: false,
      brokered: false,
      requireSelfTradePrevention: false,
      preventSor: false,
      updateTime: now,
      accountType: 'SPOT',
      balances: [...balances].map(([asset, free]) => ({ asset, free: fmt(free), locked: '0.00000000' })),
      permissions: ['SPOT'],
      uid: 354937868,
    };
  }

  /**
   * Executes an order against the top of the book, atomically: MARKET at the touch; LIMIT with timeInForce IOC at the
   * touch if it is within the limit, else it expires unfilled (Binance's EXPIRED, executedQty 0).
   */
  placeOrder(apiKey: string, params: URLSearchParams, now: number): FakeOrder {
    const state = this.require(apiKey);
    const symbolInfo = FAKE_SYMBOLS.find((s) => s.symbol === params.get('symbol'));
    if (!symbolInfo) throw new BinanceError(400, -1121, 'Invalid symbol.');
    const side = params.get('side');
    if (side !== 'BUY' && side !== 'SELL')
      throw new BinanceError(400, -1102, "Mandatory parameter 'side' was not sent, was empty/null, or malformed.");
    const type = params.get('type');
    if (type !== 'MARKET' && type !== 'LIMIT') throw new BinanceError(400, -1116, 'Invalid orderType.');
    if (type === 'LIMIT' && params.get('timeInForce') !== 'IOC')
      throw new BinanceError(400, -1106, "Parameter 'timeInForce' must be IOC on this fake.");
    const clientOrderId = params.get('newClientOrderId') ?? `fake-${this.nextOrderId}`;
    if (state.orders.has(clientOrderId)) throw new BinanceError(400, -2010, 'Duplicate order sent.');
    const book = this.books.get(symbolInfo.symbol);
    if (!book) throw new BinanceError(400, -1121, 'Invalid symbol.');
    const price = new Decimal(side === 'BUY' ? book.ask : book.bid);
    const quantity = this.quantity(params, symbolInfo, price);
    if (quantity.lte(0)) throw new BinanceError(400, -1013, 'Filter failure: LOT_SIZE');
    if (quantity.times(price).lt(5)) throw new BinanceError(400, -1013, 'Filter failure: NOTIONAL');
    if (type === 'LIMIT') {
      const limit = new Decimal(params.get('price') ?? 'NaN');
      if (!limit.isFinite())
        throw new BinanceError(400, -1102, "Mandatory parameter 'price' was not sent, was empty/null, or malformed.");
      if (side === 'BUY' ? price.gt(limit) : price.lt(limit))
        return this.expire(state, symbolInfo.symbol, clientOrderId, side, quantity, now);
    }
    const quote = quantity.times(price);
    const taker = new Decimal(state.account.takerCommission ?? '0.001');
    const base = symbolInfo.baseAsset;
    const quoteAsset = symbolInfo.quoteAsset;
    const have = (asset: string): Decimal => state.balances.get(asset) ?? new Decimal(0);
    // Like Binance: a buyer pays the commission in the coin received, a seller in the quote asset received.
    const commission = side === 'BUY' ? quantity.times(taker) : quote.times(taker);
    if (side === 'BUY' ? have(quoteAsset).lt(quote) : have(base).lt(quantity)) {
      throw new BinanceError(400, -2010, 'Account has insufficient balance for requested action.');
    }
    if (side === 'BUY') {
      state.balances.set(quoteAsset, have(quoteAsset).minus(quote));
      state.balances.set(base, have(base).plus(quantity).minus(commission));
    } else {
      state.balances.set(base, have(base).minus(quantity));
      state.balances.set(quoteAsset, have(quoteAsset).plus(quote).minus(commission));
    }
    const order: FakeOrder = {
      symbol: symbolInfo.symbol,
      orderId: this.nextOrderId++,
      clientOrderId,
      side,
      price: fmt(price),
      origQty: fmt(quantity),
      executedQty: fmt(quantity),
      cummulativeQuoteQty: fmt(quote),
      origQuoteOrderQty: fmt(new Decimal(params.get('quoteOrderQty') ?? 0)),
      commission: fmt(commission),
      commissionAsset: side === 'BUY' ? base : quoteAsset,
      tradeId: this.nextTradeId++,
      time: now,
    };
    state.orders.set(clientOrderId, order);
    return order;
  }

  /** An IOC order that found nothing within its limit: recorded, unfilled. */
  private expire(
    state: AccountState,
    symbol: string,
    clientOrderId: string,
    side: 'BUY' | 'SELL',
    quantity: Decimal,
    now: number,
  ): FakeOrder {
    const order: FakeOrder = {
      symbol,
      orderId: this.nextOrderId++,
      clientOrderId,
      side,
      price: fmt(new Decimal(0)),
      origQty: fmt(quantity),
      executedQty: fmt(new Decimal(0)),
      cummulativeQuoteQty: fmt(new Decimal(0)),
      origQuoteOrderQty: fmt(new Decimal(0)),
      commission: fmt(new Decimal(0)),
      commissionAsset: 'USDT',
      tradeId: -1,
      time: now,
      status: 'EXPIRED',
    };
    state.orders.set(clientOrderId, order);
    return order;
  }

  findOrder(apiKey: string, params: URLSearchParams): FakeOrder {
    const state = this.require(apiKey);
    const byClient = params.get('origClientOrderId');
    const byId = params.get('orderId');
    const order = byClient
      ? state.orders.get(byClient)
      : [...state.orders.values()].find((o) => String(o.orderId) === byId);
    if (!order || order.symbol !== params.get('symbol')) throw new BinanceError(400, -2013, 'Order does not exist.');
    return order;
  }

  trades(apiKey: string, params: URLSearchParams): FakeOrder[] {
    const orderId = params.get('orderId');
    return this.orders(apiKey).filter(
      (o) =>
        o.status !== 'EXPIRED' &&
        o.symbol === params.get('symbol') &&
        (orderId === null || String(o.orderId) === orderId),
    );
  }

  private quantity(params: URLSearchParams, symbol: FakeSymbol, price: Decimal): Decimal {
    const quantity = params.get('quantity');
    const quoteOrderQty = params.get('quoteOrderQty');
    if (quantity !== null && quoteOrderQty !== null)
      throw new BinanceError(400, -1106, "Parameter 'quoteOrderQty' sent when not required.");
    const raw =
      quantity !== null
        ? new Decimal(quantity)
        : quoteOrderQty !== null
          ? new Decimal(quoteOrderQty).dividedBy(price)
          : null;
    if (raw === null || !raw.isFinite())
      throw new BinanceError(400, -1102, "Mandatory parameter 'quantity' was not sent, was empty/null, or malformed.");
    const step = new Decimal(symbol.stepSize);
    return raw.dividedToIntegerBy(step).times(step);
  }

  private require(apiKey: string): AccountState {
    const state = this.accounts.get(apiKey);
    if (!state) throw new Error(`No fake account for key ${apiKey}`);
    return state;
  }
}

export function orderPayload(order: FakeOrder, full: boolean): Record<string, unknown> {
  const common = {
    symbol: order.symbol,
    orderId: order.orderId,
    orderListId: -1,
    clientOrderId: order.clientOrderId,
    price: '0.00000000',
    origQty: order.origQty,
    executedQty: order.executedQty,
    origQuoteOrderQty: order.origQuoteOrderQty,
    cummulativeQuoteQty: order.cummulativeQuoteQty,
    status: order.status ?? 'FILLED',
    timeInForce: order.status === 'EXPIRED' ? 'IOC' : 'GTC',
    type: order.status === 'EXPIRED' ? 'LIMIT' : 'MARKET',
    side: order.side,
    workingTime: order.time,
    selfTradePreventionMode: 'EXPIRE_MAKER',
  };
  if (full) {
    return {
      ...common,
      transactTime: order.time,
      fills:
        order.status === 'EXPIRED'
          ? []
          : [
              {
                price: order.price,
                qty: order.executedQty,
                commission: order.commission,
                commissionAsset: order.commissionAsset,
                tradeId: order.tradeId,
              },
            ],
    };
  }
  return {
    ...common,
    stopPrice: '0.00000000',
    icebergQty: '0.00000000',
    time: order.time,
    updateTime: order.time,
    isWorking: true,
  };
}

export function tradePayload(order: FakeOrder): Record<string, unknown> {
  return {
    symbol: order.symbol,
    id: order.tradeId,
    orderId: order.orderId,
    orderListId: -1,
    price: order.price,
    qty: order.executedQty,
    quoteQty: order.cummulativeQuoteQty,
    commission: order.commission,
    commissionAsset: order.commissionAsset,
    time: order.time,
    isBuyer: order.side === 'BUY',
    isMaker: false,
    isBestMatch: true,
  };
}
