// The process's metrics: created once per app (tests build many apps in one process, so no global registry), fed by
// the HTTP hooks, the engine's events, the metered venues and the backtest wrapper, and served at GET /metrics.
import type { Observable, Subscription } from 'rxjs';
import type { EngineEvent } from '../../engine/events';
import type { EngineMetrics } from '../../engine/metrics-port';
import { countEngineEvents } from './engine-events';
import { createMetricFamilies, type MetricFamilies, type ScrapeSources } from './families';

export interface OpsMetrics {
  families: MetricFamilies;
  /** The engine's metrics port (server/engine/metrics-port.ts) on these counters. */
  engine: EngineMetrics;
  /** Gives the scrape-time gauges their sources; parts not given keep theirs. */
  watch(sources: Partial<ScrapeSources>): void;
  /** Counts the engine's events until the returned subscription ends. */
  countEvents(events$: Observable<EngineEvent>): Subscription;
  /** The Prometheus text exposition. */
  scrape(): Promise<{ contentType: string; body: string }>;
}

export function createMetrics(): OpsMetrics {
  const sources: ScrapeSources = { engine: null, realtime: null, pool: null, figures: null };
  const families = createMetricFamilies(sources);
  return {
    families,
    engine: { decided: (symbol, outcome) => families.decisions.inc({ symbol, outcome }) },
    watch: (given) => void Object.assign(sources, given),
    countEvents: (events$) => countEngineEvents(events$, families),
    scrape: async () => ({ contentType: families.registry.contentType, body: await families.registry.metrics() }),
  };
}

export { meterVenues } from './venue-meter';
export { meterBacktest } from './backtests';
export type { ScrapeSources } from './families';
