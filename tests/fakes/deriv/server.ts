// A fake Deriv on loopback speaking both of its APIs over one market: the legacy WebSocket API v3
// (/websockets/v3?app_id=…, authorize with an API token) and the new API (REST under /trading/v1/options for accounts
// and one-time passwords; the public socket /trading/v1/options/ws/public; account sockets /ws/demo and /ws/real that
// each one-time password opens once). Tokens with scopes, ticks, balance, proposals, multiplier contracts,
// open-contract streams, statement, portfolio, forget, ping, Deriv's error shapes, plus controls for tests. Run in
// the test process, it keeps its accounts and contracts across a restart of the product.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { checkNewApi, handle, LEGACY_CALLS, NEW_CALLS } from './calls';
import { Hub, NEW_API_LIMITS, type Connection, type Dialect, type SeenRequest } from './hub';
import { FakeIdentity } from './identity';
import { DerivError, DerivMarket, type FakeContract, type FakeDerivAccount, type FakeDerivPat } from './market';
import { restHandler, type RestRequest } from './rest';

export type { FakeDerivAccount, FakeDerivPat, FakeOptionsAccount } from './market';

export interface FakeDerivOptions {
  port?: number;
  /** Legacy API tokens, each with its account. */
  accounts?: FakeDerivAccount[];
  /** New API personal access tokens, each with its app id and Options accounts. */
  pats?: FakeDerivPat[];
  /** Legacy app ids accepted; any numeric id when not given. */
  appIds?: string[];
  /** Multipliers offered per symbol (e.g. { cryBTCUSD: [50, 100] }); market.ts's MULTIPLIERS for the others. */
  multipliers?: Record<string, number[]>;
  /** How long a one-time password stays good (the pages say it expires, not when). */
  otpTtlMs?: number;
}

export interface FakeDeriv {
  /** For DERIV_WS_URL (legacy API), e.g. ws://127.0.0.1:1234/websockets/v3 */
  url: string;
  /** For DERIV_API_URL (new API's REST), e.g. http://127.0.0.1:1234 */
  apiUrl: string;
  /** For DERIV_PUBLIC_WS_URL, e.g. ws://127.0.0.1:1234/trading/v1/options/ws/public */
  publicUrl: string;
  addAccount(account: FakeDerivAccount): void;
  addPat(pat: FakeDerivPat): void;
  /** The PAT stops working (REST 401); sockets it opened stay open. */
  revokePat(token: string): void;
  balance(loginid: string): string;
  /** Sets a quote and sends a tick to subscribers, then updates open-contract streams of that symbol. */
  pushTick(symbol: string, bid: string, ask: string): void;
  contracts(): FakeContract[];
  /** Cuts every connection; returns how many were cut. */
  dropConnections(): number;
  /** Fails the next call named `call` (e.g. 'buy') with this error code, after executing it when `execute`. */
  failNext(call: string, code: string, options?: { execute?: boolean; dropConnection?: boolean }): void;
  /** Executes the next call named `call` (on that API only, when given) and never answers it, as across a crash. */
  swallowNext(call: string, dialect?: Dialect): void;
  /** Sets the multipliers offered for a symbol; a proposal with another is refused. */
  setMultipliers(symbol: string, multipliers: number[]): void;
  /** Stops an open contract out: Deriv sells it by itself, and its open-contract streams say so. */
  stopOut(contractId: number): void;
  /** Resolves when some connection holds a subscription of this kind (e.g. 'ticks:cryBTCUSD', 'balance'). */
  waitForSubscription(key: string): Promise<void>;
  connectionCount(dialect?: Dialect): number;
  /** Resolves at the next request of this call (e.g. 'ping'). */
  waitForCall(call: string): Promise<void>;
  /** Every request seen, by call name. */
  calls: string[];
  /** Every socket request seen, whole, with the API it came in on. */
  requests: SeenRequest[];
  /** Every REST request seen (method, path, app id header, status), never the token. */
  restRequests: RestRequest[];
  /** One-time passwords issued so far. */
  otpsIssued(): number;
  /** Connections refused at the door (bad or used one-time password, too many connections). */
  refusedConnections: { path: string; status: number }[];
  /** Every one-time password issued so far stops working. */
  expireOtps(): void;
  close(): Promise<void>;
}

