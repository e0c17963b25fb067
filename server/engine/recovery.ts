// Crash recovery: every trade left pending is reconciled with the venues before the engine trades again.
//
// Policy for a leg whose opening order the venue never saw: it is NOT placed now. The spread that justified the
// trade belongs to the past, so opening it late would be a different, unjustified trade. The leg is marked failed,
// the other leg (if it was filled) is unwound at once, and the trade ends 'failed' with the reason.
// Closing legs are different: a close the venue never saw is placed again with the same client order id, which the
// venue executes at most once, because a position must never be left open.
import { CLOSE_REASONS } from '../../contract/trade-life';
import type { VenueId } from '../../contract/domain';
import type { KnownOrder, Venue } from '../venues/types';
import type { Execution } from './execution';
import { messageOf } from './executor';
import type { AccountLoader, EngineLogger } from './ports';
import { applyTradeEvent, closeOrderId, settle, type TradeEvent, type TradeState } from './trade-state';
import type { TradingCore } from './trading-core';
import type { UserRegistry } from './user-registry';

export const NOT_PLACED_REASON = 'leg was not placed before a restart; not placed late';

export interface RecoveryDeps {
  /** The trades left pending (RecoverableStore.unfinished, or a batch to retry). */
  unfinished(): Promise<TradeState[]>;
  venues: Record<VenueId, Venue>;
  account: AccountLoader;
  now: () => Date;
  logger: EngineLogger;
  /** Hands a reconciled trade to the engine (decisions and execution). */
  adopt(state: TradeState): Promise<void>;
  /** Venue order ids other trades hold (since a time), so a search by placement never takes another trade's order. */
  claimed(venue: VenueId, since: Date): Promise<Set<string>>;
}

/** How far back a search by placement looks for orders other trades own. */
const CLAIM_WINDOW_MS = 60 * 60_000;

/** Reconciles each unfinished trade; returns the ones whose venues could not be asked (to retry later). */
export async function recoverTrades(deps: RecoveryDeps): Promise<TradeState[]> {
  const unfinished = await deps.unfinished();
  const deferred: TradeState[] = [];
  // Orders matched during this pass are not saved yet; they are claimed all the same.
  const matched = new Set<string>();
  const claimed = async (venue: VenueId, since: Date) =>
    new Set([
      ...(await deps.claimed(venue, since)),
      ...[...matched].filter((k) => k.startsWith(`${venue}|`)).map((k) => k.slice(venue.length + 1)),
    ]);
  for (const stored of unfinished) {
    try {
      const state = await reconcile(stored, { ...deps, claimed });
      for (const leg of state.legs) if (leg.venueOrderId) matched.add(`${leg.venue}|${leg.venueOrderId}`);
      deps.logger.info({ tradeId: state.tradeId, stage: state.stage }, 'recovered an unfinished trade');
      await deps.adopt(state);
    } catch (error) {
      deps.logger.error(
        { err: error, tradeId: stored.tradeId },
        `could not reconcile trade with the venues: ${messageOf(error)}`,
      );
      deferred.push(stored);
    }
  }
  return deferred;
}

/** Asks the venues about every leg whose outcome the database does not know, and applies the answers. */
export async function reconcile(
  stored: TradeState,
  deps: Pick<RecoveryDeps, 'venues' | 'account' | 'now'> & Partial<Pick<RecoveryDeps, 'claimed'>>,
): Promise<TradeState> {
  const account = await deps.account(stored.userId);
  const events: TradeEvent[] = [];
  for (const leg of stored.legs) {
    const venue = deps.venues[leg.venue];
    // What the engine wrote down: the venue's id once it answered, else the attempt made before the order went out.
    const known: KnownOrder = {
      venueOrderId: leg.venueOrderId,
      placement: leg.placement ?? null,
      role: leg.status === 'opening' ? 'open' : 'close',
    };
    if (leg.status === 'opening') {
      if (!leg.venueOrderId && leg.placement && deps.claimed) {
        known.claimed = await deps.claimed(leg.venue, new Date(stored.createdAt.getTime() - CLAIM_WINDOW_MS));
      }
      const fill = await venue.findOrder(account, stored.symbol, leg.clientOrderId, known);
      events.push(
        fill
          ? { type: 'leg-opened', venue: leg.venue, fill }
          : { type: 'leg-open-failed', venue: leg.venue, reason: `${leg.venue} ${NOT_PLACED_REASON}` },
      );
    } else if (leg.status === 'closing') {
      const fill = await venue.findOrder(account, stored.symbol, closeOrderId(leg.clientOrderId), known);
      if (fill) events.push({ type: 'leg-closed', venue: leg.venue, fill });
    }
  }
  let state = settle(stored, deps.now());
  for (const event of events) state = applyTradeEvent(state, event, deps.now());
  return settle(state, deps.now());
}

export interface AdoptionTarget {
  core: TradingCore;
  execution: Execution;
  registry: Pick<UserRegistry, 'limitsFor'>;
  maxHoldMs: number;
}

/** Hands a reconciled trade to the decisions and execution; `users` collects whose trades were adopted. */
export function adoptInto(target: AdoptionTarget, users: Set<string>): (state: TradeState) => Promise<void> {
  const { core, execution } = target;
  return async (state) => {
    users.add(state.userId);
    const limits = await target.registry.limitsFor(state.userId);
    if (limits) execution.execute(core.adopt(trackedOf(state, target.maxHoldMs), limits));
    execution.executor.resume(state);
    if (state.stage === 'open') execution.positions.watch(state);
    // A deactivated user's position is not left open: nothing would watch it.
    if (!limits) execution.executor.requestClose(state.tradeId, CLOSE_REASONS.admin);
  };
}

function trackedOf(state: TradeState, maxHoldMs: number) {
  const stage = state.stage === 'open' ? 'open' : state.stage === 'opening' ? 'opening' : 'closing';
  return {
    id: state.id,
    tradeId: state.tradeId,
    userId: state.userId,
    symbol: state.symbol,
    direction: state.direction,
    notional: state.notional,
    openEdge: Math.abs(state.openSpread),
    stage: stage as 'open' | 'opening' | 'closing',
    deadline: state.createdAt.getTime() + maxHoldMs,
  };
}
