// Replay: the engine's own decisions and the paper venue's own fills, driven by recorded quotes instead of live ones.
// Nothing here decides or prices anything: TradingCore decides (limits, thresholds, closes, maxLoss, breaker),
// pretrade.ts checks, trade-state.ts runs each trade's state machine and sums its profit, and the simulated venue's
// pure fill functions (venues/sim/execution.ts) price every leg. This file only does, synchronously and in order,
// the I/O the live engine does around them (engine.ts and executor.ts): it hands each quote to the core as a tick,
// carries out the core's commands once the instant's quotes are in (an order meets the venue's quote on arrival),
// keeps the paper balances and answers the realised-window reads from the trades it finished.
import type { EngineStop } from '../../../contract/trading-state';
import Decimal from 'decimal.js';
import type { Currency, SymbolId, VenueId } from '../../../contract/domain';
import { PAIR_CATALOGUE, currenciesOf } from '../../../contract/pairs';
import { VenueError, type LegFill, type Quote } from '../../venues/types';
import { PAPER_SEED, paperSeedOf } from '../../venues/sim/paper-seed';
import {
  DEFAULT_EXECUTION_COSTS,
  paperClose,
  paperOpen,
  type ExecutionCosts,
  type PaperExecution,
} from '../../venues/sim/execution';
import { simBinanceRules, simDerivRules } from '../../venues/sim/venue';
import { BookDepth, closingSide, consumingDepth, notionalAt } from '../../venues/sim/depth';
import { DEFAULT_TRADING_PARAMS, type TradingParams } from '../costs';
import { money, type Money } from '../decimal';
import { EMPTY_WINDOW, foldRealised, type RealisedWindow } from '../drawdown';
import { refusalReason } from '../executor';
import { sizeAndCheck, type SizedResult } from '../pretrade';
import { toPriceTick } from '../prices';
import {
  applyTradeEvent,
  createTrade,
  isTerminal,
  pendingOrders,
  type NewTrade,
  type PendingOrder,
  type TradeEvent,
  type TradeState,
} from '../trade-state';
import { TradingCore, type Command } from '../trading-core';
import type { BookTick, ReplayInput } from './books';

/** Every currency a replayed pair can move (the replay runs in a worker that knows only the catalogue). */
const CURRENCIES = currenciesOf(PAIR_CATALOGUE.map((p) => p.symbol));

/** The limits a trader tries: the same three the settings hold. */
export interface ReplayLimits {
  /** Fraction. */
  minSpread: number;
  /** USDT, decimal strings. */
  maxExposure: string;
  maxLoss: string;
}

export interface ReplayOptions {
  params?: TradingParams;
  costs?: ExecutionCosts;
  /** Paper balances at the start (the simulated venues' seed by default). */
  balances?: Record<VenueId, Record<Currency, string>>;
}

/** One finished trade of the replay, as the trades table would hold it. */
export interface ReplayTrade {
  tradeId: string;
  symbol: SymbolId;
  direction: TradeState['direction'];
  notional: string;
  openSpread: number;
  status: TradeState['stage'];
  actualProfit: string;
  reason: string | null;
  openedAt: number;
  closedAt: number;
}

export interface ReplayOutcome {
  /** Finished trades, in the order they finished. */
  trades: ReplayTrade[];
  /** Trades still open when the quotes ran out (not counted in the P&L). */
  open: number;
  /** The most notional the user had committed at once, USDT. */
  peakCommitted: Money;
  /** The engine's stop (maxLoss halt or pause after failures), with its reason, if one happened. */
  stopped: { kind: EngineStop; reason: string; at: number } | null;
  /** Decided trades a pre-trade check refused before anything was placed. */
  refused: number;
  quotes: number;
}

const USER = 'replay';
const venueKey = (venue: VenueId, symbol: SymbolId) => `${venue}|${symbol}`;

/**
 * Replays quotes and recorded engine ticks (in time order) for one user with the given limits. Deterministic: same
 * inputs, same trades.
 */
