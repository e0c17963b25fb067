// Drives TradingCore and the trade state machine synchronously over a market path: orders fill (or fail) after a
// number of steps chosen by the test, at the quotes of the step they fill on; a venue may stall (its quote keeps its
// old timestamp) and Deriv may stop a contract out. The database's realised window is answered at once from the
// trades ended so far. No timers, no database, no venues.
import Decimal from 'decimal.js';
import type { SymbolId } from '../../../contract/domain';
import { DEFAULT_TRADING_PARAMS, type TradingParams } from '../../../server/engine/costs';
import { money } from '../../../server/engine/decimal';
import { EMPTY_WINDOW, foldRealised, type RealisedWindow } from '../../../server/engine/drawdown';
import { toPriceTick, type PriceTick } from '../../../server/engine/prices';
import { TradingCore, type Command, type StopKind, type UserLimits } from '../../../server/engine/trading-core';
import {
  applyTradeEvent,
  closeOrderId,
  createTrade,
  isTerminal,
  pendingOrders,
  type TradeEvent,
  type TradeState,
} from '../../../server/engine/trade-state';
import type { LegFill, Quote } from '../../../server/venues/types';

export interface MarketStep {
  symbol: SymbolId;
  /** Binance mid. */
  mid: number;
  /** (deriv − binance) / binance. */
  spread: number;
  /** Milliseconds since the previous step. */
  dtMs: number;
  /** A venue whose quote does not move this step: it keeps its last price and timestamp. */
  stall?: 'binance' | 'deriv' | null;
  /** Deriv stops out the open Deriv leg of every trade on this symbol (before the step's decisions). */
  stopOut?: boolean;
}

export interface OrderBehaviour {
  /** Steps until the order's outcome arrives (0 = at once). */
  delay: number;
  /** The venue refuses it (opening orders only; closes are retried until they fill). */
  fails: boolean;
}

export interface HarnessLog {
  /** Every open command with the step it was issued on. */
  opens: { step: number; userId: string; notional: string; origin: 'auto' | 'manual'; tradeId: string }[];
  /** Finished trades in order, with the step they ended on. */
  ended: (TradeState & { step: number })[];
  stops: { step: number; userId: string; stop: StopKind }[];
  stopOuts: number;
  outcomes: number;
  /** Trades that never finished although everything was delivered (must stay empty). */
  unfinished: TradeState[];
  violations: string[];
}

