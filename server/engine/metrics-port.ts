// What the engine reports to the process's metrics from inside its decision path, where no event carries it: the
// outcome of every decision (opportunity outcome events are limited per user and symbol, so counting those undercounts
// skips). The default does nothing; server/ops/metrics implements it with Prometheus counters.
import type { OpportunityOutcomeKind, SymbolId } from '../../contract/domain';

export interface EngineMetrics {
  /** One user's decision on one opportunity: taken, or skipped and why. Called before any rate limit. */
  decided(symbol: SymbolId, outcome: OpportunityOutcomeKind): void;
}

export const NO_ENGINE_METRICS: EngineMetrics = { decided: () => undefined };
