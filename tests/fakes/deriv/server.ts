// A fake Deriv WebSocket API v3 on loopback: tokens with scopes, ticks, balance, proposals, multiplier contracts,
// open-contract streams, statement, forget, ping and Deriv's error shapes, plus controls to drop connections.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { DerivError, DerivMarket, STAKE_LIMITS, SYMBOLS, type FakeContract, type FakeDerivAccount } from './market';

export type { FakeDerivAccount } from './market';

export interface FakeDerivOptions {
  port?: number;
  accounts?: FakeDerivAccount[];
  /** App ids accepted; any numeric id when not given. */
  appIds?: string[];
  /** Multipliers offered per symbol (e.g. { cryBTCUSD: [50, 100] }); market.ts's MULTIPLIERS for the others. */
  multipliers?: Record<string, number[]>;
}

export interface FakeDeriv {
  /** For DERIV_WS_URL, e.g. ws://127.0.0.1:1234/websockets/v3 */
  url: string;
  addAccount(account: FakeDerivAccount): void;
  balance(loginid: string): string;
  /** Sets a quote and sends a tick to subscribers, then updates open-contract streams of that symbol. */
  pushTick(symbol: string, bid: string, ask: string): void;
  contracts(): FakeContract[];
  /** Cuts every connection; returns how many were cut. */
  dropConnections(): number;
  /** Fails the next call named `call` (e.g. 'buy') with this error code, after executing it when `execute`. */
  failNext(call: string, code: string, options?: { execute?: boolean; dropConnection?: boolean }): void;
  /** Executes the next call named `call` and never answers it (the caller waits, as across a crash). */
  swallowNext(call: string): void;
  /** Sets the multipliers offered for a symbol; a proposal with another is refused. */
  setMultipliers(symbol: string, multipliers: number[]): void;
  /** Stops an open contract out: Deriv sells it by itself, and its open-contract streams say so. */
  stopOut(contractId: number): void;
  /** Resolves when some connection holds a subscription of this kind (e.g. 'ticks:cryBTCUSD', 'balance'). */
  waitForSubscription(key: string): Promise<void>;
  connectionCount(): number;
  /** Resolves at the next request of this call (e.g. 'ping'). */
  waitForCall(call: string): Promise<void>;
  /** Every request seen, by call name. */
  calls: string[];
  close(): Promise<void>;
}

interface Subscription {
  id: string;
  key: string;
  reqId: unknown;
  echo: Record<string, unknown>;
  /** For proposal_open_contract streams. */
  contractId?: number;
}

interface Connection {
  socket: WebSocket;
  loginid: string | null;
  currency: string;
  subscriptions: Map<string, Subscription>;
}

const CALLS = [
  'authorize',
  'balance',
  'ticks',
  'contracts_for',
  'proposal',
  'buy',
  'sell',
  'proposal_open_contract',
  'statement',
  'portfolio',
  'forget',
  'forget_all',
  'ping',
  'time',
];

