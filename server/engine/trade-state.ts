// The execution state machine of one trade, as a pure transition function. The executor performs the orders that
// `pendingOrders` asks for and feeds each outcome back through `applyTradeEvent`.
//
// opening ──both legs filled──▶ open ──close requested──▶ closing ──both legs closed──▶ completed
//    │ one leg failed
//    ▼
// unwinding (the filled leg is closed at once) ──▶ failed
import { FINISHED_STATUSES, type SymbolId, type TradeOrigin, type TradeStatus } from '../../contract/domain';
import type { StoredFill, StoredLeg } from '../db/schema/trades';
import type { LegFill, OrderNote } from '../venues/types';
import { toStored } from './decimal';
import type { Direction } from './prices';
import { tradeProfit } from './profit';

export type Stage = 'opening' | 'open' | 'closing' | 'unwinding' | 'completed' | 'failed' | 'cancelled';
export type LegVenue = StoredLeg['venue'];

export interface TradeState {
  /** Row id (uuid). */
  id: string;
  /** Human-readable id, the stem of the legs' client order ids. */
  tradeId: string;
  userId: string;
  symbol: SymbolId;
  direction: Direction;
  origin: TradeOrigin;
  /** USDT, decimal string. */
  notional: string;
  /** Spread at the decision to open. */
  openSpread: number;
  stage: Stage;
  /** Why it closed, failed or was cancelled. */
  reason: string | null;
  /** A close asked for while the legs were still opening: performed as soon as both are open. */
  closeReason: string | null;
  legs: StoredLeg[];
  /** Decimal string; final once the trade is terminal. */
  actualProfit: string;
  createdAt: Date;
  closedAt: Date | null;
  /** The quotes the decision to open was made on (price protection); not stored: a leg is never placed late. */
  decision?: DecisionQuotes;
}

/** Both venues' best bid and ask when the trade was decided. */
export interface DecisionQuotes {
  binance: { bid: number; ask: number };
  deriv: { bid: number; ask: number };
  /** The last moment (ms since epoch) the first order may leave: after it the quotes are no longer fair (deadline.ts). */
  sendBy?: number;
}

export type TradeEvent =
  | { type: 'leg-opened'; venue: LegVenue; fill: LegFill }
  | { type: 'leg-open-failed'; venue: LegVenue; reason: string }
  | { type: 'close-requested'; reason: string }
  | { type: 'leg-closed'; venue: LegVenue; fill: LegFill }
  /** A close order that did not go through; the leg stays 'closing' and is tried again. */
  | { type: 'leg-close-failed'; venue: LegVenue; reason: string }
  /** The first order could not leave before the decision's deadline: nothing was sent, the trade ends cancelled. */
  | { type: 'not-sent'; reason: string }
  /** Written down while an opening order is on its way (OrderNote): how to find it, then its venue id. */
  | { type: 'leg-noted'; venue: LegVenue; note: OrderNote }
  /** The venue closed a leg by itself (a stop-out): the other leg is closed at once. */
  | { type: 'leg-closed-by-venue'; venue: LegVenue; fill: LegFill; reason: string };

export interface PendingOrder {
  kind: 'open' | 'close';
  leg: StoredLeg;
}

export const closeOrderId = (openClientOrderId: string): string => `${openClientOrderId}-c`;

type FinishedStatus = (typeof FINISHED_STATUSES)[number];
/** A trade's terminal stages are the contract's finished statuses. */
export const isTerminal = (stage: Stage): stage is FinishedStatus =>
  (FINISHED_STATUSES as readonly Stage[]).includes(stage);

export function statusOf(stage: Stage): TradeStatus {
  return isTerminal(stage) ? stage : 'pending';
}

export interface NewTrade {
  id: string;
  tradeId: string;
  userId: string;
  symbol: SymbolId;
  direction: Direction;
  origin: TradeOrigin;
  notional: string;
  openSpread: number;
  createdAt: Date;
  decision?: DecisionQuotes;
}

