// The fake Deriv's connections and streams, shared by both APIs: the v3 envelope (echo_req, msg_type, req_id,
// subscription.id, error{code, message}), subscriptions with Deriv-like ids, pushes of ticks, balances and open
// contracts to whoever follows them, and the waits tests use.
import { randomUUID } from 'node:crypto';
import type { WebSocket } from 'ws';
import { DerivError, newApiContractPayload, type DerivMarket, type FakeContract } from './market';

export type Dialect = 'legacy' | 'new';

export interface Subscription {
  id: string;
  key: string;
  reqId: unknown;
  echo: Record<string, unknown>;
  /** For proposal_open_contract streams. */
  contractId?: number;
}

export interface Connection {
  socket: WebSocket;
  dialect: Dialect;
  /** The account this socket acts for: legacy after authorize, new API from its one-time password; null if public. */
  loginid: string | null;
  /** Who opened it (the token that asked for the one-time password), for the per-user connection limit. */
  owner: string | null;
  subscriptions: Map<string, Subscription>;
  /** Proposal ids are per connection (proposal.md): a buy on another connection does not find them. */
  proposals: Set<string>;
  /** Times of recent requests, for the new API's 100 a second. */
  recent: number[];
  /** Legacy: opened with an app id Deriv does not know; every call is refused. */
  badAppId?: boolean;
}

/** api-overview.md: 100 requests a second and 100 active subscriptions per connection. */
export const NEW_API_LIMITS = { perSecond: 100, subscriptions: 100, connectionsPerUser: 5 };

export interface SeenRequest {
  dialect: Dialect;
  call: string;
  request: Record<string, unknown>;
}

export class Hub {
  readonly connections = new Set<Connection>();
  /** Every request seen, by call name. */
  readonly calls: string[] = [];
  /** Every request seen, whole, with the API it came in on. */
  readonly requests: SeenRequest[] = [];
  private readonly waiters: { key: string; resolve: () => void }[] = [];
  private readonly callWaiters: { call: string; resolve: () => void }[] = [];

  constructor(readonly market: DerivMarket) {}

  send(conn: Connection, payload: Record<string, unknown>): void {
    if (conn.socket.readyState === conn.socket.OPEN) conn.socket.send(JSON.stringify(payload));
  }

  reply(conn: Connection, request: Record<string, unknown>, msgType: string, body: Record<string, unknown>): void {
    const envelope: Record<string, unknown> = { echo_req: request, msg_type: msgType, ...body };
    if (request['req_id'] !== undefined) envelope['req_id'] = request['req_id'];
    if (request['passthrough'] !== undefined) envelope['passthrough'] = request['passthrough'];
    this.send(conn, envelope);
  }

  replyError(conn: Connection, request: Record<string, unknown>, msgType: string, error: DerivError): void {
    this.reply(conn, request, msgType, { error: { code: error.code, message: error.message } });
  }

  seen(conn: Connection, call: string, request: Record<string, unknown>): void {
    this.calls.push(call);
    this.requests.push({ dialect: conn.dialect, call, request });
    for (const waiter of this.callWaiters.filter((w) => w.call === call)) {
      this.callWaiters.splice(this.callWaiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  }

  addSubscription(conn: Connection, request: Record<string, unknown>, key: string, contractId?: number): Subscription {
    if ([...conn.subscriptions.values()].some((s) => s.key === key))
      throw new DerivError('AlreadySubscribed', `You are already subscribed to ${key.split(':')[1] ?? key}.`);
    if (conn.dialect === 'new' && conn.subscriptions.size >= NEW_API_LIMITS.subscriptions)
      throw new DerivError('RateLimit', `You have reached the limit of ${NEW_API_LIMITS.subscriptions} subscriptions.`);
    const subscription: Subscription = { id: randomUUID(), key, reqId: request['req_id'], echo: request, contractId };
    conn.subscriptions.set(subscription.id, subscription);
    for (const waiter of this.waiters.filter((w) => w.key === key)) {
      this.waiters.splice(this.waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
    return subscription;
  }

  pushTo(conn: Connection, sub: Subscription, msgType: string, body: Record<string, unknown>): void {
    const envelope: Record<string, unknown> = {
      echo_req: sub.echo,
      msg_type: msgType,
      ...body,
      subscription: { id: sub.id },
    };
    if (sub.reqId !== undefined) envelope['req_id'] = sub.reqId;
    this.send(conn, envelope);
  }

  tickBody(symbol: string): Record<string, unknown> {
    const q = this.market.quotes.get(symbol)!;
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
  }

  balanceBody(conn: Connection, id?: string): Record<string, unknown> {
    const state = this.market.byLogin(conn.loginid!);
    // balance.md lists loginid as required, also on the new API; the account's id fills it there.
    return {
      balance: {
        balance: state.balance.toDecimalPlaces(2).toNumber(),
        currency: state.currency,
        loginid: conn.loginid,
        ...(id ? { id } : {}),
      },
    };
  }

  contractBody(conn: Connection, contract: FakeContract, id?: string): Record<string, unknown> {
    const payload =
      conn.dialect === 'new' ? newApiContractPayload(this.market, contract) : this.market.openContractPayload(contract);
    return { proposal_open_contract: { ...payload, ...(id ? { id } : {}) } };
  }

  pushTick(symbol: string): void {
    for (const conn of this.connections)
      for (const sub of conn.subscriptions.values())
        if (sub.key === `ticks:${symbol}`)
          this.pushTo(conn, sub, 'tick', { tick: { ...(this.tickBody(symbol)['tick'] as object), id: sub.id } });
    for (const contract of this.market.contracts.values())
      if (contract.symbol === symbol && !contract.sold) this.pushContract(contract);
  }

  pushBalances(loginid: string): void {
    for (const conn of this.connections) {
      if (conn.loginid !== loginid) continue;
      for (const sub of conn.subscriptions.values())
        if (sub.key === 'balance') this.pushTo(conn, sub, 'balance', this.balanceBody(conn, sub.id));
    }
  }

  pushContract(contract: FakeContract): void {
    for (const conn of this.connections) {
      if (conn.loginid !== contract.loginid) continue;
      for (const sub of conn.subscriptions.values())
        if (sub.key === `poc:${contract.contractId}`)
          this.pushTo(conn, sub, 'proposal_open_contract', this.contractBody(conn, contract, sub.id));
    }
  }

  waitForSubscription(key: string): Promise<void> {
    return [...this.connections].some((c) => [...c.subscriptions.values()].some((s) => s.key === key))
      ? Promise.resolve()
      : new Promise((resolve) => this.waiters.push({ key, resolve }));
  }

  waitForCall(call: string): Promise<void> {
    return new Promise((resolve) => this.callWaiters.push({ call, resolve }));
  }
}
