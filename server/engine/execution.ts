// Where the decisions meet the venues: carries out the core's commands (open, close, stop, read the realised window,
// tell an outcome), runs the pre-trade checks and the write-ahead insert before any order, and hands the trades to the
// executor, which drives them through their legs; the positions the venues may close by themselves (stop-outs) are
// watched. The outcomes flow back into the core, which never awaits. Every piece of work between a decision and the
// executor is tracked, so idle() can wait for it.
import { ENGINE_BUSY_RECENT_MS, type VenueId } from '../../contract/domain';
import { CLOSE_REASONS } from '../../contract/trade-life';
import type { OpportunityOutcome, Trade } from '../../contract/entities';
import { SERVER_EVENTS } from '../../contract/events';
import { engineStatusOf, noticeText, type EngineStop } from '../../contract/trading-state';
import type { PositionClosed, Venue, VenueAccount } from '../venues/types';
import type { TradingParams } from './costs';
import { ENGINE_BUSY, inTime } from './deadline';
import { money } from './decimal';
import type { EngineEvent } from './events';
import { messageOf, TradeExecutor } from './executor';
import { FigureRefresh } from './figure-refresh';
import type { GlobalHalt } from './global-halt';
import { outcomeOf } from './opportunity-outcomes';
import type { EngineMetrics } from './metrics-port';
import type { AccountLoader, EngineLogger, FigureSources, RecoverableStore, UserDirectory } from './ports';
import { PositionWatch } from './position-watch';
import type { PriceFeed } from './price-feed';
import { sizeAndCheck, type SizedResult } from './pretrade';
import type { NewTrade, TradeState } from './trade-state';
import type { Command, TradingCore } from './trading-core';
import { VenueFigureCache } from './venue-figures';
import type { LaneLimits } from './venue-lanes';

export interface ExecutionDeps {
  venues: Record<VenueId, Venue>;
  store: RecoverableStore;
  users: UserDirectory;
  account: AccountLoader;
  figures: FigureSources;
  core: TradingCore;
  halt: GlobalHalt;
  prices: PriceFeed;
  params: TradingParams;
  now(): number;
  emit(event: EngineEvent): void;
  logger(): EngineLogger;
  metrics: EngineMetrics;
  lanes?: LaneLimits;
}

/**
 * What opening a decided trade came to: recorded (null when the insert failed, nothing placed), refused, or dropped
 * because it could not leave before its deadline (`busy`, nothing placed).
 */
export type OpenResult = { trade: Trade | null } | { refused: string } | { busy: true };

export class Execution {
  readonly executor: TradeExecutor;
  readonly positions: PositionWatch;
  private readonly figureCache: VenueFigureCache;
  private readonly figureRefresh: FigureRefresh;
  /** Work between a decision and the executor (pre-trade checks, reads of the realised window). */
  private readonly deciding = new Set<Promise<unknown>>();
  /** Waiting for a user's trades to end (an admin closing them before removing the account). */
  private readonly endWaiters = new Map<string, Array<() => void>>();
  /** Bursts of opens seen: which user goes first rotates with it. */
  private bursts = 0;
  /** When a decision was last dropped for want of time (engine_busy). */
  private lastShedAt = -Infinity;

  constructor(private readonly deps: ExecutionDeps) {
    const { venues, account } = deps;
    const now = () => new Date(deps.now());
    this.figureCache = new VenueFigureCache({ venues, account, now: deps.now });
    this.figureRefresh = new FigureRefresh({
      venues,
      account,
      figures: deps.figures,
      prices: deps.prices,
      now,
      emit: deps.emit,
      logger: deps.logger,
    });
    this.positions = new PositionWatch({
      venues,
      account,
      logger: deps.logger,
      onClosed: (tradeId, venue, closed) => this.positionClosed(tradeId, venue, closed),
    });
    this.executor = new TradeExecutor({
      venues,
      store: deps.store,
      account,
      now,
      logger: deps.logger,
      maxSlippage: deps.params.maxSlippage,
      lanes: deps.lanes,
      onPersisted: (state, trade, created) =>
        deps.emit({ type: created ? SERVER_EVENTS.newTrade : SERVER_EVENTS.tradeUpdated, userId: state.userId, trade }),
      onOpened: (state) => {
        deps.core.onOpened(state.tradeId);
        this.positions.watch(state);
      },
      onEnded: (state) => this.ended(state),
      onGone: (state) => this.gone(state),
      onFill: (userId) => {
        this.figureCache.invalidate(userId);
        this.figureRefresh.request(userId);
      },
      onError: (error, state) =>
        deps.logger().error({ err: error, tradeId: state.tradeId }, 'trade step failed; will retry'),
    });
  }

