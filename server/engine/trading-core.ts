// The synchronous heart of the engine: per-user limits and exposure, the decision to open, the triggers that close,
// the maxLoss drawdown and the circuit breaker. It issues commands and is told their outcomes; it never awaits, so a
// tick is decided in one pass and the property tests (and a replay) can drive it with recorded or generated market
// paths and no real time.
import type { OpportunityOutcomeKind, SymbolId, TradeOrigin } from '../../contract/domain';
import { enabledSymbols } from '../venues/enabled-pairs';
import { CLOSE_REASONS } from '../../contract/trade-life';
import { recordBusy, recordFailure, recordSkip, recordSuccess, resetBreaker, restoreBreaker } from './circuit-breaker';
import { CloseTriggers } from './close-triggers';
import type { CancelResult, Command, CoreDeps, ManualResult, StopKind, TradeEnd } from './commands';
import { openThreshold } from './costs';
import { ENGINE_BUSY, sendDeadline } from './deadline';
import { money, type Money } from './decimal';
import { haltReason, maxLossReached, type RealisedWindow } from './drawdown';
import { OutcomeReporter } from './opportunity-outcomes';
import type { StoredFailure } from './ports';
import type { Direction, PriceTick } from './prices';
import { checkQuotes } from './quote-check';
import {
  autoNotional,
  canAutoOpen,
  decideTrade,
  manualRefusal,
  newBook,
  REALISED_PENDING,
  whyNot,
  type TrackedTrade,
  type UserBook,
  type UserLimits,
} from './user-book';
import { WaitingLines } from './waiting-lines';

export type { TrackedStage, TrackedTrade, UserLimits } from './user-book';
export type { Command, TradeEnd, ManualResult, CancelResult, CoreDeps, StopKind } from './commands';

/** The spread seen from a trade's side: positive while the trade's edge is still there. */
const edgeFor = (direction: Direction, spread: number): number => (direction === 'deriv-rich' ? spread : -spread);

export class TradingCore {
  private readonly users = new Map<string, UserBook>();
  /**
   * The admin's global kill switch: while set, no trade is opened for anyone (automated or manual); trades already
   * open keep being closed as usual (convergence, stops, time limits), so exposure only shrinks.
   */
  private globalHalt = false;
  private readonly trades = new Map<string, TrackedTrade>();
  private readonly waiting: WaitingLines;
  private readonly triggers: CloseTriggers;
  private readonly outcomes: OutcomeReporter;

  constructor(private readonly deps: CoreDeps) {
    const floor = openThreshold(deps.params, 0, deps.params.defaultTakerFee);
    this.outcomes = new OutcomeReporter(deps.params.outcomeEveryMs, floor);
    this.waiting = new WaitingLines(deps.params);
    this.triggers = new CloseTriggers(deps.params.closeBand, deps.params.stopWidening);
  }

  // ---- users ----

  upsertUser(limits: UserLimits): Command[] {
    const existing = this.users.get(limits.userId);
    const book: UserBook = existing ?? newBook(limits);
    // Enabling trading starts a new window (the settings route stamps tradingEnabledAt); only that lifts a stop. A stop
    // decided here holds even against a read of the settings made before it was saved.
    const sameWindow = existing !== undefined && existing.limits.windowStart === limits.windowStart;
    const stopped = sameWindow && existing.limits.stopped !== null ? existing.limits.stopped : limits.stopped;
    const resumed = existing !== undefined && existing.limits.stopped !== null && stopped === null;
    const newWindow = !sameWindow;
    book.limits = { ...limits, stopped, autoTrade: limits.autoTrade && stopped === null };
    book.maxExposure = money(limits.maxExposure);
    book.maxLoss = money(limits.maxLoss);
    book.threshold = openThreshold(this.deps.params, limits.minSpread, limits.takerFee);
    if (resumed) resetBreaker(book.breaker);
    this.users.set(limits.userId, book);
    const commands: Command[] = newWindow ? [this.readRealised(book)] : [];
    commands.push(...this.haltIfReached(book));
    this.reindex(book);
    return commands;
  }

  /** Stops automatic trading for the user; open trades run to their normal close. */
  removeUser(userId: string): void {
    const book = this.users.get(userId);
    if (!book) return;
    book.limits = { ...book.limits, autoTrade: false };
    this.reindex(book);
    this.forgetIfIdle(book);
  }

