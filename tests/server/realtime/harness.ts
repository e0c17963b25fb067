// A real Socket.IO gateway on 127.0.0.1 (port 0) with a token table the test controls, and socket.io-client helpers.
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Subject } from 'rxjs';
import { io as connectClient } from 'socket.io-client';
import type { Socket as ClientSocket } from 'socket.io-client';
import type {
  ArbitrageOpportunity,
  ClientToServerEvents,
  ServerToClientEvents,
  SymbolId,
  SymbolPrice,
  Trade,
} from '../../../contract';
import type { EngineEvent } from '../../../server/engine/events';
import { attachRealtime } from '../../../server/realtime';
import type { Realtime, SocketIdentity } from '../../../server/realtime';
import type { RealtimeLogger } from '../../../server/realtime/types';

export type TestClient = ClientSocket<ServerToClientEvents, ClientToServerEvents>;

export interface LogRecord {
  level: 'info' | 'warn' | 'error';
  obj: object;
  msg: string | undefined;
}

export function recordingLogger(): { logger: RealtimeLogger; records: LogRecord[] } {
  const records: LogRecord[] = [];
  const at = (level: LogRecord['level']) => (obj: object, msg?: string) => void records.push({ level, obj, msg });
  return { logger: { info: at('info'), warn: at('warn'), error: at('error') }, records };
}

export interface Gateway {
  url: string;
  realtime: Realtime;
  events: Subject<EngineEvent>;
  /** token → identity; delete an entry to revoke that token. */
  tokens: Map<string, SocketIdentity>;
  /** Every token verifyToken was asked about, in order. */
  checked: string[];
  logs: LogRecord[];
  close(): Promise<void>;
}

export interface GatewayOptions {
  priceHz?: number;
  revalidateMs?: number;
  /** Runs after verifyToken has looked the token up and before it answers: a slow database, for race tests. */
  afterLookup?: (token: string) => Promise<void>;
}

export async function startGateway(options: GatewayOptions = {}): Promise<Gateway> {
  const tokens = new Map<string, SocketIdentity>();
  const checked: string[] = [];
  const events = new Subject<EngineEvent>();
  const { logger, records } = recordingLogger();
  const http = createServer();
  const realtime = attachRealtime(http, {
    verifyToken: async (token) => {
      checked.push(token);
      const identity = tokens.get(token) ?? null;
      await options.afterLookup?.(token);
      return identity;
    },
    events$: events,
    priceHz: options.priceHz ?? Number.POSITIVE_INFINITY,
    logger,
    ...(options.revalidateMs ? { revalidateMs: options.revalidateMs } : {}),
  });
  http.listen(0, '127.0.0.1');
  await once(http, 'listening');
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    realtime,
    events,
    tokens,
    checked,
    logs: records,
    async close() {
      await realtime.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

const openClients = new Set<TestClient>();

/** A client that does not reconnect on its own, so a refusal or a server disconnect stays visible. */
export function client(
  url: string,
  options: { token?: string; headers?: Record<string, string>; transport?: 'websocket' | 'polling' } = {},
): TestClient {
  const socket: TestClient = connectClient(url, {
    forceNew: true,
    reconnection: false,
    transports: [options.transport ?? 'websocket'],
    ...(options.token === undefined ? {} : { auth: { token: options.token } }),
    ...(options.headers ? { extraHeaders: options.headers } : {}),
  });
  openClients.add(socket);
  return socket;
}

export function closeClients(): void {
  for (const socket of openClients) socket.close();
  openClients.clear();
}

/** Resolves on 'connect', rejects with the server's refusal on 'connect_error'. */
export function connected(socket: TestClient): Promise<void> {
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', (error) => reject(error));
  });
}

export function refusal(socket: TestClient): Promise<string> {
  return new Promise((resolve, reject) => {
    socket.once('connect', () => reject(new Error('connected, expected a refusal')));
    socket.once('connect_error', (error) => resolve(error.message));
  });
}

export function join(socket: TestClient, room: string): Promise<{ ok: boolean; message?: string }> {
  return socket.emitWithAck('join_room', room);
}

export function next<E extends keyof ServerToClientEvents>(
  socket: TestClient,
  event: E,
): Promise<Parameters<ServerToClientEvents[E]>[0]> {
  return new Promise((resolve) => {
    socket.once(event, ((value: Parameters<ServerToClientEvents[E]>[0]) => resolve(value)) as never);
  });
}

/** Every value the socket hears for an event, in order. */
export function collect<E extends keyof ServerToClientEvents>(
  socket: TestClient,
  event: E,
): Array<Parameters<ServerToClientEvents[E]>[0]> {
  const seen: Array<Parameters<ServerToClientEvents[E]>[0]> = [];
  socket.on(event, ((value: Parameters<ServerToClientEvents[E]>[0]) => seen.push(value)) as never);
  return seen;
}

export function price(symbol: SymbolId, binance: number, deriv = binance * 1.001): SymbolPrice {
  const spread = (deriv - binance) / binance;
  return {
    symbol,
    binance,
    deriv,
    spread,
    arbitrage: { profitable: Math.abs(spread) > 0.002 },
    timestamp: new Date().toISOString(),
    stale: false,
    ageMs: { binance: 0, deriv: 0 },
  };
}

export function opportunity(spread: number): ArbitrageOpportunity {
  return {
    pair: 'BTC/USDT',
    spread,
    binance: 60_000,
    deriv: 60_000 * (1 + spread),
    direction: spread > 0 ? 'deriv-rich' : 'binance-rich',
    timestamp: new Date().toISOString(),
  };
}

export function trade(userId: string, tradeId: string): Trade {
  const now = new Date().toISOString();
  return {
    _id: `id-${tradeId}`,
    tradeId,
    userId,
    symbol: 'BTC/USDT',
    status: 'pending',
    totalAmount: 250,
    arbitrageSpread: 0.0031,
    actualProfit: 0,
    origin: 'auto',
    reason: null,
    legs: [],
    createdAt: now,
    updatedAt: now,
    closedAt: null,
  };
}
