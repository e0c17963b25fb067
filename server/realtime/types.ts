// Typed Socket.IO server for the gateway: the contract's event maps plus what each socket carries.
import type { Server, Socket } from 'socket.io';
import type { ClientToServerEvents, ServerToClientEvents } from '../../contract';
import type { SocketIdentity } from './identity';

/** Events between gateway instances (through the Redis adapter). */
export interface InterServerEvents {
  /** Another instance revoked sessions: re-check the local sockets of that user (null: of everyone) now. */
  revalidate: (userId: string | null) => void;
}

export interface SocketData {
  user: SocketIdentity;
  token: string;
}

export type RealtimeServer = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
export type RealtimeSocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;

/** The subset of a pino/Fastify logger the gateway uses. */
export interface RealtimeLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** Broadcast room every authenticated socket joins: opportunities and venue health go here (prices: watch.ts). */
export const SIGNED_IN_ROOM = 'signed-in';
