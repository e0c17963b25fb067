// One autocannon run, summarised to the figures the benchmarks report.
import autocannon from 'autocannon';

export interface LoadCase {
  name: string;
  /** Called for every request: the path (with query) and the headers to send. */
  next(): { path: string; headers: Record<string, string> };
}

export interface LoadFigures {
  name: string;
  requests: number;
  requestsPerSecond: number;
  /** Milliseconds. */
  latencyP50: number;
  latencyP90: number;
  latencyP99: number;
  latencyMax: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** Server process CPU (user + system) per request, when measured. */
  serverCpuMsPerRequest?: number;
  /** PostgreSQL backends' CPU per request, when measured. */
  databaseCpuMsPerRequest?: number;
}

export interface LoadOptions {
  connections: number;
  seconds: number;
  /** Requests per second over all connections; omitted = as fast as the server answers (closed loop). */
  rate?: number;
}

export async function runLoad(baseUrl: string, load: LoadCase, options: LoadOptions): Promise<LoadFigures> {
  const result = await autocannon({
    url: baseUrl,
    connections: options.connections,
    duration: options.seconds,
    ...(options.rate !== undefined && { overallRate: options.rate }),
    requests: [
      {
        method: 'GET',
        setupRequest: (request) => {
          const { path, headers } = load.next();
          return { ...request, method: 'GET', path, headers };
        },
      },
    ],
  });
  return {
    name: load.name,
    requests: result.requests.total,
    requestsPerSecond: result.requests.average,
    latencyP50: result.latency.p50,
    latencyP90: result.latency.p90,
    latencyP99: result.latency.p99,
    latencyMax: result.latency.max,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  };
}
