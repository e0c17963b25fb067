// A typed client for Deriv's WebSocket APIs: req_id → promise map, subscriptions that survive reconnects, a
// keep-alive ping, reconnect with backoff and errors keyed by Deriv's code. The legacy API (v3) authorizes each new
// connection with the token; the new API connects to a one-time-password URL asked for afresh before every
// connection, and never authorizes on the socket. The URL is a credential: it appears in no message or log.
import WebSocket from 'ws';
import { performance } from 'node:perf_hooks';
import { backoffDelay, DEFAULT_BACKOFF, type BackoffOptions } from '../backoff';
import type { LinkHealth } from '../health';
import { SlidingWindow } from '../rate-window';

export type Json = Record<string, unknown>;

/** Deriv answered with an error object. */
export class DerivApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly call: string,
  ) {
    super(message);
    this.name = 'DerivApiError';
  }
}

/** The connection failed before an answer arrived: whatever was asked may or may not have happened. */
export class DerivConnectionError extends Error {
  constructor(
    message: string,
    /** The HTTP status Deriv refused the connection with, when it did (401: a used or expired one-time password). */
    readonly status?: number,
  ) {
    super(message);
    this.name = 'DerivConnectionError';
  }
}

export interface DerivClientOptions {
  /** e.g. wss://ws.derivws.com/websockets/v3 (with appId), or the new API's public socket as it is. */
  url?: string;
  /** Legacy API: added to the URL as app_id. */
  appId?: string;
  /** New API: a fresh one-time-password URL for each connection; throwing a refusal ends the client's attempts. */
  connectUrl?: () => Promise<string>;
  /** Legacy API: authorizes every new connection with this token before anything else is sent. */
  token?: string;
  /** Checks the authorize answer (scopes); throwing refuses the connection. */
  onAuthorize?: (authorize: Json) => void;
  pingIntervalMs?: number;
  requestTimeoutMs?: number;
  backoff?: BackoffOptions;
  /** At most this many requests in any window on one connection (the new API documents 100 a second). */
  rate?: { limit: number; windowMs: number };
  /** At most this many streams on one connection (the new API documents 100); one more is refused here. */
  maxSubscriptions?: number;
  /** Whether an error from connectUrl means asking again cannot help (a refused token), ending the attempts. */
  isRefusal?: (error: unknown) => boolean;
  /**
   * Where the connection's health is written: connecting, connected, dropped (with why), and the round trip of each
   * keep-alive ping (one as soon as the connection opens, then every pingIntervalMs).
   */
  health?: LinkHealth;
}

interface Pending {
  call: string;
  /** performance.now() when the request left (after its turn in the rate window): a ping's round trip starts here. */
  sentAt: number;
  resolve: (message: Json) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

interface SubscriptionState {
  request: Json;
  onMessage: (message: Json) => void;
  onError: (error: Error) => void;
  reqId: number | null;
  subscriptionId: string | null;
  cancelled: boolean;
}

export interface DerivSubscription {
  unsubscribe(): void;
}

const callName = (request: Json): string => Object.keys(request)[0] ?? 'unknown';

export class DerivClient {
  private socket: WebSocket | null = null;
  private connecting: Promise<void> | null = null;
  private readonly pending = new Map<number, Pending>();
  private readonly subscriptions = new Set<SubscriptionState>();
  private readonly subscriptionsByReqId = new Map<number, SubscriptionState>();
  private nextReqId = 1;
  private attempt = 0;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private pingTimer: NodeJS.Timeout | null = null;
  private closed = false;
  /** The latest authorize answer, once authorized. */
  authorized: Json | null = null;
  private readonly window: SlidingWindow | null;

  constructor(private readonly options: DerivClientOptions) {
    this.window = options.rate ? new SlidingWindow(options.rate.limit, options.rate.windowMs) : null;
  }

  /** Closed for good: by close(), or because Deriv refused the token (asking again cannot help). */
  get isClosed(): boolean {
    return this.closed;
  }

