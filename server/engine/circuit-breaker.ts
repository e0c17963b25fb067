// The circuit breaker of one user (DESIGN.md section 6): after a failed trade the symbol waits a growing back-off
// before the next attempt, and after a few consecutive failures the user's automated trading is paused. A refusal
// never starts a loop. Pure state, changed by the trading core.
import type { SymbolId } from '../../contract/domain';
import type { TradingParams } from './costs';

export interface Block {
  until: number;
  outcome: 'backing_off' | 'pretrade_failed';
  reason: string;
}

export interface Breaker {
  /** Failed trades in a row, any symbol; a completed trade resets it. */
  failures: number;
  /** Failed trades in a row per symbol: the back-off doubles with each. */
  perSymbol: Map<SymbolId, number>;
  /** Symbols not to be tried before a time. */
  blocked: Map<SymbolId, Block>;
  /** Whether the counts were read back from the stored outcomes (once per user and process). */
  restored: boolean;
}

export const newBreaker = (): Breaker => ({ failures: 0, perSymbol: new Map(), blocked: new Map(), restored: false });

type BreakerParams = Pick<TradingParams, 'backoffBaseMs' | 'backoffMaxMs' | 'pauseAfterFailures' | 'skipCooldownMs'>;

/** The wait after the n-th failure in a row on a symbol (n ≥ 1): base, 2·base, 4·base, ... capped. */
export const backoffMs = (params: BreakerParams, n: number): number =>
  Math.min(params.backoffBaseMs * 2 ** Math.max(0, n - 1), params.backoffMaxMs);

/** Records a failed trade; says how long the symbol now waits and whether the user is to be paused. */
export function recordFailure(
  breaker: Breaker,
  symbol: SymbolId,
  now: number,
  params: BreakerParams,
  reason: string,
): { block: Block; pause: boolean } {
  const n = (breaker.perSymbol.get(symbol) ?? 0) + 1;
  breaker.perSymbol.set(symbol, n);
  breaker.failures += 1;
  const block: Block = {
    until: now + backoffMs(params, n),
    outcome: 'backing_off',
    reason: `backing off after a failed trade: ${reason}`,
  };
  breaker.blocked.set(symbol, block);
  return { block, pause: breaker.failures >= params.pauseAfterFailures };
}

/** A pre-trade check refused a trade: the symbol waits, but nothing failed at a venue. */
export function recordSkip(
  breaker: Breaker,
  symbol: SymbolId,
  now: number,
  params: BreakerParams,
  reason: string,
): Block {
  const block: Block = { until: now + params.skipCooldownMs, outcome: 'pretrade_failed', reason };
  breaker.blocked.set(symbol, block);
  return block;
}

export function recordSuccess(breaker: Breaker, symbol: SymbolId): void {
  breaker.failures = 0;
  breaker.perSymbol.delete(symbol);
  breaker.blocked.delete(symbol);
}

/**
 * The breaker as the stored outcomes left it (a restart): the failed trades in a row, oldest first, give the count,
 * each symbol's count, and the back-off of each symbol's last failure where it has not run out. Replaces the counts
 * (the stored outcomes include every failure this process saw); a pre-trade cooldown is kept.
 */
export function restoreBreaker(
  breaker: Breaker,
  failed: readonly { symbol: SymbolId; at: number; reason: string }[],
  now: number,
  params: BreakerParams,
): { blocks: Block[]; pause: boolean } {
  breaker.restored = true;
  breaker.failures = failed.length;
  breaker.perSymbol.clear();
  const last = new Map<SymbolId, { at: number; reason: string }>();
  for (const f of failed) {
    breaker.perSymbol.set(f.symbol, (breaker.perSymbol.get(f.symbol) ?? 0) + 1);
    last.set(f.symbol, f);
  }
  const blocks: Block[] = [];
  for (const [symbol, f] of last) {
    const until = f.at + backoffMs(params, breaker.perSymbol.get(symbol) ?? 1);
    if (until <= now || (breaker.blocked.get(symbol)?.until ?? 0) >= until) continue;
    const block: Block = { until, outcome: 'backing_off', reason: `backing off after a failed trade: ${f.reason}` };
    breaker.blocked.set(symbol, block);
    blocks.push(block);
  }
  return { blocks, pause: failed.length >= params.pauseAfterFailures };
}

/** Trading resumed by the user: every count and wait starts afresh. */
export function resetBreaker(breaker: Breaker): void {
  breaker.failures = 0;
  breaker.perSymbol.clear();
  breaker.blocked.clear();
}

export function activeBlock(breaker: Breaker, symbol: SymbolId, now: number): Block | null {
  const block = breaker.blocked.get(symbol);
  if (!block) return null;
  if (block.until > now) return block;
  breaker.blocked.delete(symbol);
  return null;
}
