// The synchronous heart of the engine: per-user limits and exposure, the decision to open, the triggers that close,
// the maxLoss drawdown and the circuit breaker. It issues commands and is told their outcomes; it never awaits, so a
// tick is decided in one pass and the property tests (and a replay) can drive it with recorded or generated market
// paths and no real time.
import {
  SYMBOLS,
  type OpportunityOutcomeKind,
  type SymbolId,
  type TradeOrigin,
  type TradeStatus,
} from '../../contract/domain';
import type { OpportunityOutcome } from '../../contract/entities';
import type { EngineStop } from '../../contract/trading-state';
import { HALTED_MESSAGE as GLOBAL_HALT_MESSAGE } from '../../contract/guard';
import {
  activeBlock,
  newBreaker,
  recordFailure,
  recordSkip,
  recordSuccess,
  resetBreaker,
  type Breaker,
} from './circuit-breaker';
import { breakEvenFraction, openThreshold, type TradingParams } from './costs';
import { Money, money } from './decimal';
import { haltReason, maxLossReached, type RealisedWindow } from './drawdown';
import { OutcomeLimiter, outcomeOf } from './opportunity-outcomes';
import { directionOf, type Direction, type PriceTick } from './prices';
import { checkQuotes } from './quote-check';
import { SortedQueue } from './sorted-queue';
import { ThresholdIndex } from './threshold-index';
import type { NewTrade } from './trade-state';

/** Why the engine itself turned a user's trading off: the maxLoss drawdown, or repeated failed trades. */

const REALISED_PENDING = 'Your realised profit and loss is being updated; try again in a moment';
/** The stops the engine decides by itself (contract/trading-state.ts). */
export type StopKind = EngineStop;

export interface UserLimits {
  userId: string;
  /** USDT, decimal strings. */
  maxExposure: string;
  maxLoss: string;
  /** Fraction. */
  minSpread: number;
  /** Binance taker fee of the user's account, fraction. */
  takerFee: number;
  /** tradingEnabled: the engine opens trades for this user by itself. */
  autoTrade: boolean;
  /** Trading was turned off by the engine and the user has not enabled it again. */
  stopped: StopKind | null;
  /** When trading was last enabled (ms): the start of the maxLoss window; null = since the first trade. */
  windowStart: number | null;
}

export type Command =
  | { kind: 'open'; trade: NewTrade }
  | { kind: 'close'; tradeId: string; userId: string; reason: string; cancel: boolean }
  /** Persist the stop (tradingEnabled off, with its reason) and tell the user. */
  | { kind: 'stop'; userId: string; stop: StopKind; reason: string }
  /** Read the user's realised window from the finished trades and hand it back with `realisedRead(userId, seq, …)`. */
  | { kind: 'read-realised'; userId: string; seq: number }
  | { kind: 'outcome'; userId: string; outcome: OpportunityOutcome };

export type TrackedStage = 'opening' | 'open' | 'closing';

export interface TrackedTrade {
  id: string;
  tradeId: string;
  userId: string;
  symbol: SymbolId;
  direction: Direction;
  notional: Money;
  /** Spread in the trade's favour at open (positive). */
  openEdge: number;
  stage: TrackedStage;
  deadline: number;
}

interface UserBook {
  limits: UserLimits;
  maxExposure: Money;
  maxLoss: Money;
  threshold: number;
  committed: Money;
  /** From the database; null until first read, and opening waits while a newer read is pending. */
  realised: RealisedWindow | null;
  realisedSeq: number;
  readsIssued: number;
  readsPending: number;
  breaker: Breaker;
  trades: Map<string, TrackedTrade>;
  bySymbol: Map<SymbolId, string>;
}

/** How a trade ended, as the executor reports it. */
export interface TradeEnd {
  status: Extract<TradeStatus, 'completed' | 'failed' | 'cancelled'>;
  profit: Money;
  reason: string | null;
}