  hasUser(userId: string): boolean {
    return this.users.has(userId);
  }

  /** Whether the user's realised window is known and current (a manual trade waits for it). */
  realisedKnown(userId: string): boolean {
    const book = this.users.get(userId);
    return book !== undefined && book.realised !== null && book.readsPending === 0;
  }

  /** Notional of the user's trades that are not finished (opening, open or closing). */
  committedOf(userId: string): Money {
    return this.users.get(userId)?.committed ?? money(0);
  }

  realisedOf(userId: string): RealisedWindow | null {
    return this.users.get(userId)?.realised ?? null;
  }

  stoppedOf(userId: string): StopKind | null {
    return this.users.get(userId)?.limits.stopped ?? null;
  }

  trade(tradeId: string): TrackedTrade | undefined {
    return this.trades.get(tradeId);
  }

  openTrades(): TrackedTrade[] {
    return [...this.trades.values()];
  }

  tradesOf(userId: string): TrackedTrade[] {
    return [...(this.users.get(userId)?.trades.values() ?? [])];
  }

  /** The lowest |spread| at which a user waiting on the symbol would open; Infinity when nobody waits. */
  lowestOpenThreshold(symbol: SymbolId): number {
    return this.waiting.line(symbol).lowest();
  }

  /** Whether a trade on the symbol is unfinished (its closes are decided on every tick). */
  hasTradesOn(symbol: SymbolId): boolean {
    for (const trade of this.trades.values()) if (trade.symbol === symbol) return true;
    return false;
  }

  setGlobalHalt(halted: boolean): void {
    this.globalHalt = halted;
  }

  get globallyHalted(): boolean {
    return this.globalHalt;
  }

  // ---- market ----

  /** Everything one price tick decides: closes first (they free exposure), then time limits, then opens. */
  onTick(tick: PriceTick): Command[] {
    const now = this.deps.now();
    const commands = this.checkTimeLimits(tick.at || now);
    if (tick.spread === null) return commands;
    for (const direction of ['deriv-rich', 'binance-rich'] as const) {
      commands.push(...this.closeTriggered(tick.symbol, direction, edgeFor(direction, tick.spread)));
    }
    const level = Math.abs(tick.spread);
    const quotes = checkQuotes(tick.binance, tick.deriv, now, this.deps.params);
    const taken = new Set<string>();
    // Halted: the users stay in line (opensFor is not asked), so trading resumes exactly where it was.
    if (this.globalHalt) return commands;
    if (quotes.ok) commands.push(...this.opensFor(tick, taken));
    else {
      // Nobody opens on a stale or torn pair; those who would have are told why (and stay in line).
      const index = this.waiting.line(tick.symbol);
      for (const userId of index.peekUpTo(level))
        this.pushOutcome(commands, userId, tick.symbol, tick.spread, quotes.outcome, quotes.reason, now);
    }
    commands.push(...this.edgeOutcomes(tick, level, now, taken));
    return commands;
  }

  /** Trades past their hold limit, and back-offs that ended. Called on every tick and on a timer. */
  checkTimeLimits(now: number): Command[] {
    const commands: Command[] = [];
    for (const tradeId of this.triggers.expired(now)) {
      const trade = this.trades.get(tradeId);
      if (trade && trade.stage !== 'closing') commands.push(this.close(trade, CLOSE_REASONS['time-limit']));
    }
    for (const userId of this.waiting.backoffsEnded(now)) {
      const book = this.users.get(userId);
      if (book) this.reindex(book);
    }
    return commands;
  }

  private closeTriggered(symbol: SymbolId, direction: Direction, edge: number): Command[] {
    const commands: Command[] = [];
    const { converged, stopped } = this.triggers.fired(symbol, direction, edge);
    const closeOpen = (ids: string[], reason: string) => {
      for (const tradeId of ids) {
        const trade = this.trades.get(tradeId);
        if (trade?.stage === 'open') commands.push(this.close(trade, reason));
      }
    };
    closeOpen(converged, CLOSE_REASONS.converged);
    closeOpen(stopped, CLOSE_REASONS.stop);
    return commands;
  }