/** Deriv above Binance: buy spot on Binance, short Deriv (MULTDOWN). The mirror sells spot and goes long on Deriv. */
/** The stage a stored pending trade is in, read from its legs (crash recovery). */
export function stageFromLegs(legs: readonly StoredLeg[]): Stage {
  const statuses = legs.map((l) => l.status);
  if (statuses.includes('failed') || statuses.includes('unwound')) return 'unwinding';
  if (statuses.includes('opening')) return 'opening';
  if (statuses.every((s) => s === 'open')) return 'open';
  return 'closing';
}

export function createTrade(t: NewTrade): TradeState {
  const binanceSide = t.direction === 'deriv-rich' ? 'buy' : 'sell';
  const derivSide = binanceSide === 'buy' ? 'sell' : 'buy';
  const leg = (venue: LegVenue, side: 'buy' | 'sell'): StoredLeg => ({
    venue,
    side,
    clientOrderId: `${t.tradeId}-${venue === 'binance' ? 'b' : 'd'}`,
    venueOrderId: null,
    status: 'opening',
    open: null,
    close: null,
  });
  return {
    ...t,
    stage: 'opening',
    reason: null,
    closeReason: null,
    legs: [leg('binance', binanceSide), leg('deriv', derivSide)],
    actualProfit: '0',
    closedAt: null,
  };
}

const storedFill = (fill: LegFill): StoredFill => ({
  price: fill.price,
  quantity: fill.quantity,
  fee: fill.fee,
  at: new Date(fill.at).toISOString(),
});

/** Still opening and no order of it on its way or answered: it can be dropped without asking any venue. */
export const nothingSent = (state: TradeState): boolean =>
  state.stage === 'opening' &&
  state.legs.every((l) => l.status === 'opening' && !l.open && !l.venueOrderId && !l.placement);

function withLeg(state: TradeState, venue: LegVenue, change: (leg: StoredLeg) => StoredLeg): TradeState {
  return { ...state, legs: state.legs.map((leg) => (leg.venue === venue ? change(leg) : leg)) };
}

/** Applies one outcome and then settles whatever follows from it (unwind, deferred close, terminal state). */
export function applyTradeEvent(state: TradeState, event: TradeEvent, now: Date): TradeState {
  if (isTerminal(state.stage)) return state;
  switch (event.type) {
    case 'leg-opened': {
      const leg = state.legs.find((l) => l.venue === event.venue);
      if (!leg || leg.status !== 'opening') return state;
      const next = withLeg(state, event.venue, (l) => ({
        ...l,
        status: 'open',
        venueOrderId: event.fill.venueOrderId,
        open: storedFill(event.fill),
      }));
      return settle(next, now);
    }
    case 'leg-open-failed': {
      const leg = state.legs.find((l) => l.venue === event.venue);
      if (!leg || leg.status !== 'opening') return state;
      const next = withLeg(state, event.venue, (l) => ({ ...l, status: 'failed' }));
      return settle({ ...next, reason: next.reason ?? event.reason }, now);
    }
    case 'not-sent': {
      if (!nothingSent(state)) return state;
      const legs = state.legs.map((l) => ({ ...l, status: 'failed' as const }));
      return finish({ ...state, legs, reason: event.reason }, 'cancelled', now);
    }
    case 'close-requested': {
      if (state.stage === 'opening') {
        return { ...state, closeReason: state.closeReason ?? event.reason };
      }
      if (state.stage !== 'open') return state;
      return startClosing(state, event.reason);
    }
    case 'leg-closed': {
      const leg = state.legs.find((l) => l.venue === event.venue);
      if (!leg || leg.status !== 'closing') return state;
      const closedStatus = state.stage === 'unwinding' ? 'unwound' : 'closed';
      const next = withLeg(state, event.venue, (l) => ({ ...l, status: closedStatus, close: storedFill(event.fill) }));
      return settle(next, now);
    }
    case 'leg-close-failed':
      return state;
    case 'leg-noted': {
      const leg = state.legs.find((l) => l.venue === event.venue);
      if (!leg || leg.status !== 'opening') return state;
      const { note } = event;
      return withLeg(state, event.venue, (l) =>
        note.kind === 'attempt' ? { ...l, placement: note.placement } : { ...l, venueOrderId: note.venueOrderId },
      );
    }
    case 'leg-closed-by-venue': {
      const leg = state.legs.find((l) => l.venue === event.venue);
      if (!leg) return state;
      // Our own close crossed with the venue's: the close is done either way.
      if (leg.status === 'closing')
        return applyTradeEvent(state, { type: 'leg-closed', venue: event.venue, fill: event.fill }, now);
      if (leg.status !== 'open') return state;
      const closed = withLeg(state, event.venue, (l) => ({ ...l, status: 'closed', close: storedFill(event.fill) }));
      // Still waiting for the other leg to open: it is closed as soon as it is (or the trade fails if it is refused).
      if (state.stage === 'opening') return { ...closed, closeReason: state.closeReason ?? event.reason };
      if (state.stage !== 'open') return state;
      return settle(startClosing(closed, event.reason), now);
    }
  }
}