export function replayQuotes(
  inputs: Iterable<ReplayInput>,
  limits: ReplayLimits,
  options: ReplayOptions = {},
): ReplayOutcome {
  const run = new Replay(limits, options);
  for (const input of inputs) {
    if ('kind' in input) run.tick(input);
    else run.quote(input);
  }
  return run.finish();
}

class Replay {
  private now = 0;
  private ids = 0;
  private readonly params: TradingParams;
  private readonly costs: ExecutionCosts;
  private readonly depths = new Map<VenueId, BookDepth>();
  private readonly core: TradingCore;
  private readonly latest = new Map<string, Quote>();
  private readonly states = new Map<string, TradeState>();
  private readonly balances: Record<VenueId, Record<Currency, Decimal>>;
  /** Commands decided at the current instant, carried out once every quote of the instant is in. */
  private decided: Command[] = [];
  private window: RealisedWindow = EMPTY_WINDOW;
  private readonly outcome: ReplayOutcome = {
    trades: [],
    open: 0,
    peakCommitted: money(0),
    stopped: null,
    refused: 0,
    quotes: 0,
  };

  constructor(limits: ReplayLimits, options: ReplayOptions) {
    this.params = options.params ?? DEFAULT_TRADING_PARAMS;
    this.costs = options.costs ?? DEFAULT_EXECUTION_COSTS;
    const seed = options.balances ?? PAPER_SEED;
    const wallet = (venue: VenueId) =>
      Object.fromEntries(CURRENCIES.map((c) => [c, new Decimal(paperSeedOf(seed, venue, c))])) as Record<
        Currency,
        Decimal
      >;
    this.balances = { binance: wallet('binance'), deriv: wallet('deriv') };
    this.core = new TradingCore({
      params: this.params,
      now: () => this.now,
      newIds: () => {
        this.ids += 1;
        return { id: `replay-${this.ids}`, tradeId: `R${this.ids}` };
      },
    });
    this.carryOut(
      this.core.upsertUser({
        userId: USER,
        ...limits,
        // The paper venue's fee, as the live engine reads it from the venue (takerFeeRate).
        takerFee: this.costs.binanceTakerFee,
        autoTrade: true,
        stopped: null,
        windowStart: null,
        // The replay is fed only the pairs it was asked for.
        symbols: null,
      }),
    );
  }

  quote(quote: Quote): void {
    if (quote.ts !== this.now && this.decided.length > 0) this.settleInstant();
    this.now = Math.max(this.now, quote.ts);
    this.outcome.quotes += 1;
    this.latest.set(venueKey(quote.venue, quote.symbol), quote);
    const tick = toPriceTick(
      quote.symbol,
      this.latest.get(venueKey('binance', quote.symbol)) ?? null,
      this.latest.get(venueKey('deriv', quote.symbol)) ?? null,
    );
    this.decided.push(...this.core.onTick(tick));
  }

  /**
   * A recorded engine tick: the engine paired these two quotes at its clock `at` and decided on them. The replay's
   * clock is the engine's, so freshness, skew and time limits are judged as the engine judged them.
   */
  tick(tick: BookTick): void {
    if (tick.at !== this.now && this.decided.length > 0) this.settleInstant();
    this.now = Math.max(this.now, tick.at);
    this.outcome.quotes += 1;
    this.latest.set(venueKey('binance', tick.symbol), tick.binance);
    this.latest.set(venueKey('deriv', tick.symbol), tick.deriv);
    this.decided.push(...this.core.onTick(toPriceTick(tick.symbol, tick.binance, tick.deriv)));
  }

  finish(): ReplayOutcome {
    this.settleInstant();
    this.outcome.open = this.states.size;
    return this.outcome;
  }

  /** The orders decided during the instant meet the venues' quotes as they stand at its end. */
  private settleInstant(): void {
    const commands = this.decided;
    this.decided = [];
    // Decisions of one instant are checked against the same balances, as the engine's concurrent checks read them.
    const opens = commands.filter((c): c is Extract<Command, { kind: 'open' }> => c.kind === 'open');
    const checked = new Map(opens.map((c) => [c.trade.tradeId, this.preTrade(c.trade)]));
    this.carryOut(commands, checked);
  }

