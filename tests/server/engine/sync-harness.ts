// Drives TradingCore and the trade state machine synchronously over a market path: orders fill (or fail) after a
// number of steps chosen by the test, at the quotes of the step they fill on. No timers, no database, no venues.
import Decimal from 'decimal.js';
import type { SymbolId } from '../../../contract/domain';
import { DEFAULT_TRADING_PARAMS, type TradingParams } from '../../../server/engine/costs';
import { money } from '../../../server/engine/decimal';
import { toPriceTick, type PriceTick } from '../../../server/engine/prices';
import { TradingCore, type Command, type UserLimits } from '../../../server/engine/trading-core';
import { applyTradeEvent, closeOrderId, createTrade, isTerminal, pendingOrders, type TradeEvent, type TradeState } from '../../../server/engine/trade-state';
import type { LegFill, Quote } from '../../../server/venues/types';

export interface MarketStep {
  symbol: SymbolId;
  /** Binance mid. */
  mid: number;
  /** (deriv − binance) / binance. */
  spread: number;
  /** Milliseconds since the previous step. */
  dtMs: number;
}

export interface OrderBehaviour {
  /** Steps until the order's outcome arrives (0 = at once). */
  delay: number;
  /** The venue refuses it (opening orders only; closes are retried until they fill). */
  fails: boolean;
}

export interface HarnessLog {
  /** Every open command with the step it was issued on. */
  opens: { step: number; userId: string; notional: string }[];
  /** Finished trades in order. */
  ended: TradeState[];
  halts: { step: number; userId: string }[];
  /** Σ notional of unfinished trades per user after each step. */
  maxOpenNotional: Map<string, Decimal>;
  violations: string[];
}

const FEE = new Decimal('0.001');
const DERIV_COMMISSION = new Decimal('0.0003');
const HALF_SPREAD = 0.0001;

function quotes(step: MarketStep, at: number): { binance: Quote; deriv: Quote } {
  const d = step.mid * (1 + step.spread);
  return {
    binance: { venue: 'binance', symbol: step.symbol, bid: step.mid * (1 - HALF_SPREAD), ask: step.mid * (1 + HALF_SPREAD), ts: at },
    deriv: { venue: 'deriv', symbol: step.symbol, bid: d * (1 - HALF_SPREAD), ask: d * (1 + HALF_SPREAD), ts: at },
  };
}

interface PendingOutcome {
  dueStep: number;
  tradeId: string;
  build: () => TradeEvent;
}

