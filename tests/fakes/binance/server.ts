// A fake Binance spot venue on loopback: REST (signed endpoints verified byte for byte) and bookTicker WebSocket
// streams, with controls to inject the failures a live connector must survive. ccxt talks to it unchanged.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { exchangeInfo, FAKE_SYMBOLS } from './exchange-info';
import { BinanceError, Ledger, orderPayload, tradePayload, type FakeBinanceAccount, type FakeOrder } from './ledger';
import { extractSignature, signatureMatches } from './signature';

export type { FakeBinanceAccount, FakeOrder } from './ledger';

export interface FakeBinanceOptions {
  port?: number;
  accounts?: FakeBinanceAccount[];
  /** How often the server pings each stream, as Binance does every 20 s. */
  pingIntervalMs?: number;
}

export interface OrderFailure {
  /** HTTP status of the failure, 500 by default. */
  status?: number;
  /** Whether the order executes before the failure is answered (the outcome the caller cannot see). */
  execute: boolean;
}

export interface FakeBinance {
  /** Base URL for BINANCE_REST_URL, e.g. http://127.0.0.1:1234. */
  restUrl: string;
  /** Base URL for BINANCE_WS_URL, e.g. ws://127.0.0.1:1234. */
  wsUrl: string;
  addAccount(account: FakeBinanceAccount): void;
  setBalances(apiKey: string, balances: Record<string, string>): void;
  balances(apiKey: string): Record<string, string>;
  orders(apiKey: string): FakeOrder[];
  /** Sets the top of the book and sends it to every stream subscribed to `<symbol>@bookTicker`. */
  pushQuote(symbol: string, bid: string, ask: string): void;
  failNextOrder(failure: OrderFailure): void;
  /** From now on every order is refused with this Binance error code (-2010: insufficient balance); null ends it. */
  refuseOrders(code: number | null): void;
  /** Answers the next request (any path) with 429, code -1003 and a Retry-After header. */
  rateLimitNext(retryAfterSeconds: number): void;
  /** Cuts every open stream connection; returns how many were cut. */
  dropStreams(): number;
  /** Resolves once some stream is subscribed to `stream` (e.g. 'btcusdt@bookTicker'). */
  waitForSubscription(stream: string): Promise<void>;
  streamCount(): number;
  /** Every request seen, method and path. */
  requests: { method: string; path: string }[];
  close(): Promise<void>;
}

/** Binance's own texts for the refusals a test can ask for. */
const REFUSALS: Record<number, string> = {
  [-2010]: 'Account has insufficient balance for requested action.',
  [-1013]: 'Filter failure: NOTIONAL',
  [-2015]: 'Invalid API-key, IP, or permissions for action.',
};

const SIGNED_PATHS = new Set([
  '/api/v3/account',
  '/api/v3/order',
  '/api/v3/myTrades',
  '/api/v3/openOrders',
  '/sapi/v1/asset/tradeFee',
]);

interface Stream {
  socket: WebSocket;
  subscriptions: Set<string>;
  combined: boolean;
}

