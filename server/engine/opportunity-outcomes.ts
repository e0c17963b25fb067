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

/**
 * When a symbol's spread first rises above the lowest threshold anyone could open at, every trading user who did not
 * take it is told why (below their minSpread, exposure full, paused, ...). Once per opportunity, so a tick costs
 * nothing extra for the users it does not trigger. Every outcome passes the limiter.
 */
export class OutcomeReporter {
  private readonly limiter: OutcomeLimiter;
  /** Whether each symbol's spread is above the lowest threshold anyone could open at. */
  private readonly edgeActive = new Map<SymbolId, boolean>();

  constructor(
    everyMs: number,
    /** The lowest |spread| at which anyone could open (the cost floor). */
    private readonly floor: number,
  ) {
    this.limiter = new OutcomeLimiter(everyMs);
  }

  /** The outcome for one user, unless the limiter holds it back. */
  outcome(
    userId: string,
    symbol: SymbolId,
    spread: number,
    kind: OpportunityOutcomeKind,
    reason: string,
    now: number,
  ): OpportunityOutcome | null {
    return this.limiter.allow(userId, symbol, kind, now) ? outcomeOf(symbol, spread, kind, reason, now) : null;
  }

  /** True when this tick is the first of an opportunity on the symbol: the moment to tell the others why not. */
  rising(symbol: SymbolId, level: number): boolean {
    const active = level >= this.floor;
    const was = this.edgeActive.get(symbol) ?? false;
    this.edgeActive.set(symbol, active);
    return active && !was;
  }

  forget(userId: string, symbols: readonly SymbolId[]): void {
    this.limiter.forget(userId, symbols);
  }
}

/** How many outcomes a user's snapshot carries: enough to fill the cockpit's panel after a reload. */
export const RECENT_OUTCOMES_KEEP = 20;

/**
 * The newest outcomes sent to each user, newest first, so GET /snapshot can paint the Opportunities panel after a
 * reload instead of waiting for the next opportunity. In memory on the instance that trades the user: a restart
 * starts empty, which only costs the panel its history until the next outcome.
 */
export class RecentOutcomes {
  private readonly byUser = new Map<string, OpportunityOutcome[]>();

  constructor(private readonly keep = RECENT_OUTCOMES_KEEP) {}

  add(userId: string, outcome: OpportunityOutcome): void {
    const list = this.byUser.get(userId) ?? [];
    this.byUser.set(userId, [outcome, ...list].slice(0, this.keep));
  }

  of(userId: string): OpportunityOutcome[] {
    return [...(this.byUser.get(userId) ?? [])];
  }

  forget(userId: string): void {
    this.byUser.delete(userId);
  }
}