  /** Opens (and authorizes) the connection unless it is open already. */
  connect(): Promise<void> {
    if (this.closed) return Promise.reject(new DerivConnectionError('Deriv client is closed'));
    if (this.socket?.readyState === WebSocket.OPEN && !this.connecting) return Promise.resolve();
    this.connecting ??= this.open().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  async request(request: Json): Promise<Json> {
    await this.connect();
    return this.send(request);
  }

  /**
   * Subscribes now (when connected) and again after every reconnect. `onMessage` gets the first answer and every
   * update; `onError` gets a Deriv error that ends the subscription.
   */
  subscribe(
    request: Json,
    onMessage: (message: Json) => void,
    onError: (error: Error) => void = () => undefined,
  ): DerivSubscription {
    const state: SubscriptionState = {
      request: { ...request, subscribe: 1 },
      onMessage,
      onError,
      reqId: null,
      subscriptionId: null,
      cancelled: false,
    };
    this.subscriptions.add(state);
    this.connect().then(
      () => this.startSubscription(state),
      () => this.scheduleReconnect(),
    );
    return {
      unsubscribe: () => {
        this.subscriptions.delete(state);
        state.cancelled = true;
        if (state.subscriptionId) {
          if (state.reqId !== null) this.subscriptionsByReqId.delete(state.reqId);
          this.forget(state.subscriptionId);
        }
        // Otherwise the subscription is still on its way: its first answer carries the id to forget.
      },
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.subscriptions.clear();
    this.teardown(new DerivConnectionError('Deriv client closed'));
  }

  private async address(): Promise<string> {
    const { url, appId, connectUrl } = this.options;
    if (connectUrl) {
      try {
        return await connectUrl();
      } catch (error) {
        if (this.options.isRefusal?.(error)) this.closed = true;
        throw error;
      }
    }
    if (!url) throw new DerivConnectionError('No Deriv address configured');
    return appId === undefined ? url : `${url}${url.includes('?') ? '&' : '?'}app_id=${encodeURIComponent(appId)}`;
  }

  /** A connected socket. A one-time-password URL Deriv refused (used, expired) is asked for again, once. */
  private async dial(): Promise<WebSocket> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await connectTo(await this.address());
      } catch (error) {
        const retry = this.options.connectUrl && error instanceof DerivConnectionError && error.status === 401;
        if (!retry || attempt > 0) throw error;
      }
    }
  }

  private async open(): Promise<void> {
    const health = this.options.health;
    health?.connecting();
    let socket: WebSocket;
    try {
      socket = await this.dial();
    } catch (error) {
      health?.disconnected(error);
      throw error;
    }
    if (this.closed) {
      socket.terminate();
      throw new DerivConnectionError('Deriv client is closed');
    }
    this.socket = socket;
    socket.on('message', (data) => this.onMessage(String(data)));
    socket.on('close', () => this.onClose(socket));
    this.pingTimer = setInterval(() => this.ping(), this.options.pingIntervalMs ?? 30_000);
    this.pingTimer.unref();
    try {
      if (this.options.token) {
        const answer = await this.send({ authorize: this.options.token });
        const authorize = (answer['authorize'] ?? {}) as Json;
        this.options.onAuthorize?.(authorize);
        this.authorized = authorize;
      }
    } catch (error) {
      // A refused token or scope will not get better by retrying; a lost connection may.
      if (!(error instanceof DerivConnectionError)) this.closed = true;
      this.teardown(error instanceof Error ? error : new Error(String(error)));
      health?.disconnected(error);
      throw error;
    }
    this.attempt = 0;
    if (health) {
      health.connected();
      // The first round trip now, not a ping interval later.
      this.ping();
    }
  }

  /** The keep-alive; its answer's round trip is the connection's latency. */
  private ping(): void {
    this.send({ ping: 1 }).catch((error: unknown) => {
      // A ping lost with its connection is already said by the drop; one Deriv answered with an error is not.
      if (error instanceof DerivApiError) this.options.health?.failed(error);
    });
  }

  private startSubscription(state: SubscriptionState): void {
    if (!this.subscriptions.has(state) || state.reqId !== null) return;
    const max = this.options.maxSubscriptions;
    if (max !== undefined && this.subscriptionsByReqId.size >= max) {
      this.subscriptions.delete(state);
      state.onError(
        new DerivApiError(
          'RateLimit',
          `Deriv allows at most ${max} streams on one connection`,
          callName(state.request),
        ),
      );
      return;
    }
    const reqId = this.nextReqId++;
    state.reqId = reqId;
    this.subscriptionsByReqId.set(reqId, state);
    this.send(state.request, reqId).catch((error: Error) => {
      if (error instanceof DerivApiError) {
        this.subscriptions.delete(state);
        this.subscriptionsByReqId.delete(reqId);
        state.onError(error);
      }
      // A connection error: the reconnect resubscribes.
    });
  }

