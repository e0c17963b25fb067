// The synchronous heart of the engine: per-user limits and exposure, the decision to open, and the triggers that
// close. It issues commands and is told their outcomes; it never awaits, so a tick is decided in one pass and the
// property tests can drive it with generated market paths and no real time.
import { SYMBOLS, type SymbolId } from '../../contract/domain';
import { breakEvenFraction, openThreshold, type TradingParams } from './costs';
import { Money, money } from './decimal';
import { directionOf, type Direction, type PriceTick } from './prices';
import { SortedQueue } from './sorted-queue';
import { ThresholdIndex } from './threshold-index';
import type { NewTrade } from './trade-state';

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
  /** Trading was stopped at maxLoss and the user has not enabled it again. */
  halted: boolean;
  /** Realised profit (negative: loss) counted against maxLoss, when known (on load and after a re-enable). */
  realisedPnl?: string;
}

export type Command =
  | { kind: 'open'; trade: NewTrade }
  | { kind: 'close'; tradeId: string; userId: string; reason: string; cancel: boolean }
  | { kind: 'halt'; userId: string; realisedPnl: string; maxLoss: string };

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
  realised: Money;
  trades: Map<string, TrackedTrade>;
  bySymbol: Map<SymbolId, string>;
}

export type ManualResult = { ok: true; command: Extract<Command, { kind: 'open' }> } | { ok: false; status: 400 | 404 | 409; message: string };
export type CancelResult = { ok: true; command: Extract<Command, { kind: 'close' }> } | { ok: false; status: 400 | 404 | 409; message: string };

export interface CoreDeps {
  params: TradingParams;
  now: () => number;
  /** A fresh (row id, trade id) pair. */
  newIds: () => { id: string; tradeId: string };
}

const groupKey = (symbol: SymbolId, direction: Direction): string => `${symbol}|${direction}`;
/** The spread seen from a trade's side: positive while the trade's edge is still there. */
const edgeFor = (direction: Direction, spread: number): number => (direction === 'deriv-rich' ? spread : -spread);

export class TradingCore {
  private readonly users = new Map<string, UserBook>();
  private readonly trades = new Map<string, TrackedTrade>();
  private readonly waiting = new Map<SymbolId, ThresholdIndex>(SYMBOLS.map((s) => [s, new ThresholdIndex()]));
  /** Open trades per symbol and direction: they all converge together. */
  private readonly convergeGroups = new Map<string, Set<string>>();
  /** Open trades per symbol and direction, by the edge at which their stop fires. */
  private readonly stops = new Map<string, SortedQueue<string>>();
  private readonly deadlines = new SortedQueue<string>();

  constructor(private readonly deps: CoreDeps) {}

  // ---- users ----

