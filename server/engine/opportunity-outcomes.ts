// The outcome of each opportunity the engine evaluates for a user (taken, or skipped and why), as the contract's
// OpportunityOutcome, and the limiter that keeps them from flooding a user: one per user and symbol per window,
// unless the outcome changes.
import type { OpportunityOutcomeKind, SymbolId } from '../../contract/domain';
import type { OpportunityOutcome } from '../../contract/entities';
import { directionOf } from './prices';

export function outcomeOf(
  symbol: SymbolId,
  spread: number,
  outcome: OpportunityOutcomeKind,
  reason: string,
  at: number,
  tradeId: string | null = null,
): OpportunityOutcome {
  return { symbol, spread, direction: directionOf(spread), outcome, reason, tradeId, at: new Date(at).toISOString() };
}

export class OutcomeLimiter {
  private readonly last = new Map<string, { kind: OpportunityOutcomeKind; at: number }>();

  constructor(private readonly everyMs: number) {}

  /** Whether this outcome may be sent now; a taken trade always may. */
  allow(userId: string, symbol: SymbolId, kind: OpportunityOutcomeKind, now: number): boolean {
    const key = `${userId}|${symbol}`;
    const last = this.last.get(key);
    if (kind !== 'taken' && last && last.kind === kind && now - last.at < this.everyMs) return false;
    this.last.set(key, { kind, at: now });
    return true;
  }

  forget(userId: string, symbols: readonly SymbolId[]): void {
    for (const symbol of symbols) this.last.delete(`${userId}|${symbol}`);
  }
}