function startClosing(state: TradeState, reason: string): TradeState {
  return {
    ...state,
    stage: 'closing',
    reason,
    closeReason: null,
    legs: state.legs.map((l) => (l.status === 'open' ? { ...l, status: 'closing' } : l)),
  };
}

/** Derives the stage from the legs after a change (also after loading a trade from storage). */
export function settle(state: TradeState, now: Date): TradeState {
  const statuses = state.legs.map((l) => l.status);
  const anyFailed = statuses.includes('failed');
  const anyOpening = statuses.includes('opening');
  if (anyFailed) {
    if (anyOpening) return state; // wait for the other leg's outcome before unwinding it
    const toUnwind = state.legs.some((l) => l.status === 'open');
    if (toUnwind) {
      return {
        ...state,
        stage: 'unwinding',
        legs: state.legs.map((l) => (l.status === 'open' ? { ...l, status: 'closing' } : l)),
      };
    }
    if (statuses.includes('closing')) return state;
    return finish(state, 'failed', now);
  }
  if (anyOpening) return state;
  if (state.stage === 'opening') {
    const opened: TradeState = { ...state, stage: 'open' };
    return state.closeReason ? startClosing(opened, state.closeReason) : opened;
  }
  // A leg the venue closed by itself while the other was still open (found again after a restart): close the other.
  if (state.stage === 'closing' && statuses.includes('open')) {
    return settle(
      { ...state, legs: state.legs.map((l) => (l.status === 'open' ? { ...l, status: 'closing' } : l)) },
      now,
    );
  }
  if (state.stage === 'closing' && statuses.every((s) => s === 'closed')) {
    // Both legs were held and are closed: the trade is closed with its realised P&L, whoever asked (contract/trade-life.ts);
    // 'cancelled' is only for a trade no leg of which was ever filled.
    return finish(state, 'completed', now);
  }
  return state;
}

/** Ends the trade; 'cancelled' only for a trade none of whose orders was ever sent (contract/trade-life.ts). */
function finish(state: TradeState, stage: 'completed' | 'failed' | 'cancelled', now: Date): TradeState {
  return { ...state, stage, actualProfit: toStored(tradeProfit(state.legs)), closedAt: now };
}

/** The orders the trade is waiting for: opening legs to place, closing legs to close. */
export function pendingOrders(state: TradeState): PendingOrder[] {
  if (isTerminal(state.stage)) return [];
  const orders: PendingOrder[] = [];
  for (const leg of state.legs) {
    if (leg.status === 'opening') orders.push({ kind: 'open', leg });
    else if (leg.status === 'closing') orders.push({ kind: 'close', leg });
  }
  return orders;
}