  private opensFor(tick: PriceTick, taken: Set<string>): Command[] {
    const spread = tick.spread as number;
    const index = this.waiting.line(tick.symbol);
    const level = Math.abs(spread);
    if (index.lowest() > level) return [];
    const commands: Command[] = [];
    // Everyone taken either opens now or cannot open on this symbol until something changes, which re-adds them.
    for (const userId of index.takeUpTo(level)) {
      const book = this.users.get(userId);
      if (!book || !canAutoOpen(book, tick.symbol, this.deps.now(), this.deps.params)) continue;
      taken.add(userId);
      commands.push(this.open(book, tick, autoNotional(book, this.deps.params), 'auto'));
    }
    return commands;
  }

  /** Every trading user who did not take a rising opportunity is told why (opportunity-outcomes.ts). */
  private edgeOutcomes(tick: PriceTick, level: number, now: number, taken: ReadonlySet<string>): Command[] {
    if (!this.outcomes.rising(tick.symbol, level)) return [];
    const commands: Command[] = [];
    const spread = tick.spread as number;
    for (const book of this.users.values()) {
      if (taken.has(book.limits.userId)) continue;
      const skipped = whyNot(book, tick.symbol, level, now, this.deps.params);
      if (skipped)
        this.pushOutcome(commands, book.limits.userId, tick.symbol, spread, skipped.outcome, skipped.reason, now);
    }
    return commands;
  }

  private pushOutcome(
    commands: Command[],
    userId: string,
    symbol: SymbolId,
    spread: number,
    kind: OpportunityOutcomeKind,
    reason: string,
    now: number,
  ): void {
    const outcome = this.outcomes.outcome(userId, symbol, spread, kind, reason, now);
    if (outcome) commands.push({ kind: 'outcome', userId, outcome });
  }

  // ---- requests ----

  /**
   * A manual trade: the same limits as an automated one (maxLoss, exposure, one trade per symbol, fresh quotes, the
   * back-off after a failure), without the spread threshold: the user asked for it. The user's realised window must
   * be known (realisedKnown).
   */
  manualOpen(limits: UserLimits, symbol: SymbolId, notional: Money, tick: PriceTick | undefined): ManualResult {
    const book = this.users.get(limits.userId);
    // Unknown here means the read of the realised window was never asked for (the caller upserts first); creating the
    // book now would drop that read and leave the user refused for good.
    if (!book) return { ok: false, status: 409, message: REALISED_PENDING };
    const context = {
      now: this.deps.now(),
      globalHalt: this.globalHalt,
      realisedKnown: this.realisedKnown(limits.userId),
      params: this.deps.params,
    };
    const refused = manualRefusal(book, { symbol, notional, tick }, context);
    if (refused) return refused;
    return { ok: true, command: this.open(book, tick as PriceTick, notional, 'manual') };
  }

  cancel(userId: string, tradeId: string): CancelResult {
    const trade = this.trades.get(tradeId);
    if (!trade || trade.userId !== userId) return { ok: false, status: 404, message: 'Trade not found' };
    if (trade.stage === 'closing') return { ok: false, status: 409, message: 'The trade is already closing' };
    return { ok: true, command: this.close(trade, CLOSE_REASONS['by-you']) };
  }

  /** Every unfinished trade of the user, closed and cancelled (an admin removing the account). */
  closeAllOf(userId: string, reason: string): Command[] {
    const book = this.users.get(userId);
    if (!book) return [];
    return [...book.trades.values()].filter((t) => t.stage !== 'closing').map((t) => this.close(t, reason));
  }

  // ---- outcomes ----

  /** Registers a trade that exists already (crash recovery): it counts against exposure like any other. */
  adopt(trade: Omit<TrackedTrade, 'notional'> & { notional: string }, limits: UserLimits): Command[] {
    const commands = this.users.has(limits.userId) ? [] : this.upsertUser(limits);
    const book = this.users.get(limits.userId) as UserBook;
    const tracked: TrackedTrade = { ...trade, notional: money(trade.notional) };
    this.track(book, tracked);
    if (tracked.stage === 'open') this.watchForClose(tracked);
    this.reindex(book);
    return commands;
  }

  onOpened(tradeId: string): void {
    const trade = this.trades.get(tradeId);
    if (!trade || trade.stage !== 'opening') return;
    trade.stage = 'open';
    this.watchForClose(trade);
  }

  /** The venue closed a leg by itself (a stop-out): the trade is closing already, nothing may close it again. */
  markClosing(tradeId: string): void {
    const trade = this.trades.get(tradeId);
    if (trade) trade.stage = 'closing';
  }