  private carryOut(commands: Command[], checked = new Map<string, SizedResult>()): void {
    for (const command of commands) {
      switch (command.kind) {
        case 'open': {
          const check = checked.get(command.trade.tradeId) ?? this.preTrade(command.trade);
          if (!check.ok) {
            this.outcome.refused += 1;
            this.carryOut(
              this.core.onSkipped(
                command.trade.tradeId,
                check.reason,
                command.trade.openSpread,
                command.trade.origin === 'auto',
              ),
            );
          } else {
            // sized to what the balances fund, as the engine's execution does
            if (!check.notional.eq(command.trade.notional)) this.core.resized(command.trade.tradeId, check.notional);
            const state = createTrade({ ...command.trade, notional: check.notional.toFixed() });
            this.states.set(state.tradeId, state);
            this.notePeak();
            this.drive(state);
          }
          break;
        }
        case 'close': {
          const state = this.states.get(command.tradeId);
          if (state)
            this.drive(applyTradeEvent(state, { type: 'close-requested', reason: command.reason }, new Date(this.now)));
          break;
        }
        case 'stop':
          this.outcome.stopped ??= { kind: command.stop, reason: command.reason, at: this.now };
          break;
        case 'read-realised':
          // The database's read of the finished trades, answered from the ones this replay finished.
          this.carryOut(this.core.realisedRead(command.userId, command.seq, this.window));
          break;
        case 'outcome':
          break;
      }
    }
  }

  /** The engine's sizing and pre-trade check on the paper venues' rules and the balances as they stand. */
  private preTrade(trade: NewTrade): SizedResult {
    const binance = trade.decision?.binance ?? this.latest.get(venueKey('binance', trade.symbol));
    if (!binance) return { ok: false, reason: 'no Binance price to size the order', mirror: false };
    const text = (venue: VenueId) =>
      Object.fromEntries(CURRENCIES.map((c) => [c, (this.balances[venue][c] ?? new Decimal(0)).toFixed()])) as Record<
        Currency,
        string
      >;
    return sizeAndCheck(
      {
        symbol: trade.symbol,
        direction: trade.direction,
        notional: money(trade.notional),
        binancePrice: trade.direction === 'deriv-rich' ? binance.ask : binance.bid,
      },
      { rules: simBinanceRules(trade.symbol, this.costs), balances: text('binance') },
      { rules: simDerivRules(this.costs), balances: text('deriv') },
      trade.origin === 'auto' ? { minNotional: this.params.minNotional } : null,
    );
  }

  /** The executor's loop for one trade: place what the state machine asks for, feed the fills back, until it waits. */
  private drive(initial: TradeState): void {
    let state = initial;
    for (;;) {
      const orders = pendingOrders(state);
      if (orders.length === 0) break;
      const before = state;
      const events = orders.map((order) => this.perform(state, order));
      for (const event of events) state = applyTradeEvent(state, event, new Date(this.now));
      this.states.set(state.tradeId, state);
      if (before.stage === 'opening' && state.stage !== 'opening' && state.legs.every((l) => l.status !== 'failed'))
        this.core.onOpened(state.tradeId);
      // A paper close fails only on a missing opening fill, which a replay cannot have: stop rather than spin.
      if (events.every((e) => e.type === 'leg-close-failed')) break;
    }
    if (!isTerminal(state.stage)) return;
    this.states.delete(state.tradeId);
    this.window = foldRealised(this.window, money(state.actualProfit));
    this.outcome.trades.push({
      tradeId: state.tradeId,
      symbol: state.symbol,
      direction: state.direction,
      notional: state.notional,
      openSpread: state.openSpread,
      status: state.stage,
      actualProfit: state.actualProfit,
      reason: state.reason,
      openedAt: state.createdAt.getTime(),
      closedAt: state.closedAt?.getTime() ?? this.now,
    });
    const status = state.stage === 'completed' || state.stage === 'failed' ? state.stage : 'cancelled';
    this.carryOut(
      this.core.onEnded(state.tradeId, { status, profit: money(state.actualProfit), reason: state.reason }),
    );
  }