  /** Carries out the core's commands; the returned promises settle when the database reads among them are done. */
  execute(commands: Command[]): Promise<void>[] {
    const reads: Promise<void>[] = [];
    let opens = 0;
    for (const command of fairOrder(commands, this.bursts)) {
      switch (command.kind) {
        case 'open':
          this.track(this.open(command.trade));
          opens += 1;
          break;
        case 'close':
          this.executor.requestClose(command.tradeId, command.reason);
          break;
        case 'stop':
          void this.stopTrading(command.userId, command.stop, command.reason);
          break;
        case 'read-realised':
          reads.push(this.track(this.readRealised(command.userId, command.seq)));
          break;
        case 'outcome':
          this.emitOutcome(command.userId, command.outcome);
          break;
      }
    }
    if (opens > 1) this.bursts += 1;
    return reads;
  }

  /** Whether the engine dropped a decision for want of time lately (the risk strip says so). */
  get shedding(): boolean {
    return this.deps.now() - this.lastShedAt < ENGINE_BUSY_RECENT_MS;
  }

  /** Pre-trade checks, then the write-ahead insert and the orders; a trade that cannot be placed is never opened. */
  async open(decided: NewTrade): Promise<OpenResult> {
    let trade = decided;
    const { core, logger } = this.deps;
    // The decision's deadline is checked before the reads, before the insert, and by the executor before the first
    // order: a decision that cannot make it is dropped, never sent late (deadline.ts).
    if (!this.inTime(trade)) return this.drop(trade);
    // At the last moment: a halt saved through another instance stops this trade too (global-halt.ts keeps it current).
    if (await this.deps.halt.current()) {
      this.execute(core.onSkipped(trade.tradeId, 'trading is halted by an admin', trade.openSpread, false));
      return { refused: 'trading is halted by an admin' };
    }
    const read = await this.preTrade(trade);
    const check = read.check;
    if (!check.ok) {
      const { tradeId, userId, symbol } = trade;
      logger().info(
        { event: 'pretrade_refused', tradeId, userId, symbol, reason: check.reason },
        'trade not placed: pre-trade check',
      );
      this.execute(core.onSkipped(tradeId, check.reason, trade.openSpread, trade.origin === 'auto'));
      return { refused: check.reason };
    }
    if (!check.notional.eq(trade.notional)) {
      // The balances fund less than the decided size: the trade opens at what they fund.
      logger().info(
        {
          event: 'sized_down',
          tradeId: trade.tradeId,
          userId: trade.userId,
          from: trade.notional,
          to: check.notional.toFixed(),
        },
        'trade sized to what the balances fund',
      );
      trade = { ...trade, notional: check.notional.toFixed() };
      core.resized(trade.tradeId, check.notional);
    }
    if (!this.inTime(trade)) return this.drop(trade);
    const dto = await this.insertAndPlace(trade, read.account);
    if (dto) {
      const taken = `${trade.origin} trade of ${trade.notional} USDT`;
      const outcome = outcomeOf(trade.symbol, trade.openSpread, 'taken', taken, this.deps.now(), trade.tradeId);
      this.emitOutcome(trade.userId, outcome);
    }
    return { trade: dto };
  }