const FEE = new Decimal('0.001');
const DERIV_COMMISSION = new Decimal('0.0003');
const HALF_SPREAD = 0.0001;

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
  const log: HarnessLog = { opens: [], ended: [], stops: [], stopOuts: 0, outcomes: 0, unfinished: [], violations: [] };
  const trades = new Map<string, TradeState>();
  const inFlight = new Set<string>(); // "tradeId|venue|kind" already sent
  const outcomes: PendingOutcome[] = [];
  const latest = new Map<SymbolId, { binance: Quote; deriv: Quote }>();
  const windows = new Map<string, RealisedWindow>();
  const limitsById = new Map(users.map((u) => [u.userId, u]));
  let stepNo = 0;

  const fillAt = (
    symbol: SymbolId,
    venue: 'binance' | 'deriv',
    side: 'buy' | 'sell',
    id: string,
    notional: Decimal | null,
    quantity: string | null,
  ): LegFill => {
    const q = (latest.get(symbol) as { binance: Quote; deriv: Quote })[venue];
    const price = new Decimal(side === 'buy' ? q.ask : q.bid).toDecimalPlaces(8);
    const qty = quantity
      ? new Decimal(quantity)
      : (notional as Decimal).dividedBy(price).toDecimalPlaces(8, Decimal.ROUND_DOWN);
    const quoteAmount = price.times(qty);
    const fee =
      venue === 'binance'
        ? quoteAmount.times(FEE).toDecimalPlaces(8)
        : quantity
          ? new Decimal(0)
          : quoteAmount.times(DERIV_COMMISSION).toDecimalPlaces(8);
    return {
      clientOrderId: id,
      venueOrderId: `v-${id}`,
      price: price.toFixed(),
      quantity: qty.toFixed(),
      fee: fee.toFixed(),
      at: now,
    };
  };

  const handle = (commands: Command[]): void => {
    for (const c of commands) {
      switch (c.kind) {
        case 'open':
          log.opens.push({
            step: stepNo,
            userId: c.trade.userId,
            notional: c.trade.notional,
            origin: c.trade.origin,
            tradeId: c.trade.tradeId,
          });
          trades.set(c.trade.tradeId, createTrade(c.trade));
          dispatch(c.trade.tradeId);
          break;
        case 'close': {
          const t = trades.get(c.tradeId);
          if (!t) break;
          trades.set(c.tradeId, applyTradeEvent(t, { type: 'close-requested', reason: c.reason }, new Date(now)));
          dispatch(c.tradeId);
          break;
        }
        case 'stop':
          log.stops.push({ step: stepNo, userId: c.userId, stop: c.stop });
          break;
        case 'read-realised':
          handle(core.realisedRead(c.userId, c.seq, windows.get(c.userId) ?? EMPTY_WINDOW));
          break;
        case 'outcome':
          log.outcomes += 1;
          break;
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
              : {
                  type: 'leg-opened',
                  venue: leg.venue,
                  fill: fillAt(t.symbol, leg.venue, leg.side, leg.clientOrderId, new Decimal(t.notional), null),
                };
          }
          const current = trades.get(tradeId) as TradeState;
          const open = current.legs.find((l) => l.venue === leg.venue)?.open;
          const closingSide = leg.side === 'buy' ? 'sell' : 'buy';
          return {
            type: 'leg-closed',
            venue: leg.venue,
            fill: fillAt(
              t.symbol,
              leg.venue,
              closingSide,
              closeOrderId(leg.clientOrderId),
              null,
              open?.quantity ?? '0',
            ),
          };
        },
      });
    }
  };

  const apply = (tradeId: string, event: TradeEvent): void => {
    const before = trades.get(tradeId);
    if (!before) return;
    const after = applyTradeEvent(before, event, new Date(now));
    trades.set(tradeId, after);
    if (before.stage === 'opening' && after.stage !== 'opening' && after.legs.every((l) => l.status !== 'failed'))
      core.onOpened(tradeId);
    if (isTerminal(after.stage)) {
      trades.delete(tradeId);
      log.ended.push({ ...after, step: stepNo });
      windows.set(after.userId, foldRealised(windows.get(after.userId) ?? EMPTY_WINDOW, money(after.actualProfit)));
      handle(
        core.onEnded(tradeId, {
          status: after.stage as 'completed' | 'failed' | 'cancelled',
          profit: money(after.actualProfit),
          reason: after.reason,
        }),
      );
    } else {
      dispatch(tradeId);
    }
  };

  const deliver = (): void => {
    for (;;) {
      const due = outcomes.findIndex((o) => o.dueStep <= stepNo);
      if (due < 0) return;
      const [o] = outcomes.splice(due, 1) as [PendingOutcome];
      apply(o.tradeId, o.build());
    }
  };

  /** Deriv sells every open Deriv leg of the symbol by itself: the trade records it and closes the other leg. */
  const stopOut = (symbol: SymbolId): void => {
    for (const t of [...trades.values()]) {
      const leg = t.legs.find((l) => l.venue === 'deriv');
      if (t.symbol !== symbol || leg?.status !== 'open' || !leg.open) continue;
      log.stopOuts += 1;
      core.markClosing(t.tradeId);
      const fill = fillAt(
        symbol,
        'deriv',
        leg.side === 'buy' ? 'sell' : 'buy',
        closeOrderId(leg.clientOrderId),
        null,
        leg.open.quantity,
      );
      apply(t.tradeId, { type: 'leg-closed-by-venue', venue: 'deriv', fill, reason: 'Deriv stopped the contract out' });
    }
  };

  for (const u of users) handle(core.upsertUser(u));
  for (const step of path) {
    stepNo += 1;
    now += step.dtMs;
    const d = step.mid * (1 + step.spread);
    const previous = latest.get(step.symbol);
    const fresh = {
      binance: {
        venue: 'binance',
        symbol: step.symbol,
        bid: step.mid * (1 - HALF_SPREAD),
        ask: step.mid * (1 + HALF_SPREAD),
        ts: now,
      } as Quote,
      deriv: {
        venue: 'deriv',
        symbol: step.symbol,
        bid: d * (1 - HALF_SPREAD),
        ask: d * (1 + HALF_SPREAD),
        ts: now,
      } as Quote,
    };
    const q = {
      binance: step.stall === 'binance' && previous ? previous.binance : fresh.binance,
      deriv: step.stall === 'deriv' && previous ? previous.deriv : fresh.deriv,
    };
    latest.set(step.symbol, q);
    deliver();
    if (step.stopOut) stopOut(step.symbol);
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
      if (sum.gt(u.maxExposure))
        log.violations.push(`step ${stepNo}: ${u.userId} open ${sum} > maxExposure ${u.maxExposure}`);
      if (!core.committedOf(u.userId).eq(sum))
        log.violations.push(`step ${stepNo}: ${u.userId} committed ${core.committedOf(u.userId)} ≠ ${sum}`);
    }
  }
  // Let everything in flight finish, and every open trade close on its time limit, so every trade has a final profit.
  for (let i = 0; i < 20 && (outcomes.length > 0 || trades.size > 0); i += 1) {
    stepNo += 1;
    now += params.maxHoldMs;
    handle(core.checkTimeLimits(now));
    deliver();
  }
  log.unfinished = [...trades.values()];
  return log;
}