  /**
   * A trade reached completed, cancelled or failed. Failures feed the circuit breaker (back-off, then a pause); the
   * realised window is read again from the database before the user opens anything else.
   */
  onEnded(tradeId: string, end: TradeEnd): Command[] {
    const trade = this.release(tradeId);
    if (!trade) return [];
    const book = this.users.get(trade.userId);
    if (!book) return [];
    const commands: Command[] = [this.readRealised(book)];
    const now = this.deps.now();
    if (end.status === 'failed') {
      const reason = end.reason ?? 'a leg could not be placed';
      const { block, pause } = recordFailure(book.breaker, trade.symbol, now, this.deps.params, reason);
      this.waiting.backOff(book.limits.userId, block.until);
      if (pause && book.limits.stopped === null)
        commands.push(...this.stop(book, 'paused', `${reason} (${book.breaker.failures} failed trades in a row)`));
    } else if (end.status === 'completed') {
      recordSuccess(book.breaker, trade.symbol);
    }
    this.reindex(book);
    this.forgetIfIdle(book);
    return commands;
  }

  /** A decided trade opens smaller, at what the balances fund: its exposure is what it now holds. */
  resized(tradeId: string, notional: Money): void {
    const trade = this.trades.get(tradeId);
    const book = trade && this.users.get(trade.userId);
    if (!trade || !book) return;
    book.committed = book.committed.minus(trade.notional).plus(notional);
    trade.notional = notional;
    this.reindex(book);
  }

  /**
   * A pre-trade check refused a decided trade before anything was written or sent: nothing opened. An automated one
   * waits a while before the symbol is tried again; a manual one was the user's to ask.
   */
  onSkipped(tradeId: string, reason: string, spread: number, cooldown = true): Command[] {
    const trade = this.release(tradeId);
    if (!trade) return [];
    const book = this.users.get(trade.userId);
    if (!book) return [];
    const now = this.deps.now();
    if (cooldown) {
      const block = recordSkip(book.breaker, trade.symbol, now, this.deps.params, `pre-trade check: ${reason}`);
      this.waiting.backOff(book.limits.userId, block.until);
    }
    const commands: Command[] = [];
    this.pushOutcome(commands, book.limits.userId, trade.symbol, spread, 'pretrade_failed', reason, now);
    this.reindex(book);
    this.forgetIfIdle(book);
    return commands;
  }

  /**
   * A decided trade missed its deadline before any order left (the engine was busy): nothing opened, no back-off, and
   * the user is back in line for the next tick's fresh decision.
   */
  onBusy(tradeId: string, spread: number): Command[] {
    const trade = this.release(tradeId);
    if (!trade) return [];
    const book = this.users.get(trade.userId);
    if (!book) return [];
    const commands: Command[] = [];
    const now = this.deps.now();
    this.pushOutcome(commands, book.limits.userId, trade.symbol, spread, 'engine_busy', ENGINE_BUSY, now);
    // Not decided again on every tick while the engine is behind (that would feed the load it sheds): the next
    // decision waits for Deriv's next quote.
    const block = recordBusy(book.breaker, trade.symbol, now + this.deps.params.derivQuoteEveryMs, ENGINE_BUSY);
    this.waiting.backOff(book.limits.userId, block.until);
    this.reindex(book);
    this.forgetIfIdle(book);
    return commands;
  }

  /**
   * The realised window read for `read-realised` number `seq`. May halt the user. The first read that is the newest
   * issued also restores the circuit breaker from the stored failures (no trade ended since it was asked, so they
   * include every failure counted here): a restart neither forgets failures in a row nor a back-off.
   */
  realisedRead(userId: string, seq: number, window: RealisedWindow, failedInARow?: StoredFailure[]): Command[] {
    const book = this.users.get(userId);
    if (!book) return [];
    book.readsPending = Math.max(0, book.readsPending - 1);
    if (seq >= book.realisedSeq) {
      book.realised = window;
      book.realisedSeq = seq;
    }
    const commands = this.haltIfReached(book);
    if (failedInARow && !book.breaker.restored && seq === book.readsIssued)
      commands.push(...this.restoreBreaker(book, failedInARow));
    this.reindex(book);
    return commands;
  }