  /**
   * Closes (cancels) every unfinished trade of the user, then waits up to `waitMs` for them to end. Answers how many
   * were open and whether all of them ended.
   */
  async closeAllOf(userId: string, reason: string, waitMs: number): Promise<{ open: number; closed: boolean }> {
    const open = this.runsOf(userId);
    this.execute(this.deps.core.closeAllOf(userId, reason));
    for (const run of this.executor.active.values())
      if (run.state.userId === userId) this.executor.requestClose(run.state.tradeId, reason);
    if (open === 0) return { open, closed: true };
    const ended = new Promise<void>((resolve) =>
      this.endWaiters.set(userId, [...(this.endWaiters.get(userId) ?? []), resolve]),
    );
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs)));
    await Promise.race([ended, timeout]);
    clearTimeout(timer);
    return { open, closed: this.runsOf(userId) === 0 };
  }

  /** The venue order ids of the user's unfinished trades on one venue. */
  trackedOrderIds(userId: string, venue: VenueId): Set<string> {
    const ids = new Set<string>();
    for (const run of this.executor.active.values()) {
      if (run.state.userId !== userId) continue;
      for (const leg of run.state.legs) if (leg.venue === venue && leg.venueOrderId) ids.add(leg.venueOrderId);
    }
    return ids;
  }

  /** Waits until every decided trade is placed or refused and every trade in flight has finished its current step. */
  async idle(): Promise<void> {
    while (this.deciding.size > 0) await Promise.allSettled([...this.deciding]);
    await this.executor.idle();
    if (this.deciding.size > 0) await this.idle();
  }

  private track<T>(work: Promise<T>): Promise<T> {
    const tracked = work.finally(() => this.deciding.delete(tracked));
    this.deciding.add(tracked);
    return tracked;
  }

  private runsOf(userId: string): number {
    let n = 0;
    for (const run of this.executor.active.values()) if (run.state.userId === userId) n += 1;
    return n;
  }

  private inTime(trade: NewTrade): boolean {
    return inTime(trade.decision?.sendBy, this.deps.now());
  }

  /** A decision that missed its deadline before anything was written: released, told, counted. */
  private drop(trade: NewTrade): OpenResult {
    this.shed(trade.userId, trade.tradeId, trade.symbol);
    this.execute(this.deps.core.onBusy(trade.tradeId, trade.openSpread));
    return { busy: true };
  }

  private shed(userId: string, tradeId: string, symbol: NewTrade['symbol']): void {
    this.lastShedAt = this.deps.now();
    this.deps.metrics.decided(symbol, 'engine_busy');
    this.deps.logger().warn({ event: 'engine_busy', tradeId, userId, symbol }, `trade not placed: ${ENGINE_BUSY}`);
  }

  /** The checks, and the account they read: the trade's orders use it (the credentials are read once per trade). */
  private async preTrade(trade: NewTrade): Promise<{ check: SizedResult; account?: VenueAccount }> {
    const binance = trade.decision?.binance ?? this.deps.prices.latestTick(trade.symbol)?.binance;
    if (!binance) return { check: { ok: false, reason: 'no Binance price to size the order', mirror: false } };
    try {
      const account = await this.deps.account(trade.userId);
      const figures = await this.figureCache.figures(trade.userId, trade.symbol, account);
      const binancePrice = trade.direction === 'deriv-rich' ? binance.ask : binance.bid;
      const check = sizeAndCheck(
        { symbol: trade.symbol, direction: trade.direction, notional: money(trade.notional), binancePrice },
        figures.binance,
        figures.deriv,
        // an automated trade is sized to what the balances fund; a manual one keeps the size the user asked for
        trade.origin === 'auto' ? { minNotional: this.deps.params.minNotional } : null,
      );
      return { check, account };
    } catch (error) {
      const reason = `the venues' balances and limits could not be read: ${messageOf(error)}`;
      return { check: { ok: false, reason, mirror: false } };
    }
  }

  private async insertAndPlace(trade: NewTrade, account?: VenueAccount): Promise<Trade | null> {
    try {
      return await this.executor.open(trade, account);
    } catch (error) {
      // The write-ahead insert failed: nothing was placed, so the exposure is released at once.
      this.deps.logger().error({ err: error, tradeId: trade.tradeId }, 'could not record a new trade; not placed');
      this.execute(this.deps.core.onEnded(trade.tradeId, { status: 'cancelled', profit: money(0), reason: null }));
      return null;
    }
  }

  private async readRealised(userId: string, seq: number): Promise<void> {
    const { core } = this.deps;
    try {
      const window = await this.deps.users.realisedWindow(userId);
      const realised = { current: money(window.current), peak: money(window.peak) };
      this.execute(core.realisedRead(userId, seq, realised, window.failedInARow));
    } catch (error) {
      this.deps
        .logger()
        .error({ err: error, userId }, 'could not read the realised P&L; the user does not trade until it is read');
      const timer = setTimeout(() => this.execute(core.realisedReadFailed(userId)), 2_000);
      timer.unref();
    }
  }

  private ended(state: TradeState): void {
    this.positions.unwatch(state.tradeId);
    if (state.reason === ENGINE_BUSY && state.legs.every((l) => !l.open)) {
      // Dropped by the executor before its first order: the write-ahead row ends cancelled, the user is told why.
      this.shed(state.userId, state.tradeId, state.symbol);
      const outcome = outcomeOf(state.symbol, state.openSpread, 'engine_busy', ENGINE_BUSY, this.deps.now());
      this.emitOutcome(state.userId, outcome);
    }
    const status = state.stage === 'completed' || state.stage === 'failed' ? state.stage : 'cancelled';
    const profit = money(state.actualProfit);
    this.execute(this.deps.core.onEnded(state.tradeId, { status, profit, reason: state.reason }));
    this.wakeEndWaiters(state.userId);
  }

  /** The user of a trade was deleted while it ran: logged once with what is left on the venues, then let go. */
  private gone(state: TradeState): void {
    this.positions.unwatch(state.tradeId);
    const open = state.legs
      .filter((l) => l.open && !l.close)
      .map((l) => ({ venue: l.venue, side: l.side, quantity: l.open?.quantity, venueOrderId: l.venueOrderId }));
    this.deps
      .logger()
      .error(
        { event: 'trade_orphaned', tradeId: state.tradeId, userId: state.userId, openLegs: open },
        'the trade belongs to a deleted user; the engine stopped tracking it',
      );
    const end = { status: 'cancelled' as const, profit: money(0), reason: 'user deleted' };
    this.execute(this.deps.core.onEnded(state.tradeId, end));
    this.wakeEndWaiters(state.userId);
  }

  private wakeEndWaiters(userId: string): void {
    if (this.runsOf(userId) > 0) return;
    for (const wake of this.endWaiters.get(userId) ?? []) wake();
    this.endWaiters.delete(userId);
  }

  private positionClosed(tradeId: string, venue: VenueId, closed: PositionClosed): void {
    const state = this.executor.stateOf(tradeId);
    this.deps
      .logger()
      .warn(
        { event: 'stop_out', tradeId, userId: state?.userId, venue, reason: closed.reason, price: closed.fill.price },
        'the venue closed a leg; closing the other leg',
      );
    this.deps.core.markClosing(tradeId);
    // The stop-out's reason starts with the contract's words, then the venue's own (unless they are the same words).
    const prefix = CLOSE_REASONS['stop-out'];
    const reason = closed.reason.startsWith(prefix) ? closed.reason : `${prefix}: ${closed.reason}`;
    this.executor.venueClosed(tradeId, venue, closed.fill, reason);
  }

  private async stopTrading(userId: string, stop: EngineStop, reason: string): Promise<void> {
    const at = new Date(this.deps.now());
    try {
      await this.deps.users.stopTrading(userId, stop, reason);
    } catch (error) {
      this.deps.logger().error({ err: error, userId }, 'could not record that trading stopped');
    }
    const halted = stop === 'max-loss';
    this.deps
      .logger()
      .warn(
        { event: halted ? 'halt' : 'pause', userId, reason },
        halted ? 'trading halted: max loss reached' : 'trading paused after repeated failures',
      );
    this.deps.emit({
      type: SERVER_EVENTS.notice,
      userId,
      notice: {
        level: 'warning',
        message: noticeText(engineStatusOf({ stop, globalHalt: false, reason })),
        user: {
          tradingEnabled: false,
          tradingStop: stop,
          tradingPausedAt: at.toISOString(),
          tradingPauseReason: reason,
        },
      },
    });
    this.figureRefresh.request(userId);
  }

  private emitOutcome(userId: string, outcome: OpportunityOutcome): void {
    this.deps.emit({ type: SERVER_EVENTS.opportunityOutcome, userId, outcome });
  }
}

/**
 * The commands of one call with its opens rotated: on a burst a different user goes first each time (a stride of the
 * golden ratio spreads the starting points), so no user is always last in line for the venues. Other commands keep
 * their place.
 */
export function fairOrder(commands: Command[], burst: number): Command[] {
  const opens = commands.filter((c) => c.kind === 'open');
  if (opens.length < 2) return commands;
  const start = Math.floor(((burst * 0.6180339887) % 1) * opens.length);
  const rotated = [...opens.slice(start), ...opens.slice(0, start)];
  let next = 0;
  return commands.map((c) => (c.kind === 'open' ? (rotated[next++] as Command) : c));
}