const GATEWAY = /^\/trading\/v1\/options\/ws\/(public|demo|real)$/;

export async function startFakeDeriv(options: FakeDerivOptions = {}): Promise<FakeDeriv> {
  const market = new DerivMarket(options.accounts ?? []);
  for (const [symbol, multipliers] of Object.entries(options.multipliers ?? {}))
    market.multipliers.set(symbol, multipliers);
  const identity = new FakeIdentity(market, options.otpTtlMs ?? 60_000, 60);
  (options.pats ?? []).forEach((p) => identity.addPat(p));
  const hub = new Hub(market);
  const swallowed: { call: string; dialect?: Dialect }[] = [];
  const failures = new Map<string, { code: string; execute: boolean; dropConnection: boolean }>();
  const restRequests: RestRequest[] = [];
  const refusedConnections: { path: string; status: number }[] = [];
  let port = 0;

  /** The same connection with its answers swallowed, to execute a request whose reply must not arrive. */
  const silenced = (conn: Connection): Connection => ({
    ...conn,
    socket: { readyState: -1, OPEN: 1 } as unknown as WebSocket,
  });

  const onMessage = (conn: Connection, data: unknown): void => {
    let request: Record<string, unknown>;
    try {
      request = JSON.parse(String(data)) as Record<string, unknown>;
    } catch {
      return hub.send(conn, {
        echo_req: {},
        msg_type: 'error',
        error: { code: 'InputValidationFailed', message: 'Input validation failed: not JSON' },
      });
    }
    const known = conn.dialect === 'new' ? NEW_CALLS : LEGACY_CALLS;
    const call = Object.keys(request).find((k) => known.includes(k));
    const named = call ?? Object.keys(request)[0] ?? 'error';
    hub.seen(conn, named, request);
    try {
      if (conn.dialect === 'new') {
        const now = Date.now();
        conn.recent = conn.recent.filter((t) => t > now - 1000);
        conn.recent.push(now);
        if (conn.recent.length > NEW_API_LIMITS.perSecond)
          throw new DerivError('RateLimit', 'You have reached the rate limit of 100 requests per second.');
        checkNewApi(conn, request, call);
      } else if (!call) throw new DerivError('UnrecognisedRequest', 'Unrecognised request');
    } catch (error) {
      return hub.replyError(conn, request, call ?? 'error', error as DerivError);
    }
    if (!call) return;
    if (conn.badAppId)
      return hub.replyError(conn, request, call, new DerivError('InvalidAppID', 'Your app_id is invalid.'));
    const swallow = swallowed.findIndex((w) => w.call === call && (!w.dialect || w.dialect === conn.dialect));
    if (swallow >= 0) {
      swallowed.splice(swallow, 1);
      try {
        handle(hub, silenced(conn), request, call);
      } catch {
        // an error unanswered too
      }
      return;
    }
    const failure = failures.get(call);
    if (failure) failures.delete(call);
    try {
      if (failure && !failure.execute)
        throw new DerivError(failure.code, 'Sorry, an error occurred while processing your request.');
      if (failure?.dropConnection) {
        // Execute without answering, then cut the line: the caller cannot know what happened.
        handle(hub, silenced(conn), request, call);
        conn.socket.terminate();
        return;
      }
      if (failure) {
        handle(hub, silenced(conn), request, call);
        throw new DerivError(failure.code, 'Sorry, an error occurred while processing your request.');
      }
      handle(hub, conn, request, call);
    } catch (error) {
      if (error instanceof DerivError) hub.replyError(conn, request, call, error);
      else hub.replyError(conn, request, call, new DerivError('InternalServerError', String(error)));
    }
  };

  const server = createServer(restHandler(market, identity, () => `ws://127.0.0.1:${port}`, restRequests));
  const wss = new WebSocketServer({ noServer: true });
  const refuse = (socket: Socket, path: string, status: number, text: string): void => {
    refusedConnections.push({ path, status });
    socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  };
  const accept = (req: IncomingMessage, socket: Socket, head: Buffer, conn: Omit<Connection, 'socket'>) =>
    wss.handleUpgrade(req, socket, head, (ws) => {
      const connection: Connection = { ...conn, socket: ws };
      hub.connections.add(connection);
      ws.on('close', () => hub.connections.delete(connection));
      ws.on('message', (data) => onMessage(connection, data));
    });
  const blank = (dialect: Dialect, loginid: string | null, owner: string | null) => ({
    dialect,
    loginid,
    owner,
    subscriptions: new Map(),
    proposals: new Set<string>(),
    recent: [] as number[],
  });

  server.on('upgrade', (req, socket: Socket, head) => {
    const url = new URL(req.url ?? '/', 'ws://fake');
    if (url.pathname === '/websockets/v3') {
      const appId = url.searchParams.get('app_id') ?? '';
      const appOk = options.appIds ? options.appIds.includes(appId) : /^\d+$/.test(appId);
      return accept(req, socket, head, { ...blank('legacy', null, null), badAppId: !appOk });
    }
    const gateway = GATEWAY.exec(url.pathname)?.[1];
    if (!gateway) return refuse(socket, url.pathname, 404, 'Not Found');
    if (gateway === 'public') return accept(req, socket, head, blank('new', null, null));
    // ws-demo.md / ws-real.md: the one-time password in the query opens this one connection, to its account.
    const issued = identity.consumeOtp(url.searchParams.get('otp'), gateway);
    if (!issued) return refuse(socket, url.pathname, 401, 'Unauthorized');
    const open = [...hub.connections].filter((c) => c.owner === issued.owner).length;
    if (open >= NEW_API_LIMITS.connectionsPerUser) return refuse(socket, url.pathname, 429, 'Too Many Requests');
    return accept(req, socket, head, blank('new', issued.accountId, issued.owner));
  });

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;

  return {
    url: `ws://127.0.0.1:${port}/websockets/v3`,
    apiUrl: `http://127.0.0.1:${port}`,
    publicUrl: `ws://127.0.0.1:${port}/trading/v1/options/ws/public`,
    calls: hub.calls,
    requests: hub.requests,
    restRequests,
    refusedConnections,
    addAccount: (account) => market.addAccount(account),
    addPat: (pat) => identity.addPat(pat),
    revokePat: (token) => identity.revoke(token),
    balance: (loginid) => market.byLogin(loginid).balance.toFixed(2),
    pushTick: (symbol, bid, ask) => {
      market.setQuote(symbol, bid, ask);
      hub.pushTick(symbol);
    },
    contracts: () => [...market.contracts.values()],
    dropConnections: () => {
      const count = hub.connections.size;
      for (const conn of hub.connections) conn.socket.terminate();
      hub.connections.clear();
      return count;
    },
    failNext: (call, code, opts = {}) => {
      failures.set(call, { code, execute: opts.execute ?? false, dropConnection: opts.dropConnection ?? false });
    },
    swallowNext: (call, dialect) => {
      swallowed.push({ call, dialect });
    },
    setMultipliers: (symbol, multipliers) => {
      market.multipliers.set(symbol, multipliers);
    },
    stopOut: (contractId) => {
      const contract = market.stopOut(contractId);
      hub.pushBalances(contract.loginid);
      hub.pushContract(contract);
    },
    waitForSubscription: (key) => hub.waitForSubscription(key),
    connectionCount: (dialect) => [...hub.connections].filter((c) => !dialect || c.dialect === dialect).length,
    waitForCall: (call) => hub.waitForCall(call),
    otpsIssued: () => identity.otpCount(),
    expireOtps: () => identity.expireOtps(),
    close: async () => {
      for (const conn of hub.connections) conn.socket.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