  private restoreBreaker(book: UserBook, failedInARow: StoredFailure[]): Command[] {
    const { blocks, pause } = restoreBreaker(book.breaker, failedInARow, this.deps.now(), this.deps.params);
    for (const block of blocks) this.waiting.backOff(book.limits.userId, block.until);
    const last = failedInARow.at(-1);
    if (!pause || !last || book.limits.stopped !== null) return [];
    return this.stop(book, 'paused', `${last.reason} (${book.breaker.failures} failed trades in a row)`);
  }

  /** A read of the realised window failed: asked again, and the user does not open until it arrives. */
  realisedReadFailed(userId: string): Command[] {
    const book = this.users.get(userId);
    if (!book) return [];
    book.readsPending = Math.max(0, book.readsPending - 1);
    return [this.readRealised(book)];
  }

  /** A user who neither trades automatically nor has a trade is dropped; a stopped one is kept, so the stop holds. */
  private forgetIfIdle(book: UserBook): void {
    if (!book.limits.autoTrade && book.limits.stopped === null && book.trades.size === 0) {
      this.users.delete(book.limits.userId);
      this.outcomes.forget(book.limits.userId, enabledSymbols());
    }
  }

  // ---- internals ----

  private open(
    book: UserBook,
    tick: PriceTick,
    notional: Money,
    origin: TradeOrigin,
  ): Extract<Command, { kind: 'open' }> {
    const ids = this.deps.newIds();
    const { params } = this.deps;
    const sendBy = tick.binance && tick.deriv ? sendDeadline(tick.binance, tick.deriv, params) : undefined;
    const decided = decideTrade(book, tick, notional, origin, ids, this.deps.now(), params.maxHoldMs, sendBy);
    this.track(book, decided.tracked);
    this.reindex(book);
    return { kind: 'open', trade: decided.trade };
  }

  private track(book: UserBook, trade: TrackedTrade): void {
    this.trades.set(trade.tradeId, trade);
    book.trades.set(trade.tradeId, trade);
    book.bySymbol.set(trade.symbol, trade.tradeId);
    book.committed = book.committed.plus(trade.notional);
    this.triggers.addDeadline(trade.tradeId, trade.deadline);
  }

  /** Forgets a finished (or never placed) trade and frees its exposure. */
  private release(tradeId: string): TrackedTrade | undefined {
    const trade = this.trades.get(tradeId);
    if (!trade) return undefined;
    this.trades.delete(tradeId);
    this.triggers.forget(trade);
    const book = this.users.get(trade.userId);
    if (book) {
      book.trades.delete(tradeId);
      if (book.bySymbol.get(trade.symbol) === tradeId) book.bySymbol.delete(trade.symbol);
      book.committed = book.committed.minus(trade.notional);
    }
    return trade;
  }

  private watchForClose(trade: TrackedTrade): void {
    this.triggers.watch(trade);
  }

  private close(trade: TrackedTrade, reason: string): Extract<Command, { kind: 'close' }> {
    trade.stage = 'closing';
    return { kind: 'close', tradeId: trade.tradeId, userId: trade.userId, reason };
  }

  private readRealised(book: UserBook): Command {
    book.readsIssued += 1;
    book.readsPending += 1;
    return { kind: 'read-realised', userId: book.limits.userId, seq: book.readsIssued };
  }

  private haltIfReached(book: UserBook): Command[] {
    if (book.readsPending > 0 || !book.realised || book.limits.stopped === 'max-loss') return [];
    if (!maxLossReached(book.realised, book.maxLoss)) return [];
    // Only a user who trades (or has trades open) is halted; the figure of one who does not is just read.
    if (!book.limits.autoTrade && book.trades.size === 0) return [];
    return this.stop(book, 'max-loss', haltReason(book.realised, book.maxLoss));
  }

  private stop(book: UserBook, stop: StopKind, reason: string): Command[] {
    book.limits = { ...book.limits, autoTrade: false, stopped: stop };
    this.reindex(book);
    const commands: Command[] = [{ kind: 'stop', userId: book.limits.userId, stop, reason }];
    // A halt also closes what is open; a pause lets open trades run to their normal close.
    if (stop === 'max-loss') {
      for (const trade of book.trades.values())
        if (trade.stage !== 'closing') commands.push(this.close(trade, CLOSE_REASONS['max-loss']));
    }
    return commands;
  }

  /** Puts the user back in every symbol's line where they could open now, and out of the others. */
  private reindex(book: UserBook): void {
    this.waiting.place(book, this.deps.now());
  }
}
