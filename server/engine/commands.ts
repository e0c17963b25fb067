// What the decisions (trading-core.ts) ask the rest of the engine to do, and what they are told back. The core issues
// commands and never awaits; execution.ts carries them out and reports the outcomes.
import type { TradeStatus } from '../../contract/domain';
import type { OpportunityOutcome } from '../../contract/entities';
import type { EngineStop } from '../../contract/trading-state';
import type { TradingParams } from './costs';
import type { Money } from './decimal';
import type { NewTrade } from './trade-state';
import type { Refusal } from './user-book';

/** The stops the engine decides by itself (contract/trading-state.ts). */
export type StopKind = EngineStop;

export type Command =
  | { kind: 'open'; trade: NewTrade }
  | { kind: 'close'; tradeId: string; userId: string; reason: string }
  /** Persist the stop (tradingEnabled off, with its kind and reason) and tell the user. */
  | { kind: 'stop'; userId: string; stop: StopKind; reason: string }
  /** Read the user's realised window from the finished trades and hand it back with `realisedRead(userId, seq, …)`. */
  | { kind: 'read-realised'; userId: string; seq: number }
  | { kind: 'outcome'; userId: string; outcome: OpportunityOutcome };

/** How a trade ended, as the executor reports it. */
export interface TradeEnd {
  status: Extract<TradeStatus, 'completed' | 'failed' | 'cancelled'>;
  profit: Money;
  reason: string | null;
}

export type ManualResult = { ok: true; command: Extract<Command, { kind: 'open' }> } | Refusal;
export type CancelResult = { ok: true; command: Extract<Command, { kind: 'close' }> } | Refusal;

export interface CoreDeps {
  params: TradingParams;
  now: () => number;
  /** A fresh (row id, trade id) pair. */
  newIds: () => { id: string; tradeId: string };
}
