// Messages between the fan-out benchmark's processes (IPC), and the latency histogram they share.
import type { SymbolPrice } from '../contract';

/**
 * 'socketio': the product's gateway (attachRealtime). 'ws': a raw `ws` broadcast of the same JSON.
 * 'socketio-deflate': a bare Socket.IO server with perMessageDeflate on, to show what that option costs.
 */
export const TRANSPORTS = ['ws', 'socketio', 'socketio-deflate'] as const;
export type Transport = (typeof TRANSPORTS)[number];

/** How Socket.IO clients are run: the real socket.io-client, or the protocol spoken over a bare ws socket. */
export type ClientLib = 'socket.io-client' | 'wire';

/** The broadcast payload: a real price update plus the sender's clock, for latency. */
export type BenchPrice = SymbolPrice & { sentAt: number };

export type ServerCommand =
  | { type: 'burst'; count: number }
  | { type: 'pace'; perSecond: number; durationMs: number }
  | { type: 'cpu' }
  | { type: 'stop' };

export type ServerReply =
  | { type: 'listening'; port: number }
  | { type: 'burst-sent'; sent: number }
  | { type: 'pace-done'; sent: number }
  | { type: 'cpu'; userMicros: number; systemMicros: number };

export type ClientCommand =
  /** Reset counters; report 'reached' once every client of this process has heard `perClient` messages since. */
  { type: 'phase' } | { type: 'expect'; perClient: number } | { type: 'report' } | { type: 'stop' };

export type ClientReply =
  | { type: 'ready'; clients: number; failed: number }
  | { type: 'reached' }
  | { type: 'report'; received: number; histogram: number[]; cpuMicros: number };

/** A shared clock across processes on one machine, sub-millisecond. */
export const clockMs = (): number => performance.timeOrigin + performance.now();

/** Latency histogram: 0.05 ms buckets up to 5 s, the last bucket holds everything beyond. */
export const BUCKET_MS = 0.05;
export const BUCKETS = 100_001;

export function record(histogram: Uint32Array, latencyMs: number): void {
  const bucket = Math.min(BUCKETS - 1, Math.max(0, Math.floor(latencyMs / BUCKET_MS)));
  histogram[bucket] = (histogram[bucket] ?? 0) + 1;
}

export function percentile(histogram: ArrayLike<number>, fraction: number): number | null {
  let total = 0;
  for (let i = 0; i < histogram.length; i++) total += histogram[i] ?? 0;
  if (total === 0) return null;
  const rank = Math.ceil(total * fraction);
  let seen = 0;
  for (let i = 0; i < histogram.length; i++) {
    seen += histogram[i] ?? 0;
    if (seen >= rank) return (i + 1) * BUCKET_MS;
  }
  return null;
}
