// Open-loop load: requests sent at evenly spaced scheduled times, whatever the server does, and each latency measured
// from the request's scheduled send time. autocannon's `overallRate` releases each connection's quota in a burst at the
// start of every second, and a closed loop waits for answers before sending more; both hide queueing (coordinated
// omission). Here a server that falls behind shows it: requests wait for a free connection and that wait counts.
import http from 'node:http';
import type { LoadCase, LoadFigures } from './load';

export interface OpenLoopOptions {
  /** Requests per second, evenly spaced. */
  rate: number;
  seconds: number;
  /** Keep-alive connections the requests share (50 in the benchmarks). */
  connections: number;
  /** A request not answered within this many ms counts as a timeout (default 10 s). */
  timeoutMs?: number;
}

export interface OpenLoopFigures extends LoadFigures {
  /** The rate asked for. */
  offered: number;
  /** How late the sender itself was, at worst, against the schedule (ms): a loaded load generator shows here. */
  senderLagMaxMs: number;
}

/** The p-th percentile (0–100) of sorted values, nearest rank. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] as number;
}

/** The send times of an even schedule: request i at i × 1000 / rate ms after the start. */
export function scheduleOffsetMs(index: number, rate: number): number {
  return (index * 1000) / rate;
}

export async function runOpenLoop(baseUrl: string, load: LoadCase, options: OpenLoopOptions): Promise<OpenLoopFigures> {
  const url = new URL(baseUrl);
  const agent = new http.Agent({
    keepAlive: true,
    maxSockets: options.connections,
    maxFreeSockets: options.connections,
  });
  const total = Math.max(1, Math.round(options.rate * options.seconds));
  const latencies = new Float64Array(total);
  let answered = 0;
  let non2xx = 0;
  let errors = 0;
  let timeouts = 0;
  let senderLagMaxMs = 0;
  const timeoutMs = options.timeoutMs ?? 10_000;

  const send = (scheduledAt: number) =>
    new Promise<void>((resolve) => {
      const { path, headers } = load.next();
      const request = http.request(
        { host: url.hostname, port: url.port, path, method: 'GET', headers, agent, timeout: timeoutMs },
        (response) => {
          response.on('data', () => undefined);
          response.on('end', () => {
            latencies[answered++] = performance.now() - scheduledAt;
            if ((response.statusCode ?? 0) < 200 || (response.statusCode ?? 0) >= 300) non2xx++;
            resolve();
          });
          response.on('error', () => {
            errors++;
            resolve();
          });
        },
      );
      request.on('timeout', () => {
        timeouts++;
        request.destroy(new Error('timeout'));
      });
      request.on('error', () => {
        errors++;
        resolve();
      });
      request.end();
    });

  const inFlight: Promise<void>[] = [];
  const start = performance.now();
  let next = 0;
  await new Promise<void>((done) => {
    const tick = () => {
      const now = performance.now();
      // Every request whose time has come goes out now, each timed from its own scheduled moment.
      while (next < total && start + scheduleOffsetMs(next, options.rate) <= now) {
        const scheduledAt = start + scheduleOffsetMs(next, options.rate);
        senderLagMaxMs = Math.max(senderLagMaxMs, now - scheduledAt);
        inFlight.push(send(scheduledAt));
        next++;
      }
      if (next >= total) return done();
      const wait = start + scheduleOffsetMs(next, options.rate) - performance.now();
      setTimeout(tick, Math.max(0, Math.floor(wait)));
    };
    tick();
  });
  await Promise.all(inFlight);
  const elapsedSeconds = (performance.now() - start) / 1000;
  agent.destroy();

  const sorted = latencies.slice(0, answered).sort();
  return {
    name: load.name,
    offered: options.rate,
    requests: answered,
    requestsPerSecond: answered / Math.max(elapsedSeconds, options.seconds),
    latencyP50: percentile(sorted, 50),
    latencyP90: percentile(sorted, 90),
    latencyP99: percentile(sorted, 99),
    latencyMax: sorted.length ? (sorted[sorted.length - 1] as number) : Number.NaN,
    non2xx,
    errors,
    timeouts,
    senderLagMaxMs,
  };
}

export interface CapacityOptions {
  connections: number;
  /** Seconds per probed rate. */
  seconds: number;
  /** The latency bound (ms) the p99 must stay within. */
  p99Ms: number;
  /** First rate probed; it rises by `step` (×) while the bound holds, then the gap is bisected. */
  startRate: number;
  step?: number;
  maxRate?: number;
  /** Bisection rounds between the last rate that held and the first that did not. */
  refinements?: number;
  /**
   * Probes of a rate that missed the bound before it counts as missed (default 2). On a shared 2-core machine one
   * scheduler stall of the server, the database or the load generator puts a 4 s probe's p99 over 25 ms; a server
   * that truly cannot hold the rate misses it again, a stall rarely strikes twice.
   */
  attempts?: number;
  /** Called after each probe (progress output). */
  onProbe?: (figures: OpenLoopFigures) => void;
}

export interface Capacity {
  /** The highest probed rate whose p99 stayed within the bound (0 when even the first did not). */
  rate: number;
  probes: OpenLoopFigures[];
}

const holds = (f: OpenLoopFigures, bound: number) =>
  f.latencyP99 <= bound && f.errors === 0 && f.timeouts === 0 && f.non2xx === 0;

/** The highest paced rate at which p99 stays within the bound: a rising ladder of rates, then bisection. */
export async function capacityAtP99(baseUrl: string, load: LoadCase, options: CapacityOptions): Promise<Capacity> {
  const step = options.step ?? 1.3;
  const maxRate = options.maxRate ?? 20_000;
  const probes: OpenLoopFigures[] = [];
  const probe = async (rate: number) => {
    for (let attempt = 0; attempt < Math.max(1, options.attempts ?? 2); attempt++) {
      const figures = await runOpenLoop(
        baseUrl,
        { ...load, name: `${load.name} @${rate}/s` },
        { rate, seconds: options.seconds, connections: options.connections },
      );
      probes.push(figures);
      options.onProbe?.(figures);
      if (holds(figures, options.p99Ms)) return true;
    }
    return false;
  };
  let good = 0;
  let bad = 0;
  for (let rate = Math.round(options.startRate); rate <= maxRate; rate = Math.round(rate * step)) {
    if (await probe(rate)) good = rate;
    else {
      bad = rate;
      break;
    }
  }
  if (bad === 0) return { rate: good, probes };
  let low = good;
  let high = bad;
  for (let i = 0; i < (options.refinements ?? 2) && high - low > Math.max(5, low * 0.05); i++) {
    const mid = Math.round((low + high) / 2);
    if (await probe(mid)) low = mid;
    else high = mid;
  }
  return { rate: low, probes };
}