export async function startFakeBinance(options: FakeBinanceOptions = {}): Promise<FakeBinance> {
  const ledger = new Ledger(options.accounts ?? []);
  const requests: { method: string; path: string }[] = [];
  const streams = new Set<Stream>();
  const subscriptionWaiters: { stream: string; resolve: () => void }[] = [];
  let orderFailure: OrderFailure | null = null;
  let refusal: number | null = null;
  let rateLimit: number | null = null;

  const send = (res: ServerResponse, status: number, payload: unknown, headers: Record<string, string> = {}): void => {
    res.writeHead(status, { 'Content-Type': 'application/json;charset=UTF-8', ...headers });
    res.end(JSON.stringify(payload));
  };
  const sendError = (res: ServerResponse, error: BinanceError): void =>
    send(res, error.status, { code: error.code, msg: error.message });

  const authenticate = (req: IncomingMessage, rawQuery: string, rawBody: string): string => {
    const apiKey = req.headers['x-mbx-apikey'];
    if (typeof apiKey !== 'string' || !/^[A-Za-z0-9]{64}$/.test(apiKey))
      throw new BinanceError(401, -2014, 'API-key format invalid.');
    const state = ledger.find(apiKey);
    if (!state) throw new BinanceError(401, -2015, 'Invalid API-key, IP, or permissions for action.');
    const { payload, signature } = extractSignature(rawQuery, rawBody);
    if (!signature)
      throw new BinanceError(400, -1102, "Mandatory parameter 'signature' was not sent, was empty/null, or malformed.");
    const params = new URLSearchParams(`${rawQuery}&${rawBody}`);
    const timestamp = Number(params.get('timestamp'));
    if (!params.get('timestamp') || !Number.isFinite(timestamp)) {
      throw new BinanceError(400, -1102, "Mandatory parameter 'timestamp' was not sent, was empty/null, or malformed.");
    }
    const recvWindow = Number(params.get('recvWindow') ?? 5000);
    if (!(recvWindow > 0 && recvWindow <= 60_000))
      throw new BinanceError(400, -1131, 'recvWindow must be less than 60000');
    const now = Date.now();
    if (timestamp > now + 1000 || now - timestamp > recvWindow)
      throw new BinanceError(400, -1021, 'Timestamp for this request is outside of the recvWindow.');
    if (!signatureMatches(state.account.secret, payload, signature))
      throw new BinanceError(400, -1022, 'Signature for this request is not valid.');
    return apiKey;
  };

  const route = (req: IncomingMessage, res: ServerResponse, path: string, rawQuery: string, rawBody: string): void => {
    const method = req.method ?? 'GET';
    const params = new URLSearchParams(`${rawQuery}&${rawBody}`);
    const now = Date.now();
    if (rateLimit !== null) {
      const seconds = rateLimit;
      rateLimit = null;
      const msg =
        'Too many requests; current limit of IP(127.0.0.1) request weight per minute is 6000. Please use WebSocket Streams for live updates to avoid polling the API.';
      return send(res, 429, { code: -1003, msg }, { 'Retry-After': String(seconds) });
    }
    const apiKey = SIGNED_PATHS.has(path) ? authenticate(req, rawQuery, rawBody) : '';
    switch (`${method} ${path}`) {
      case 'GET /api/v3/ping':
        return send(res, 200, {});
      case 'GET /api/v3/time':
        return send(res, 200, { serverTime: now });
      case 'GET /api/v3/exchangeInfo':
        return send(res, 200, exchangeInfo(now));
      case 'GET /api/v3/ticker/bookTicker':
        return send(res, 200, bookTickers(params));
      case 'GET /api/v3/account':
        return send(res, 200, ledger.accountPayload(apiKey, now));
      case 'POST /api/v3/order': {
        if (refusal !== null) throw new BinanceError(400, refusal, REFUSALS[refusal] ?? 'Order rejected.');
        const failure = orderFailure;
        orderFailure = null;
        if (failure && !failure.execute)
          return send(res, failure.status ?? 500, {
            code: -1000,
            msg: 'An unknown error occurred while processing the request.',
          });
        const order = ledger.placeOrder(apiKey, params, now);
        if (failure)
          return send(res, failure.status ?? 500, {
            code: -1000,
            msg: 'An unknown error occurred while processing the request.',
          });
        const full = (params.get('newOrderRespType') ?? 'FULL') === 'FULL';
        return send(res, 200, orderPayload(order, full));
      }
      case 'GET /api/v3/order':
        return send(res, 200, orderPayload(ledger.findOrder(apiKey, params), false));
      case 'GET /api/v3/myTrades':
        return send(res, 200, ledger.trades(apiKey, params).map(tradePayload));
      case 'GET /api/v3/openOrders':
        return send(res, 200, []);
      case 'GET /sapi/v1/asset/tradeFee': {
        const account = ledger.accountPayload(apiKey, now) as { commissionRates: { maker: string; taker: string } };
        const symbols = params.get('symbol') ? [params.get('symbol')] : FAKE_SYMBOLS.map((s) => s.symbol);
        return send(
          res,
          200,
          symbols.map((symbol) => ({
            symbol,
            makerCommission: account.commissionRates.maker,
            takerCommission: account.commissionRates.taker,
          })),
        );
      }
      default:
        return send(res, 404, { code: -1100, msg: `Unknown endpoint ${method} ${path}` });
    }
  };

  const bookTickers = (params: URLSearchParams): unknown => {
    const one = (symbol: string) => {
      const top = ledger.books.get(symbol);
      if (!top) throw new BinanceError(400, -1121, 'Invalid symbol.');
      return { symbol, bidPrice: top.bid, bidQty: top.bidQty, askPrice: top.ask, askQty: top.askQty };
    };
    const symbol = params.get('symbol');
    if (symbol) return one(symbol);
    const symbols = params.get('symbols');
    const list = symbols ? (JSON.parse(symbols) as string[]) : [...ledger.books.keys()];
    return list.map(one);
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const rawUrl = req.url ?? '/';
      const mark = rawUrl.indexOf('?');
      const path = mark === -1 ? rawUrl : rawUrl.slice(0, mark);
      const rawQuery = mark === -1 ? '' : rawUrl.slice(mark + 1);
      requests.push({ method: req.method ?? 'GET', path });
      try {
        route(req, res, path, rawQuery, Buffer.concat(chunks).toString('utf8'));
      } catch (error) {
        if (error instanceof BinanceError) sendError(res, error);
        else send(res, 500, { code: -1000, msg: String(error) });
      }
    });
  });

  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'ws://fake');
    if (!url.pathname.startsWith('/ws') && !url.pathname.startsWith('/stream')) {
      socket.destroy();
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const stream: Stream = { socket: ws, subscriptions: new Set(), combined: url.pathname.startsWith('/stream') };
      // Raw streams may be named in the path (/ws/btcusdt@bookTicker) or the query (/stream?streams=a/b).
      const named = url.pathname.startsWith('/ws/')
        ? url.pathname.slice(4).split('/')
        : (url.searchParams.get('streams') ?? '').split('/');
      for (const name of named) if (name.includes('@')) subscribe(stream, name);
      streams.add(stream);
      ws.on('message', (data) => onStreamMessage(stream, String(data)));
      ws.on('close', () => streams.delete(stream));
    });
  });

  const subscribe = (stream: Stream, name: string): void => {
    stream.subscriptions.add(name);
    for (const waiter of subscriptionWaiters.filter((w) => w.stream === name)) {
      subscriptionWaiters.splice(subscriptionWaiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  };

  const onStreamMessage = (stream: Stream, text: string): void => {
    let message: { method?: string; params?: unknown; id?: unknown };
    try {
      message = JSON.parse(text) as typeof message;
    } catch {
      stream.socket.send(JSON.stringify({ error: { code: 2, msg: 'Invalid JSON' } }));
      return;
    }
    const names = Array.isArray(message.params) ? message.params.filter((p): p is string => typeof p === 'string') : [];
    switch (message.method) {
      case 'SUBSCRIBE':
        for (const name of names) subscribe(stream, name);
        stream.socket.send(JSON.stringify({ result: null, id: message.id }));
        return;
      case 'UNSUBSCRIBE':
        for (const name of names) stream.subscriptions.delete(name);
        stream.socket.send(JSON.stringify({ result: null, id: message.id }));
        return;
      case 'LIST_SUBSCRIPTIONS':
        stream.socket.send(JSON.stringify({ result: [...stream.subscriptions], id: message.id }));
        return;
      default:
        stream.socket.send(
          JSON.stringify({
            error: { code: 1, msg: `Unknown method ${String(message.method)}` },
            id: message.id ?? null,
          }),
        );
    }
  };

  const pingTimer = setInterval(() => {
    for (const stream of streams) stream.socket.ping();
  }, options.pingIntervalMs ?? 20_000);
  pingTimer.unref();

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    restUrl: `http://127.0.0.1:${port}`,
    wsUrl: `ws://127.0.0.1:${port}`,
    requests,
    addAccount: (account) => ledger.addAccount(account),
    setBalances: (apiKey, balances) => ledger.setBalances(apiKey, balances),
    balances: (apiKey) => ledger.balances(apiKey),
    orders: (apiKey) => ledger.orders(apiKey),
    pushQuote: (symbol, bid, ask) => {
      const top = ledger.setQuote(symbol, bid, ask);
      const name = `${symbol.toLowerCase()}@bookTicker`;
      const payload = { u: top.updateId, s: symbol, b: top.bid, B: top.bidQty, a: top.ask, A: top.askQty };
      for (const stream of streams) {
        if (!stream.subscriptions.has(name)) continue;
        stream.socket.send(JSON.stringify(stream.combined ? { stream: name, data: payload } : payload));
      }
    },
    failNextOrder: (failure) => {
      orderFailure = failure;
    },
    refuseOrders: (code) => {
      refusal = code;
    },
    rateLimitNext: (seconds) => {
      rateLimit = seconds;
    },
    dropStreams: () => {
      const count = streams.size;
      for (const stream of streams) stream.socket.terminate();
      streams.clear();
      return count;
    },
    waitForSubscription: (name) =>
      [...streams].some((s) => s.subscriptions.has(name))
        ? Promise.resolve()
        : new Promise((resolve) => subscriptionWaiters.push({ stream: name, resolve })),
    streamCount: () => streams.size,
    close: async () => {
      clearInterval(pingTimer);
      for (const stream of streams) stream.socket.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