type Refusal = { ok: false; status: 400 | 404 | 409; message: string };
export type ManualResult = { ok: true; command: Extract<Command, { kind: 'open' }> } | Refusal;
export type CancelResult = { ok: true; command: Extract<Command, { kind: 'close' }> } | Refusal;

export interface CoreDeps {
  params: TradingParams;
  now: () => number;
  /** A fresh (row id, trade id) pair. */
  newIds: () => { id: string; tradeId: string };
}

const groupKey = (symbol: SymbolId, direction: Direction): string => `${symbol}|${direction}`;
/** The spread seen from a trade's side: positive while the trade's edge is still there. */
const edgeFor = (direction: Direction, spread: number): number => (direction === 'deriv-rich' ? spread : -spread);
const percent = (fraction: number): string => `${(fraction * 100).toFixed(2)} %`;

export class TradingCore {
  private readonly users = new Map<string, UserBook>();
  /**
   * The admin's global kill switch: while set, no trade is opened for anyone (automated or manual); trades already
   * open keep being closed as usual (convergence, stops, time limits), so exposure only shrinks.
   */
  private globalHalt = false;
  private readonly trades = new Map<string, TrackedTrade>();
  private readonly waiting = new Map<SymbolId, ThresholdIndex>(SYMBOLS.map((s) => [s, new ThresholdIndex()]));
  /** Open trades per symbol and direction: they all converge together. */
  private readonly convergeGroups = new Map<string, Set<string>>();
  /** Open trades per symbol and direction, by the edge at which their stop fires. */
  private readonly stops = new Map<string, SortedQueue<string>>();
  private readonly deadlines = new SortedQueue<string>();
  /** Users whose back-off on a symbol ends at a time: they wait outside the index until then. */
  private readonly blockEnds = new SortedQueue<string>();
  /** Whether each symbol's spread is above the lowest threshold anyone could open at (for the edge's outcomes). */
  private readonly edgeActive = new Map<SymbolId, boolean>();
  private readonly limiter: OutcomeLimiter;

  constructor(private readonly deps: CoreDeps) {
    this.limiter = new OutcomeLimiter(deps.params.outcomeEveryMs);
  }

  // ---- users ----