  private forget(subscriptionId: string): void {
    if (this.socket?.readyState === WebSocket.OPEN) this.send({ forget: subscriptionId }).catch(() => undefined);
  }

  private async send(request: Json, reqId = this.nextReqId++): Promise<Json> {
    // The request waits for its turn within the documented rate before it leaves; it is answered within the timeout.
    const before = this.socket;
    if (this.window) await this.window.take();
    const socket = this.socket;
    if (!socket || socket !== before || socket.readyState !== WebSocket.OPEN)
      throw new DerivConnectionError('Not connected to Deriv');
    const call = callName(request);
    return new Promise<Json>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(reqId);
        const silent = new DerivConnectionError(`Deriv did not answer ${call} in time`);
        this.options.health?.failed(silent);
        reject(silent);
        // A silent connection is a dead one: cut it so that the reconnect logic takes over.
        socket.terminate();
      }, this.options.requestTimeoutMs ?? 15_000);
      timer.unref();
      this.pending.set(reqId, { call, resolve, reject, timer, sentAt: performance.now() });
      socket.send(JSON.stringify({ ...request, req_id: reqId }));
    });
  }

  private onMessage(text: string): void {
    let message: Json;
    try {
      message = JSON.parse(text) as Json;
    } catch {
      return;
    }
    const reqId = typeof message['req_id'] === 'number' ? message['req_id'] : null;
    if (reqId === null) return;
    const pending = this.pending.get(reqId);
    const error = message['error'] as { code?: string; message?: string } | undefined;
    if (pending) {
      this.pending.delete(reqId);
      clearTimeout(pending.timer);
      if (error)
        pending.reject(new DerivApiError(error.code ?? 'UnknownError', error.message ?? 'Deriv error', pending.call));
      else {
        if (pending.call === 'ping') this.options.health?.roundTrip(performance.now() - pending.sentAt);
        pending.resolve(message);
      }
    }
    const subscription = this.subscriptionsByReqId.get(reqId);
    if (subscription && !error) {
      const id = (message['subscription'] as { id?: string } | undefined)?.id;
      if (id) subscription.subscriptionId = id;
      if (subscription.cancelled) {
        this.subscriptionsByReqId.delete(reqId);
        if (id) this.forget(id);
        return;
      }
      subscription.onMessage(message);
    }
  }

  private onClose(socket: WebSocket): void {
    if (this.socket !== socket) return;
    const lost = new DerivConnectionError('Connection to Deriv lost');
    this.options.health?.disconnected(lost);
    this.teardown(lost);
    this.scheduleReconnect();
  }

  private teardown(reason: Error): void {
    if (this.pingTimer) clearInterval(this.pingTimer);
    this.pingTimer = null;
    const socket = this.socket;
    this.socket = null;
    this.authorized = null;
    for (const pending of this.pending.values()) {
      clearTimeout(pending.timer);
      pending.reject(reason);
    }
    this.pending.clear();
    this.subscriptionsByReqId.clear();
    for (const state of this.subscriptions) {
      state.reqId = null;
      state.subscriptionId = null;
    }
    if (socket && socket.readyState !== WebSocket.CLOSED) socket.terminate();
  }

  /** Reconnects only while someone listens; a plain request reconnects on demand. */
  private scheduleReconnect(): void {
    if (this.closed || this.subscriptions.size === 0 || this.reconnectTimer) return;
    const delay = backoffDelay(this.attempt++, this.options.backoff ?? DEFAULT_BACKOFF);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.connect().then(
        () => {
          for (const state of this.subscriptions) this.startSubscription(state);
        },
        () => this.scheduleReconnect(),
      );
    }, delay);
    this.reconnectTimer.unref();
  }
}

/** Opens a socket; a refusal at the door keeps its HTTP status (the URL, a credential, is never part of a message). */
function connectTo(url: string): Promise<WebSocket> {
  const socket = new WebSocket(url);
  // Errors always come with a 'close', which does the work; without a listener an error would crash the process.
  socket.on('error', () => undefined);
  return new Promise<WebSocket>((resolve, reject) => {
    socket.once('open', () => resolve(socket));
    socket.once('unexpected-response', (request, response) => {
      const status = response.statusCode ?? 0;
      reject(new DerivConnectionError(`Deriv refused the connection (HTTP ${status})`, status));
      request.destroy();
    });
    socket.once('error', (error) => reject(new DerivConnectionError(`Cannot reach Deriv: ${error.message}`)));
    socket.once('close', () => reject(new DerivConnectionError('Deriv closed the connection while opening')));
  });
}