  upsertUser(limits: UserLimits): Command[] {
    const existing = this.users.get(limits.userId);
    const book: UserBook = existing ?? {
      limits,
      maxExposure: money(0),
      maxLoss: money(0),
      threshold: Infinity,
      committed: money(0),
      realised: money(0),
      trades: new Map(),
      bySymbol: new Map(),
    };
    // The stored figure is taken when the user first appears and when trading resumes after a halt (a new loss
    // window); otherwise the in-memory sum is current, and re-reading the database could count a trade twice.
    const newWindow = !existing || (existing.limits.halted && !limits.halted);
    book.limits = limits;
    book.maxExposure = money(limits.maxExposure);
    book.maxLoss = money(limits.maxLoss);
    book.threshold = openThreshold(this.deps.params, limits.minSpread, limits.takerFee);
    if (limits.realisedPnl !== undefined && newWindow) book.realised = money(limits.realisedPnl);
    this.users.set(limits.userId, book);
    this.reindex(book);
    return this.lossReached(book) && !limits.halted ? this.halt(book) : [];
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

  /** Notional of the user's trades that are not finished (opening, open or closing). */
  committedOf(userId: string): Money {
    return this.users.get(userId)?.committed ?? money(0);
  }

  realisedOf(userId: string): Money {
    return this.users.get(userId)?.realised ?? money(0);
  }

  isHalted(userId: string): boolean {
    return this.users.get(userId)?.limits.halted ?? false;
  }

  trade(tradeId: string): TrackedTrade | undefined {
    return this.trades.get(tradeId);
  }

  openTrades(): TrackedTrade[] {
    return [...this.trades.values()];
  }

  // ---- market ----

  /** Everything one price tick decides: closes first (they free exposure), then time limits, then opens. */
  onTick(tick: PriceTick): Command[] {
    const commands = this.checkTimeLimits(tick.at || this.deps.now());
    if (tick.spread === null) return commands;
    for (const direction of ['deriv-rich', 'binance-rich'] as const) {
      commands.push(...this.closeTriggered(tick.symbol, direction, edgeFor(direction, tick.spread)));
    }
    commands.push(...this.opensFor(tick));
    return commands;
  }

  /** Trades past their hold limit. Called on every tick and on a timer, so a silent market still closes them. */
  checkTimeLimits(now: number): Command[] {
    const commands: Command[] = [];
    for (const tradeId of this.deadlines.popUpTo(now)) {
      const trade = this.trades.get(tradeId);
      if (trade && trade.stage !== 'closing') commands.push(this.close(trade, 'time limit', false));
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

  private opensFor(tick: PriceTick): Command[] {
    const spread = tick.spread as number;
    const index = this.waiting.get(tick.symbol) as ThresholdIndex;
    const level = Math.abs(spread);
    if (index.lowest() > level) return [];
    const commands: Command[] = [];
    // Everyone taken either opens now or cannot open on this symbol until something changes, which re-adds them.
    for (const userId of index.takeUpTo(level)) {
      const book = this.users.get(userId);
      if (!book || !this.canAutoOpen(book, tick.symbol)) continue;
      const notional = this.autoNotional(book);
      commands.push(this.open(book, tick.symbol, directionOf(spread), notional, spread, 'auto'));
    }
    return commands;
  }

  // ---- requests ----

  /** A manual trade: same limits as an automated one, without the spread threshold (the user asked for it). */
  manualOpen(limits: UserLimits, symbol: SymbolId, notional: Money, tick: PriceTick | undefined): ManualResult {
    if (!this.users.has(limits.userId)) this.upsertUser(limits);
    const book = this.users.get(limits.userId) as UserBook;
    if (book.limits.halted || this.lossReached(book)) {
      return { ok: false, status: 409, message: `Trading is stopped: your realised loss reached your max loss (${book.maxLoss.toFixed()} USDT). Save your trading settings to trade again.` };
    }
    if (notional.lt(this.deps.params.minNotional)) {
      return { ok: false, status: 400, message: `Amount must be at least ${this.deps.params.minNotional.toFixed()} USDT` };
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
    if (!tick || tick.spread === null) {
      return { ok: false, status: 409, message: `No ${symbol} prices from both venues yet; try again in a moment` };
    }
    return { ok: true, command: this.open(book, symbol, directionOf(tick.spread), notional, tick.spread, 'manual') };
  }

  cancel(userId: string, tradeId: string): CancelResult {
    const trade = this.trades.get(tradeId);
    if (!trade || trade.userId !== userId) return { ok: false, status: 404, message: 'Trade not found' };
    if (trade.stage === 'closing') return { ok: false, status: 409, message: 'The trade is already closing' };
    return { ok: true, command: this.close(trade, 'cancelled by user', true) };
  }

  // ---- outcomes ----

  /** Registers a trade that exists already (crash recovery): it counts against exposure like any other. */
  adopt(trade: Omit<TrackedTrade, 'notional'> & { notional: string }, limits: UserLimits): void {
    if (!this.users.has(limits.userId)) this.upsertUser(limits);
    const book = this.users.get(limits.userId) as UserBook;
    const tracked: TrackedTrade = { ...trade, notional: money(trade.notional) };
    this.track(book, tracked);
    if (tracked.stage === 'open') this.watchForClose(tracked);
  }

  onOpened(tradeId: string): void {
    const trade = this.trades.get(tradeId);
    if (!trade || trade.stage !== 'opening') return;
    trade.stage = 'open';
    this.watchForClose(trade);
  }

  /** A trade reached completed, cancelled or failed with this realised profit. May halt the user. */
  onEnded(tradeId: string, profit: Money): Command[] {
    const trade = this.trades.get(tradeId);
    if (!trade) return [];
    this.trades.delete(tradeId);
    this.convergeGroups.get(groupKey(trade.symbol, trade.direction))?.delete(tradeId);
    const book = this.users.get(trade.userId);
    if (!book) return [];
    book.trades.delete(tradeId);
    if (book.bySymbol.get(trade.symbol) === tradeId) book.bySymbol.delete(trade.symbol);
    book.committed = book.committed.minus(trade.notional);
    book.realised = book.realised.plus(profit);
    if (this.lossReached(book) && !book.limits.halted) return this.halt(book);
    this.reindex(book);
    this.forgetIfIdle(book);
    return [];
  }

  /** A user who neither trades automatically nor has a trade is dropped; a halted one is kept, so the halt holds. */
  private forgetIfIdle(book: UserBook): void {
    if (!book.limits.autoTrade && !book.limits.halted && book.trades.size === 0) this.users.delete(book.limits.userId);
  }

  // ---- internals ----

  private open(book: UserBook, symbol: SymbolId, direction: Direction, notional: Money, spread: number, origin: 'auto' | 'manual'): Extract<Command, { kind: 'open' }> {
    const { id, tradeId } = this.deps.newIds();
    const now = this.deps.now();
    const trade: TrackedTrade = {
      id,
      tradeId,
      userId: book.limits.userId,
      symbol,
      direction,
      notional,
      openEdge: Math.abs(spread),
      stage: 'opening',
      deadline: now + this.deps.params.maxHoldMs,
    };
    this.track(book, trade);
    this.reindex(book);
    return {
      kind: 'open',
      trade: { id, tradeId, userId: book.limits.userId, symbol, direction, origin, notional: notional.toFixed(), openSpread: spread, createdAt: new Date(now) },
    };
  }

  private track(book: UserBook, trade: TrackedTrade): void {
    this.trades.set(trade.tradeId, trade);
    book.trades.set(trade.tradeId, trade);
    book.bySymbol.set(trade.symbol, trade.tradeId);
    book.committed = book.committed.plus(trade.notional);
    this.deadlines.push(trade.deadline, trade.tradeId);
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

  private halt(book: UserBook): Command[] {
    book.limits = { ...book.limits, autoTrade: false, halted: true };
    this.reindex(book);
    const commands: Command[] = [
      { kind: 'halt', userId: book.limits.userId, realisedPnl: book.realised.toFixed(), maxLoss: book.maxLoss.toFixed() },
    ];
    for (const trade of book.trades.values()) {
      if (trade.stage !== 'closing') commands.push(this.close(trade, 'max loss reached', true));
    }
    return commands;
  }

  private lossReached(book: UserBook): boolean {
    return book.realised.isNegative() && book.realised.negated().gte(book.maxLoss);
  }

  private autoNotional(book: UserBook): Money {
    const { minNotional, perTradeExposureFraction } = this.deps.params;
    const perTrade = Money.max(book.maxExposure.times(perTradeExposureFraction), minNotional);
    return Money.min(perTrade, book.maxExposure.minus(book.committed)).toDecimalPlaces(2, Money.ROUND_DOWN);
  }

  private canAutoOpen(book: UserBook, symbol: SymbolId): boolean {
    if (!book.limits.autoTrade || book.limits.halted || this.lossReached(book)) return false;
    if (book.bySymbol.has(symbol)) return false;
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