  upsertUser(limits: UserLimits): Command[] {
    const existing = this.users.get(limits.userId);
    const book: UserBook = existing ?? {
      limits,
      maxExposure: money(0),
      maxLoss: money(0),
      threshold: Infinity,
      committed: money(0),
      realised: null,
      realisedSeq: 0,
      readsIssued: 0,
      readsPending: 0,
      breaker: newBreaker(),
      trades: new Map(),
      bySymbol: new Map(),
    };
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
      const index = this.waiting.get(tick.symbol) as ThresholdIndex;
      for (const userId of index.peekUpTo(level))
        this.pushOutcome(commands, userId, tick.symbol, tick.spread, quotes.outcome, quotes.reason, now);
    }
    commands.push(...this.edgeOutcomes(tick, level, now, taken));
    return commands;
  }

  /** Trades past their hold limit, and back-offs that ended. Called on every tick and on a timer. */
  checkTimeLimits(now: number): Command[] {
    const commands: Command[] = [];
    for (const tradeId of this.deadlines.popUpTo(now)) {
      const trade = this.trades.get(tradeId);
      if (trade && trade.stage !== 'closing') commands.push(this.close(trade, 'time limit', false));
    }
    for (const userId of this.blockEnds.popUpTo(now)) {
      const book = this.users.get(userId);
      if (book) this.reindex(book);
    }
    return commands;
  }

  private closeTriggered(symbol: SymbolId, direction: Direction, edge: number): Command[] {
    const key = groupKey(symbol, direction);
    const commands: Command[] = [];
    const group = this.convergeGroups.get(key);
    if (group && group.size > 0 && edge <= this.deps.params.closeBand) {
      for (const tradeId of group) {
        const trade = this.trades.get(tradeId);
        if (trade?.stage === 'open') commands.push(this.close(trade, 'converged', false));
      }
      group.clear();
    }
    for (const tradeId of this.stops.get(key)?.popUpTo(edge) ?? []) {
      const trade = this.trades.get(tradeId);
      if (trade?.stage === 'open') commands.push(this.close(trade, 'stop: spread widened', false));
    }
    return commands;
  }

  private opensFor(tick: PriceTick, taken: Set<string>): Command[] {
    const spread = tick.spread as number;
    const index = this.waiting.get(tick.symbol) as ThresholdIndex;
    const level = Math.abs(spread);
    if (index.lowest() > level) return [];
    const commands: Command[] = [];
    // Everyone taken either opens now or cannot open on this symbol until something changes, which re-adds them.
    for (const userId of index.takeUpTo(level)) {
      const book = this.users.get(userId);
      if (!book || !this.canAutoOpen(book, tick.symbol)) continue;
      taken.add(userId);
      commands.push(this.open(book, tick, this.autoNotional(book), 'auto'));
    }
    return commands;
  }

  /**
   * When a symbol's spread first rises above the lowest threshold anyone could open at, every trading user who did
   * not take it is told why (below their minSpread, exposure full, paused, ...). Once per opportunity, so a tick
   * costs nothing extra for the users it does not trigger.
   */
  private edgeOutcomes(tick: PriceTick, level: number, now: number, taken: ReadonlySet<string>): Command[] {
    const floor = openThreshold(this.deps.params, 0, this.deps.params.defaultTakerFee);
    const active = level >= floor;
    const was = this.edgeActive.get(tick.symbol) ?? false;
    this.edgeActive.set(tick.symbol, active);
    if (!active || was) return [];
    const commands: Command[] = [];
    const spread = tick.spread as number;
    for (const book of this.users.values()) {
      if (taken.has(book.limits.userId)) continue;
      const skipped = this.whyNot(book, tick.symbol, level, now);
      if (skipped)
        this.pushOutcome(commands, book.limits.userId, tick.symbol, spread, skipped.outcome, skipped.reason, now);
    }
    return commands;
  }

  /** Why this user would not open on the symbol at this level; null when they would (or do not trade at all). */
  private whyNot(
    book: UserBook,
    symbol: SymbolId,
    level: number,
    now: number,
  ): { outcome: OpportunityOutcomeKind; reason: string } | null {
    const { stopped } = book.limits;
    if (stopped === 'max-loss') return { outcome: 'halted', reason: 'trading is stopped: max loss reached' };
    if (stopped === 'paused') return { outcome: 'paused', reason: 'trading is paused after repeated refusals' };
    if (!book.limits.autoTrade) return null;
    const block = activeBlock(book.breaker, symbol, now);
    if (block) return { outcome: block.outcome, reason: block.reason };
    if (book.bySymbol.has(symbol)) return { outcome: 'exposure_full', reason: `a ${symbol} trade is already open` };
    if (this.autoNotional(book).lt(this.deps.params.minNotional)) {
      return {
        outcome: 'exposure_full',
        reason: `open trades use ${book.committed.toFixed()} of your ${book.maxExposure.toFixed()} USDT max exposure`,
      };
    }
    if (book.threshold > level)
      return {
        outcome: 'below_min_spread',
        reason: `the spread of ${percent(level)} is below your threshold of ${percent(book.threshold)}`,
      };
    return null;
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
    if (this.limiter.allow(userId, symbol, kind, now))
      commands.push({ kind: 'outcome', userId, outcome: outcomeOf(symbol, spread, kind, reason, now) });
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
    const now = this.deps.now();
    if (this.globalHalt) return { ok: false, status: 409, message: GLOBAL_HALT_MESSAGE };
    if (book.limits.stopped === 'max-loss' || (book.realised && maxLossReached(book.realised, book.maxLoss))) {
      return {
        ok: false,
        status: 409,
        message: `Trading is stopped: your realised loss reached your max loss (${book.maxLoss.toFixed()} USDT). Save your trading settings to trade again.`,
      };
    }
    if (!this.realisedKnown(book.limits.userId)) return { ok: false, status: 409, message: REALISED_PENDING };
    if (notional.lt(this.deps.params.minNotional)) {
      return {
        ok: false,
        status: 400,
        message: `Amount must be at least ${this.deps.params.minNotional.toFixed()} USDT`,
      };
    }
    if (book.bySymbol.has(symbol)) {
      return { ok: false, status: 409, message: `You already have an open ${symbol} trade; wait until it closes` };
    }
    const remaining = book.maxExposure.minus(book.committed);
    if (notional.gt(remaining)) {
      return {
        ok: false,
        status: 409,
        message: `This trade would exceed your max exposure of ${book.maxExposure.toFixed()} USDT (open: ${book.committed.toFixed()} USDT)`,
      };
    }
    const block = activeBlock(book.breaker, symbol, now);
    if (block?.outcome === 'backing_off') {
      return {
        ok: false,
        status: 409,
        message: `The engine is backing off ${symbol} after a failed trade; try again in ${Math.ceil((block.until - now) / 1000)} s`,
      };
    }
    if (!tick || tick.spread === null) {
      return { ok: false, status: 409, message: `No ${symbol} prices from both venues yet; try again in a moment` };
    }
    const quotes = checkQuotes(tick.binance, tick.deriv, now, this.deps.params);
    if (!quotes.ok)
      return {
        ok: false,
        status: 409,
        message: `${symbol} prices cannot be traded right now: ${quotes.reason}; try again in a moment`,
      };
    return { ok: true, command: this.open(book, tick, notional, 'manual') };
  }

  cancel(userId: string, tradeId: string): CancelResult {
    const trade = this.trades.get(tradeId);
    if (!trade || trade.userId !== userId) return { ok: false, status: 404, message: 'Trade not found' };
    if (trade.stage === 'closing') return { ok: false, status: 409, message: 'The trade is already closing' };
    return { ok: true, command: this.close(trade, 'cancelled by user', true) };
  }

  /** Every unfinished trade of the user, closed and cancelled (an admin removing the account). */
  closeAllOf(userId: string, reason: string): Command[] {
    const book = this.users.get(userId);
    if (!book) return [];
    return [...book.trades.values()].filter((t) => t.stage !== 'closing').map((t) => this.close(t, reason, true));
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
      this.blockEnds.push(block.until, book.limits.userId);
      if (pause && book.limits.stopped === null)
        commands.push(...this.stop(book, 'paused', `${reason} (${book.breaker.failures} failed trades in a row)`));
    } else if (end.status === 'completed') {
      recordSuccess(book.breaker, trade.symbol);
    }
    this.reindex(book);
    this.forgetIfIdle(book);
    return commands;
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
      this.blockEnds.push(block.until, book.limits.userId);
    }
    const commands: Command[] = [];
    this.pushOutcome(commands, book.limits.userId, trade.symbol, spread, 'pretrade_failed', reason, now);
    this.reindex(book);
    this.forgetIfIdle(book);
    return commands;
  }

  /** The realised window read for `read-realised` number `seq`. May halt the user. */
  realisedRead(userId: string, seq: number, window: RealisedWindow): Command[] {
    const book = this.users.get(userId);
    if (!book) return [];
    book.readsPending = Math.max(0, book.readsPending - 1);
    if (seq >= book.realisedSeq) {
      book.realised = window;
      book.realisedSeq = seq;
    }
    const commands = this.haltIfReached(book);
    this.reindex(book);
    return commands;
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
      this.limiter.forget(book.limits.userId, SYMBOLS);
    }
  }

  // ---- internals ----

  private open(
    book: UserBook,
    tick: PriceTick,
    notional: Money,
    origin: TradeOrigin,
  ): Extract<Command, { kind: 'open' }> {
    const { id, tradeId } = this.deps.newIds();
    const now = this.deps.now();
    const spread = tick.spread as number;
    const direction = directionOf(spread);
    const trade: TrackedTrade = {
      id,
      tradeId,
      userId: book.limits.userId,
      symbol: tick.symbol,
      direction,
      notional,
      openEdge: Math.abs(spread),
      stage: 'opening',
      deadline: now + this.deps.params.maxHoldMs,
    };
    this.track(book, trade);
    this.reindex(book);
    const decision =
      tick.binance && tick.deriv
        ? {
            binance: { bid: tick.binance.bid, ask: tick.binance.ask },
            deriv: { bid: tick.deriv.bid, ask: tick.deriv.ask },
          }
        : undefined;
    return {
      kind: 'open',
      trade: {
        id,
        tradeId,
        userId: book.limits.userId,
        symbol: tick.symbol,
        direction,
        origin,
        notional: notional.toFixed(),
        openSpread: spread,
        createdAt: new Date(now),
        decision,
      },
    };
  }

  private track(book: UserBook, trade: TrackedTrade): void {
    this.trades.set(trade.tradeId, trade);
    book.trades.set(trade.tradeId, trade);
    book.bySymbol.set(trade.symbol, trade.tradeId);
    book.committed = book.committed.plus(trade.notional);
    this.deadlines.push(trade.deadline, trade.tradeId);
  }

  /** Forgets a finished (or never placed) trade and frees its exposure. */
  private release(tradeId: string): TrackedTrade | undefined {
    const trade = this.trades.get(tradeId);
    if (!trade) return undefined;
    this.trades.delete(tradeId);
    this.convergeGroups.get(groupKey(trade.symbol, trade.direction))?.delete(tradeId);
    const book = this.users.get(trade.userId);
    if (book) {
      book.trades.delete(tradeId);
      if (book.bySymbol.get(trade.symbol) === tradeId) book.bySymbol.delete(trade.symbol);
      book.committed = book.committed.minus(trade.notional);
    }
    return trade;
  }

  private watchForClose(trade: TrackedTrade): void {
    const key = groupKey(trade.symbol, trade.direction);
    let group = this.convergeGroups.get(key);
    if (!group) this.convergeGroups.set(key, (group = new Set()));
    group.add(trade.tradeId);
    let stops = this.stops.get(key);
    if (!stops) this.stops.set(key, (stops = new SortedQueue()));
    stops.push(trade.openEdge + this.deps.params.stopWidening, trade.tradeId);
  }

  private close(trade: TrackedTrade, reason: string, cancel: boolean): Extract<Command, { kind: 'close' }> {
    trade.stage = 'closing';
    return { kind: 'close', tradeId: trade.tradeId, userId: trade.userId, reason, cancel };
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
        if (trade.stage !== 'closing') commands.push(this.close(trade, 'max loss reached', true));
    }
    return commands;
  }

  private autoNotional(book: UserBook): Money {
    const { minNotional, perTradeExposureFraction } = this.deps.params;
    const perTrade = Money.max(book.maxExposure.times(perTradeExposureFraction), minNotional);
    return Money.min(perTrade, book.maxExposure.minus(book.committed)).toDecimalPlaces(2, Money.ROUND_DOWN);
  }

  private canAutoOpen(book: UserBook, symbol: SymbolId): boolean {
    if (!book.limits.autoTrade || book.limits.stopped !== null) return false;
    if (book.realised === null || book.readsPending > 0 || maxLossReached(book.realised, book.maxLoss)) return false;
    if (book.bySymbol.has(symbol) || activeBlock(book.breaker, symbol, this.deps.now())) return false;
    return this.autoNotional(book).gte(this.deps.params.minNotional);
  }

  /** Puts the user back in every symbol's waiting list where they could open now, and out of the others. */
  private reindex(book: UserBook): void {
    for (const symbol of SYMBOLS) {
      const index = this.waiting.get(symbol) as ThresholdIndex;
      if (this.canAutoOpen(book, symbol)) index.upsert(book.limits.userId, book.threshold);
      else index.remove(book.limits.userId);
    }
  }

  /** For diagnostics: the break-even fraction for a fee. */
  breakEven(takerFee: number): number {
    return breakEvenFraction(this.deps.params, takerFee);
  }
}