  /** Each venue's book depth, consumed as the simulated venue's is (server/venues/sim/depth.ts). */
  private depthOf(venue: VenueId): BookDepth {
    let depth = this.depths.get(venue);
    if (!depth) this.depths.set(venue, (depth = new BookDepth()));
    return depth;
  }

  private perform(state: TradeState, order: PendingOrder): TradeEvent {
    const { leg } = order;
    const quote = this.latest.get(venueKey(leg.venue, state.symbol));
    try {
      if (!quote) throw new VenueError(leg.venue, 'unavailable', 'no quote');
      if (order.kind === 'open') {
        const decision = state.decision?.[leg.venue];
        const protection = decision
          ? { price: String(leg.side === 'buy' ? decision.ask : decision.bid), maxSlippage: this.params.maxSlippage }
          : undefined;
        const notional = new Decimal(state.notional);
        const at = { symbol: state.symbol, side: leg.side, quoteTs: quote.ts, notional: notional.toNumber() };
        const execution = consumingDepth(this.depthOf(leg.venue), this.costs, at, (costs) =>
          paperOpen(leg.venue, { side: leg.side, symbol: state.symbol, notional, protection }, quote, costs),
        );
        return { type: 'leg-opened', venue: leg.venue, fill: this.record(leg.venue, leg.clientOrderId, execution) };
      }
      const opened = {
        quantity: new Decimal(leg.open?.quantity ?? 0),
        openingPrice: leg.open ? new Decimal(leg.open.price) : undefined,
      };
      const side = closingSide(leg.side);
      const at = { symbol: state.symbol, side, quoteTs: quote.ts, notional: notionalAt(opened.quantity, quote) };
      const execution = consumingDepth(this.depthOf(leg.venue), this.costs, at, (costs) =>
        paperClose(leg.venue, { openSide: leg.side, symbol: state.symbol, ...opened }, quote, costs),
      );
      return {
        type: 'leg-closed',
        venue: leg.venue,
        fill: this.record(leg.venue, `${leg.clientOrderId}-c`, execution),
      };
    } catch (error) {
      return order.kind === 'open'
        ? { type: 'leg-open-failed', venue: leg.venue, reason: refusalReason(leg.venue, leg.side, state.symbol, error) }
        : {
            type: 'leg-close-failed',
            venue: leg.venue,
            reason: `${leg.venue} close failed: ${error instanceof Error ? error.message : String(error)}`,
          };
    }
  }

  /** The paper book's bookkeeping: balances move by the fill's deltas, and a fill that would overdraw is refused. */
  private record(venue: VenueId, clientOrderId: string, execution: PaperExecution): LegFill {
    const wallet = this.balances[venue];
    const next = { ...wallet };
    for (const [currency, delta] of Object.entries(execution.deltas)) {
      if (delta === undefined) continue;
      const held = wallet[currency] ?? new Decimal(0);
      const after = held.plus(delta);
      next[currency] = after;
      if (after.isNegative()) {
        throw new VenueError(
          venue,
          'insufficient-balance',
          `Insufficient ${currency} on ${venue}: have ${held.toFixed()}, need ${new Decimal(delta).negated().toFixed()}`,
        );
      }
    }
    this.balances[venue] = next;
    return {
      clientOrderId,
      venueOrderId: `paper:${clientOrderId}`,
      price: execution.price.toFixed(),
      quantity: execution.quantity.toFixed(),
      fee: execution.fee.toFixed(),
      at: this.now,
    };
  }

  private notePeak(): void {
    const committed = this.core.committedOf(USER);
    if (committed.gt(this.outcome.peakCommitted)) this.outcome.peakCommitted = committed;
  }
}