export async function startFakeDeriv(options: FakeDerivOptions = {}): Promise<FakeDeriv> {
  const market = new DerivMarket(options.accounts ?? []);
  for (const [symbol, multipliers] of Object.entries(options.multipliers ?? {}))
    market.multipliers.set(symbol, multipliers);
  const swallowed = new Set<string>();
  const connections = new Set<Connection>();
  const calls: string[] = [];
  const waiters: { key: string; resolve: () => void }[] = [];
  const callWaiters: { call: string; resolve: () => void }[] = [];
  const failures = new Map<string, { code: string; execute: boolean; dropConnection: boolean }>();
  let nextSubscription = 1;

  const send = (conn: Connection, payload: Record<string, unknown>): void => {
    if (conn.socket.readyState === conn.socket.OPEN) conn.socket.send(JSON.stringify(payload));
  };
  const reply = (
    conn: Connection,
    request: Record<string, unknown>,
    msgType: string,
    body: Record<string, unknown>,
  ): void => {
    const envelope: Record<string, unknown> = { echo_req: request, msg_type: msgType, ...body };
    if (request['req_id'] !== undefined) envelope['req_id'] = request['req_id'];
    if (request['passthrough'] !== undefined) envelope['passthrough'] = request['passthrough'];
    send(conn, envelope);
  };
  const replyError = (conn: Connection, request: Record<string, unknown>, msgType: string, error: DerivError): void =>
    reply(conn, request, msgType, { error: { code: error.code, message: error.message } });

  const addSubscription = (
    conn: Connection,
    request: Record<string, unknown>,
    key: string,
    contractId?: number,
  ): Subscription => {
    if ([...conn.subscriptions.values()].some((s) => s.key === key))
      throw new DerivError('AlreadySubscribed', `You are already subscribed to ${key.split(':')[1] ?? key}.`);
    const subscription: Subscription = {
      id: `sub${(nextSubscription++).toString().padStart(6, '0')}`,
      key,
      reqId: request['req_id'],
      echo: request,
      contractId,
    };
    conn.subscriptions.set(subscription.id, subscription);
    for (const waiter of waiters.filter((w) => w.key === key)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
    return subscription;
  };
  const pushTo = (conn: Connection, sub: Subscription, msgType: string, body: Record<string, unknown>): void => {
    const envelope: Record<string, unknown> = {
      echo_req: sub.echo,
      msg_type: msgType,
      ...body,
      subscription: { id: sub.id },
    };
    if (sub.reqId !== undefined) envelope['req_id'] = sub.reqId;
    send(conn, envelope);
  };

  const tickBody = (symbol: string): Record<string, unknown> => {
    const q = market.quotes.get(symbol)!;
    return {
      tick: {
        ask: q.ask.toNumber(),
        bid: q.bid.toNumber(),
        epoch: q.epoch,
        pip_size: 3,
        quote: q.bid.plus(q.ask).dividedBy(2).toNumber(),
        symbol,
      },
    };
  };
  const balanceBody = (conn: Connection, id?: string): Record<string, unknown> => {
    const state = market.byLogin(conn.loginid!);
    return {
      balance: {
        balance: state.balance.toDecimalPlaces(2).toNumber(),
        currency: conn.currency,
        loginid: conn.loginid,
        ...(id ? { id } : {}),
      },
    };
  };
  const pushBalances = (loginid: string): void => {
    for (const conn of connections) {
      if (conn.loginid !== loginid) continue;
      for (const sub of conn.subscriptions.values())
        if (sub.key === 'balance') pushTo(conn, sub, 'balance', balanceBody(conn, sub.id));
    }
  };
  const pushContract = (contract: FakeContract): void => {
    for (const conn of connections) {
      if (conn.loginid !== contract.loginid) continue;
      for (const sub of conn.subscriptions.values()) {
        if (sub.key === `poc:${contract.contractId}`)
          pushTo(conn, sub, 'proposal_open_contract', {
            proposal_open_contract: { ...market.openContractPayload(contract), id: sub.id },
          });
      }
    }
  };

  const requireAuth = (conn: Connection): string => {
    if (!conn.loginid) throw new DerivError('AuthorizationRequired', 'Please log in.');
    return conn.loginid;
  };
  const requireScope = (conn: Connection, scope: string): void => {
    const state = market.byLogin(requireAuth(conn));
    if (!(state.account.scopes ?? ['read', 'trade']).includes(scope))
      throw new DerivError('PermissionDenied', `Permission denied, requires ${scope} scope(s).`);
  };

  const handle = (conn: Connection, request: Record<string, unknown>, call: string): void => {
    const subscribe = request['subscribe'] === 1;
    switch (call) {
      case 'ping':
        return reply(conn, request, 'ping', { ping: 'pong' });
      case 'time':
        return reply(conn, request, 'time', { time: Math.floor(Date.now() / 1000) });
      case 'authorize': {
        const state = market.byToken(String(request['authorize']));
        if (!state) throw new DerivError('InvalidToken', 'The token is invalid.');
        conn.loginid = state.loginid;
        conn.currency = state.account.currency ?? 'USD';
        return reply(conn, request, 'authorize', {
          authorize: {
            loginid: state.loginid,
            balance: state.balance.toDecimalPlaces(2).toNumber(),
            currency: conn.currency,
            is_virtual: state.loginid.startsWith('VR') ? 1 : 0,
            email: `${state.loginid.toLowerCase()}@example.com`,
            fullname: ' Test Trader',
            country: 'id',
            landing_company_name: 'svg',
            scopes: state.account.scopes ?? ['read', 'trade'],
            account_list: [{ loginid: state.loginid, currency: conn.currency, is_virtual: 0, is_disabled: 0 }],
          },
        });
      }
      case 'balance': {
        requireAuth(conn);
        const sub = subscribe ? addSubscription(conn, request, 'balance') : undefined;
        return reply(conn, request, 'balance', {
          ...balanceBody(conn, sub?.id),
          ...(sub ? { subscription: { id: sub.id } } : {}),
        });
      }
      case 'ticks': {
        const symbol = String(request['ticks']);
        if (!SYMBOLS.includes(symbol as (typeof SYMBOLS)[number]))
          throw new DerivError('InvalidSymbol', `Symbol ${symbol} invalid.`);
        const sub = subscribe ? addSubscription(conn, request, `ticks:${symbol}`) : undefined;
        const body = tickBody(symbol);
        return reply(
          conn,
          request,
          'tick',
          sub ? { ...body, tick: { ...(body['tick'] as object), id: sub.id }, subscription: { id: sub.id } } : body,
        );
      }
      case 'contracts_for':
        return reply(conn, request, 'contracts_for', {
          contracts_for: market.contractsFor(String(request['contracts_for'])),
        });
      case 'proposal': {
        const proposal = market.propose(request, conn.loginid ? conn.currency : String(request['currency']));
        return reply(conn, request, 'proposal', {
          proposal: {
            id: proposal.id,
            ask_price: proposal.stake.toNumber(),
            display_value: proposal.stake.toFixed(2),
            payout: 0,
            spot: proposal.spot.toNumber(),
            spot_time: Math.floor(Date.now() / 1000),
            date_start: Math.floor(Date.now() / 1000),
            commission: proposal.commission.toNumber(),
            multiplier: proposal.multiplier,
            limit_order: {},
            longcode: `Win ${proposal.multiplier}x the percentage ${proposal.contractType === 'MULTUP' ? 'rise' : 'fall'} of ${proposal.symbol}.`,
            validation_params: { stake: { min: STAKE_LIMITS.min, max: STAKE_LIMITS.max } },
          },
        });
      }
      case 'buy': {
        requireScope(conn, 'trade');
        const contract = market.buy(conn.loginid!, String(request['buy']), Number(request['price']));
        const state = market.byLogin(conn.loginid!);
        reply(conn, request, 'buy', {
          buy: {
            balance_after: state.balance.toDecimalPlaces(2).toNumber(),
            buy_price: contract.stake.toNumber(),
            contract_id: contract.contractId,
            longcode: `Multiplier ${contract.contractType} on ${contract.symbol}`,
            payout: 0,
            purchase_time: contract.purchaseTime,
            shortcode: `${contract.contractType}_${contract.symbol.toUpperCase()}`,
            start_time: contract.purchaseTime,
            transaction_id: contract.buyTransactionId,
          },
        });
        return pushBalances(conn.loginid!);
      }
      case 'sell': {
        requireScope(conn, 'trade');
        const contract = market.sell(conn.loginid!, Number(request['sell']));
        const state = market.byLogin(conn.loginid!);
        reply(conn, request, 'sell', {
          sell: {
            balance_after: state.balance.toDecimalPlaces(2).toNumber(),
            contract_id: contract.contractId,
            reference_id: contract.buyTransactionId,
            sold_for: contract.sold!.price.toNumber(),
            transaction_id: contract.sold!.transactionId,
          },
        });
        pushBalances(conn.loginid!);
        return pushContract(contract);
      }
      case 'proposal_open_contract': {
        const loginid = requireAuth(conn);
        const contractId = Number(request['contract_id']);
        const contract = market.contracts.get(contractId);
        if (!contract || contract.loginid !== loginid) throw new DerivError('ContractNotFound', 'Contract not found.');
        const sub =
          subscribe && !contract.sold ? addSubscription(conn, request, `poc:${contractId}`, contractId) : undefined;
        return reply(conn, request, 'proposal_open_contract', {
          proposal_open_contract: { ...market.openContractPayload(contract), ...(sub ? { id: sub.id } : {}) },
          ...(sub ? { subscription: { id: sub.id } } : {}),
        });
      }
      case 'statement': {
        const state = market.byLogin(requireAuth(conn));
        const from = Number(request['date_from'] ?? 0);
        const limit = Number(request['limit'] ?? 100);
        const transactions = state.statement
          .filter((t) => t.transaction_time >= from)
          .reverse()
          .slice(0, limit);
        return reply(conn, request, 'statement', { statement: { count: transactions.length, transactions } });
      }
      case 'portfolio': {
        const loginid = requireAuth(conn);
        const open = [...market.contracts.values()].filter((c) => c.loginid === loginid && !c.sold);
        return reply(conn, request, 'portfolio', {
          portfolio: {
            contracts: open.map((c) => ({
              contract_id: c.contractId,
              contract_type: c.contractType,
              buy_price: c.stake.toNumber(),
              symbol: c.symbol,
              purchase_time: c.purchaseTime,
              transaction_id: c.buyTransactionId,
            })),
          },
        });
      }
      case 'forget': {
        const removed = conn.subscriptions.delete(String(request['forget']));
        return reply(conn, request, 'forget', { forget: removed ? 1 : 0 });
      }
      case 'forget_all': {
        const kinds = ([] as unknown[]).concat(request['forget_all']).map(String);
        const removed = [...conn.subscriptions.values()].filter((s) =>
          kinds.some((k) => s.key.startsWith(k === 'proposal_open_contract' ? 'poc' : k)),
        );
        removed.forEach((s) => conn.subscriptions.delete(s.id));
        return reply(conn, request, 'forget_all', { forget_all: removed.map((s) => s.id) });
      }
    }
  };

  /** The same connection with its answers swallowed, to execute a request whose reply must not arrive. */
  const silenced = (conn: Connection): Connection => ({
    ...conn,
    socket: { readyState: -1, OPEN: 1 } as unknown as WebSocket,
  });

  const server = createServer((_req, res) => {
    res.writeHead(426).end('WebSocket only');
  });
  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'ws://fake');
    if (url.pathname !== '/websockets/v3') return socket.destroy();
    const appId = url.searchParams.get('app_id') ?? '';
    const appOk = options.appIds ? options.appIds.includes(appId) : /^\d+$/.test(appId);
    wss.handleUpgrade(req, socket, head, (ws) => {
      const conn: Connection = { socket: ws, loginid: null, currency: 'USD', subscriptions: new Map() };
      connections.add(conn);
      ws.on('close', () => connections.delete(conn));
      ws.on('message', (data) => {
        let request: Record<string, unknown>;
        try {
          request = JSON.parse(String(data)) as Record<string, unknown>;
        } catch {
          return send(conn, {
            echo_req: {},
            msg_type: 'error',
            error: { code: 'InputValidationFailed', message: 'Input validation failed: not JSON' },
          });
        }
        const call = Object.keys(request).find((k) => CALLS.includes(k));
        if (!call)
          return reply(conn, request, 'error', {
            error: { code: 'UnrecognisedRequest', message: 'Unrecognised request' },
          });
        calls.push(call);
        for (const waiter of callWaiters.filter((w) => w.call === call)) {
          callWaiters.splice(callWaiters.indexOf(waiter), 1);
          waiter.resolve();
        }
        if (!appOk) return replyError(conn, request, call, new DerivError('InvalidAppID', 'Your app_id is invalid.'));
        if (swallowed.delete(call)) {
          try {
            handle(silenced(conn), request, call);
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
            handle(silenced(conn), request, call);
            ws.terminate();
            return;
          }
          if (failure) {
            handle(silenced(conn), request, call);
            throw new DerivError(failure.code, 'Sorry, an error occurred while processing your request.');
          }
          handle(conn, request, call);
        } catch (error) {
          if (error instanceof DerivError) replyError(conn, request, call, error);
          else replyError(conn, request, call, new DerivError('InternalServerError', String(error)));
        }
      });
    });
  });

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    url: `ws://127.0.0.1:${port}/websockets/v3`,
    calls,
    addAccount: (account) => market.addAccount(account),
    balance: (loginid) => market.byLogin(loginid).balance.toFixed(2),
    pushTick: (symbol, bid, ask) => {
      market.setQuote(symbol, bid, ask);
      for (const conn of connections) {
        for (const sub of conn.subscriptions.values()) {
          if (sub.key === `ticks:${symbol}`) {
            const body = tickBody(symbol);
            pushTo(conn, sub, 'tick', { tick: { ...(body['tick'] as object), id: sub.id } });
          }
        }
      }
      for (const contract of market.contracts.values())
        if (contract.symbol === symbol && !contract.sold) pushContract(contract);
    },
    contracts: () => [...market.contracts.values()],
    dropConnections: () => {
      const count = connections.size;
      for (const conn of connections) conn.socket.terminate();
      connections.clear();
      return count;
    },
    failNext: (call, code, opts = {}) => {
      failures.set(call, { code, execute: opts.execute ?? false, dropConnection: opts.dropConnection ?? false });
    },
    swallowNext: (call) => {
      swallowed.add(call);
    },
    setMultipliers: (symbol, multipliers) => {
      market.multipliers.set(symbol, multipliers);
    },
    stopOut: (contractId) => {
      const contract = market.stopOut(contractId);
      pushBalances(contract.loginid);
      pushContract(contract);
    },
    waitForSubscription: (key) =>
      [...connections].some((c) => [...c.subscriptions.values()].some((s) => s.key === key))
        ? Promise.resolve()
        : new Promise((resolve) => waiters.push({ key, resolve })),
    connectionCount: () => connections.size,
    waitForCall: (call) => new Promise((resolve) => callWaiters.push({ call, resolve })),
    close: async () => {
      for (const conn of connections) conn.socket.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