export function runHarness(
  users: UserLimits[],
  path: MarketStep[],
  behaviour: (n: number) => OrderBehaviour,
  params: TradingParams = DEFAULT_TRADING_PARAMS,
): HarnessLog {
  let now = 1_000_000;
  let ids = 0;
  let orderNo = 0;
  const core = new TradingCore({ params, now: () => now, newIds: () => ({ id: `id-${++ids}`, tradeId: `T${ids}` }) });
  const log: HarnessLog = { opens: [], ended: [], halts: [], maxOpenNotional: new Map(), violations: [] };
  const trades = new Map<string, TradeState>();
  const inFlight = new Set<string>(); // "tradeId|venue|kind" already sent
  const outcomes: PendingOutcome[] = [];
  const latest = new Map<SymbolId, { binance: Quote; deriv: Quote }>();
  const limitsById = new Map(users.map((u) => [u.userId, u]));
  let stepNo = 0;

  const fillAt = (symbol: SymbolId, venue: 'binance' | 'deriv', side: 'buy' | 'sell', id: string, notional: Decimal | null, quantity: string | null): LegFill => {
    const q = (latest.get(symbol) as { binance: Quote; deriv: Quote })[venue];
    const price = new Decimal(side === 'buy' ? q.ask : q.bid).toDecimalPlaces(8);
    const qty = quantity ? new Decimal(quantity) : (notional as Decimal).dividedBy(price).toDecimalPlaces(8, Decimal.ROUND_DOWN);
    const quoteAmount = price.times(qty);
    const fee = venue === 'binance' ? quoteAmount.times(FEE).toDecimalPlaces(8) : quantity ? new Decimal(0) : quoteAmount.times(DERIV_COMMISSION).toDecimalPlaces(8);
    return { clientOrderId: id, venueOrderId: `v-${id}`, price: price.toFixed(), quantity: qty.toFixed(), fee: fee.toFixed(), at: now };
  };

  const handle = (commands: Command[]): void => {
    for (const c of commands) {
      if (c.kind === 'open') {
        log.opens.push({ step: stepNo, userId: c.trade.userId, notional: c.trade.notional });
        trades.set(c.trade.tradeId, createTrade(c.trade));
        dispatch(c.trade.tradeId);
      } else if (c.kind === 'close') {
        const t = trades.get(c.tradeId);
        if (!t) continue;
        trades.set(c.tradeId, applyTradeEvent(t, { type: 'close-requested', reason: c.reason, cancel: c.cancel }, new Date(now)));
        dispatch(c.tradeId);
      } else {
        log.halts.push({ step: stepNo, userId: c.userId });
      }
    }
  };

  /** Sends the orders the trade waits for (once each) and schedules their outcomes. */
  const dispatch = (tradeId: string): void => {
    const t = trades.get(tradeId) as TradeState;
    for (const order of pendingOrders(t)) {
      const key = `${tradeId}|${order.leg.venue}|${order.kind}`;
      if (inFlight.has(key)) continue;
      inFlight.add(key);
      const b = behaviour(orderNo++);
      const { leg } = order;
      outcomes.push({
        dueStep: stepNo + b.delay,
        tradeId,
        build: () => {
          inFlight.delete(key);
          if (order.kind === 'open') {
            return b.fails
              ? { type: 'leg-open-failed', venue: leg.venue, reason: `${leg.venue} refused` }
              : { type: 'leg-opened', venue: leg.venue, fill: fillAt(t.symbol, leg.venue, leg.side, leg.clientOrderId, new Decimal(t.notional), null) };
          }
          const current = trades.get(tradeId) as TradeState;
          const open = current.legs.find((l) => l.venue === leg.venue)?.open;
          const closingSide = leg.side === 'buy' ? 'sell' : 'buy';
          return { type: 'leg-closed', venue: leg.venue, fill: fillAt(t.symbol, leg.venue, closingSide, closeOrderId(leg.clientOrderId), null, open?.quantity ?? '0') };
        },
      });
    }
  };

  const deliver = (): void => {
    for (;;) {
      const due = outcomes.findIndex((o) => o.dueStep <= stepNo);
      if (due < 0) return;
      const [o] = outcomes.splice(due, 1) as [PendingOutcome];
      const before = trades.get(o.tradeId) as TradeState;
      const after = applyTradeEvent(before, o.build(), new Date(now));
      trades.set(o.tradeId, after);
      if (before.stage === 'opening' && after.stage !== 'opening' && after.legs.every((l) => l.status !== 'failed')) core.onOpened(o.tradeId);
      if (isTerminal(after.stage)) {
        trades.delete(o.tradeId);
        log.ended.push(after);
        handle(core.onEnded(o.tradeId, money(after.actualProfit)));
      } else {
        dispatch(o.tradeId);
      }
    }
  };

  for (const u of users) handle(core.upsertUser(u));
  for (const step of path) {
    stepNo += 1;
    now += step.dtMs;
    const q = quotes(step, now);
    latest.set(step.symbol, q);
    deliver();
    const tick: PriceTick = toPriceTick(step.symbol, q.binance, q.deriv);
    handle(core.onTick(tick));
    if (stepNo % 3 === 0) {
      // a manual request now and then, through the same limits
      const user = users[stepNo % users.length];
      if (user) {
        const result = core.manualOpen(limitsById.get(user.userId) as UserLimits, step.symbol, money(50), tick);
        if (result.ok) handle([result.command]);
      }
    }
    deliver();
    // invariants after every step
    const open = new Map<string, Decimal>();
    for (const t of trades.values()) open.set(t.userId, (open.get(t.userId) ?? new Decimal(0)).plus(t.notional));
    for (const u of users) {
      const sum = open.get(u.userId) ?? new Decimal(0);
      if (sum.gt(u.maxExposure)) log.violations.push(`step ${stepNo}: ${u.userId} open ${sum} > maxExposure ${u.maxExposure}`);
      if (!core.committedOf(u.userId).eq(sum)) log.violations.push(`step ${stepNo}: ${u.userId} committed ${core.committedOf(u.userId)} ≠ ${sum}`);
      const prev = log.maxOpenNotional.get(u.userId) ?? new Decimal(0);
      if (sum.gt(prev)) log.maxOpenNotional.set(u.userId, sum);
    }
  }
  // Let everything in flight finish so every trade has a final profit.
  for (let i = 0; i < 10 && outcomes.length > 0; i += 1) {
    stepNo += 1;
    deliver();
  }
  return log;
}
