// The engine facade: price pipeline, per-user decisions (TradingCore), pre-trade checks, execution (TradeExecutor),
// position watching and events. One instance per process; it trades only while it holds the leadership (one trading
// engine per database). Decisions are pure (trading-core.ts, pretrade.ts); this file does the I/O around them.
import {
  catchError,
  filter,
  firstValueFrom,
  of,
  share,
  Subject,
  timeout,
  type Observable,
  type Subscription,
} from 'rxjs';
import { SYMBOLS, type SymbolId, type VenueId } from '../../contract/domain';
import type { OpportunityOutcome, Prices, Trade } from '../../contract/entities';
import { isEngineStop, type EngineStop } from '../../contract/trading-state';
import { SERVER_EVENTS } from '../../contract/events';
import type { PositionClosed, Venue } from '../venues/types';
import { DEFAULT_TRADING_PARAMS, type TradingParams } from './costs';
import { money } from './decimal';
import type { EngineEvent } from './events';
import { TradeExecutor, messageOf } from './executor';
import { newTradeIds } from './ids';
import { alwaysLeader, type Leadership } from './leader';
import { FigureRefresh } from './figure-refresh';
import { outcomeOf } from './opportunity-outcomes';
import type {
  AccountLoader,
  EngineLogger,
  FigureSources,
  FlattenQueue,
  HaltSource,
  PriceBook,
  RecoverableStore,
  TradingSettings,
  UserDirectory,
} from './ports';
import { SILENT_LOGGER } from './ports';
import { PositionWatch } from './position-watch';
import { preTradeCheck, type PreTradeResult } from './pretrade';
import { opportunityEdges, priceTicks, tickIsStale, toSymbolPrice, type PriceTick } from './prices';
import { checkQuotes } from './quote-check';
import { recoverTrades } from './recovery';
import { tradeDtoOf } from './storage/trade-rows';
import { TradingCore, type Command, type UserLimits } from './trading-core';
import type { NewTrade, TradeState } from './trade-state';
import { VenueFigureCache } from './venue-figures';

export interface EngineDeps {
  venues: Record<VenueId, Venue>;
  store: RecoverableStore;
  users: UserDirectory;
  account: AccountLoader;
  figures: FigureSources;
  /**
   * The stored global kill switch. Read when trading begins (a restart or a failover stays halted), with every
   * settings sync, and again before each trade is placed, so a halt saved through any instance stops the next open.
   */
  halted?: HaltSource;
  /** Stop & flatten requests taken by other instances (or before a restart): carried out on every settings sync. */
  flattens?: FlattenQueue;
  params?: Partial<TradingParams>;
  now?: () => number;
  newIds?: () => { id: string; tradeId: string };
  /** How often users' settings are re-read (changes made through other instances or routes). */
  userSyncMs?: number;
  /** How often time limits, back-offs, stuck closes and stale prices are checked when no tick arrives. */
  housekeepingMs?: number;
}

export type CommandResult = { ok: true; trade: Trade } | { ok: false; status: 400 | 404 | 409 | 503; message: string };

/** An admin's request to close every open trade of a user (before deleting or deactivating the account). */
export interface CloseUserTradesResult {
  /** Trades that were open when asked. */
  open: number;
  /** Whether all of them finished within the wait. */
  closed: boolean;
}

export interface EngineStart {
  /** Who may trade: an advisory lock on PostgreSQL; this process alone when omitted. */
  leadership?: Leadership;
  /** The process's logger, which exists once the app is built; silent when omitted. */
  logger?: EngineLogger;
}

const NOT_LEADER = 'The trading engine runs on another instance; this one is standing by. Try again in a moment.';

export class ArbitrageEngine implements PriceBook {
  readonly params: TradingParams;
  private readonly eventSubject = new Subject<EngineEvent>();
  /** Every event the engine raises; the realtime gateway subscribes to this. Hot: nothing is replayed. */
  readonly events$: Observable<EngineEvent> = this.eventSubject.pipe(share());
  private readonly latest = new Map<SymbolId, PriceTick>();
  /** Every tick as it arrives: a manual trade waits here for a pair of quotes it may trade on. */
  private readonly ticks$ = new Subject<PriceTick>();
  /** Whether each symbol's last published price said stale, so a venue going quiet is published once. */
  private readonly publishedStale = new Map<SymbolId, boolean>();
  private readonly core: TradingCore;
  private readonly executor: TradeExecutor;
  private readonly figureCache: VenueFigureCache;
  private readonly positions: PositionWatch;
  private readonly figureRefresh: FigureRefresh;
  private logger: EngineLogger = SILENT_LOGGER;
  private leadership: Leadership = alwaysLeader();
  private readonly now: () => number;
  private readonly fees = new Map<string, number>();
  /** Users trading automatically as of the last settings read. */
  private readonly autoUsers = new Set<string>();
  /** Waiting for a user's trades to end (an admin closing them before removing the account). */
  private readonly endWaiters = new Map<string, Array<() => void>>();
  /** Work between a decision and the executor (pre-trade checks, reads of the realised window): idle() waits for it. */
  private readonly deciding = new Set<Promise<unknown>>();
  private subscriptions: Subscription[] = [];
  private timers: NodeJS.Timeout[] = [];
  private priceTimer: NodeJS.Timeout | null = null;
  private trading = false;
  private stopped = false;
  /** Whether the stored kill switch has been read (or set by the API) since this process started. */
  private haltKnown = false;

  constructor(private readonly deps: EngineDeps) {
    this.params = { ...DEFAULT_TRADING_PARAMS, ...deps.params };
    this.now = deps.now ?? Date.now;
    this.core = new TradingCore({
      params: this.params,
      now: this.now,
      newIds: deps.newIds ?? (() => newTradeIds(this.now())),
    });
    this.figureCache = new VenueFigureCache({ venues: deps.venues, account: deps.account, now: this.now });
    this.executor = new TradeExecutor({
      venues: deps.venues,
      store: deps.store,
      account: deps.account,
      now: () => new Date(this.now()),
      logger: () => this.logger,
      maxSlippage: this.params.maxSlippage,
      onPersisted: (state, trade, created) =>
        this.emit({ type: created ? SERVER_EVENTS.newTrade : SERVER_EVENTS.tradeUpdated, userId: state.userId, trade }),
      onOpened: (state) => {
        this.core.onOpened(state.tradeId);
        this.positions.watch(state);
      },
      onEnded: (state) => this.ended(state),
      onGone: (state) => this.gone(state),
      onFill: (userId) => {
        this.figureCache.invalidate(userId);
        this.figureRefresh.request(userId);
      },
      onError: (error, state) =>
        this.logger.error({ err: error, tradeId: state.tradeId }, 'trade step failed; will retry'),
    });
    this.figureRefresh = new FigureRefresh({
      venues: deps.venues,
      account: deps.account,
      figures: deps.figures,
      prices: this,
      now: () => new Date(this.now()),
      emit: (event) => this.emit(event),
      logger: () => this.logger,
    });
    this.positions = new PositionWatch({
      venues: deps.venues,
      account: deps.account,
      logger: () => this.logger,
      onClosed: (tradeId, venue, closed) => this.positionClosed(tradeId, venue, closed),
    });
  }

  get venues(): Record<VenueId, Venue> {
    return this.deps.venues;
  }

  /** True while this instance holds the leadership and trades. */
  get isTrading(): boolean {
    return this.trading;
  }

  // ---- lifecycle ----

  /** Starts the price pipeline at once and trading as soon as the leadership is ours. */
  async start(options: EngineStart = {}): Promise<void> {
    if (options.logger) this.logger = options.logger;
    if (options.leadership) this.leadership = options.leadership;
    const ticks = priceTicks(this.deps.venues, SYMBOLS).pipe(share());
    this.subscriptions.push(
      ticks.subscribe((tick) => this.onTick(tick)),
      opportunityEdges(
        ticks.pipe(filter((tick) => checkQuotes(tick.binance, tick.deriv, this.now(), this.params).ok)),
        this.opportunityThreshold(),
      ).subscribe((opportunity) => this.emit({ type: SERVER_EVENTS.arbitrageOpportunity, opportunity })),
    );
    // A venue that goes quiet sends nothing: the price is published as stale once it is.
    this.priceTimer = setInterval(() => this.publishStaleness(), Math.min(500, this.params.quoteMaxAgeMs));
    this.priceTimer.unref();
    await this.leadership.start({
      onAcquired: () => this.beginTrading(),
      onLost: () => this.endTrading('leadership lost'),
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.endTrading('shutting down');
    if (this.priceTimer) clearInterval(this.priceTimer);
    for (const s of this.subscriptions) s.unsubscribe();
    this.subscriptions = [];
    this.positions.stop();
    await this.executor.idle();
    await this.leadership.stop();
    this.eventSubject.complete();
  }

  private async beginTrading(): Promise<void> {
    if (this.stopped || this.trading) return;
    this.logger.info('trading engine is the leader: recovering unfinished trades');
    const recovered = new Set<string>();
    let unreconciled = await this.recover(() => this.deps.store.unfinished(), recovered);
    await this.readHalt();
    this.trading = true;
    await this.syncUsers();
    void this.positions.audit(
      new Set([...recovered, ...this.autoUsers]),
      (userId, venue) => this.trackedOrderIds(userId, venue),
      (userId, notice) => this.emit({ type: SERVER_EVENTS.notice, userId, notice }),
    );
    let rounds = 0;
    const housekeeping = setInterval(() => {
      this.execute(this.core.checkTimeLimits(this.now()));
      // Closes that kept failing are tried again every 15 rounds: a position is never left open for good.
      if (++rounds % 15 === 0) this.executor.sweep();
    }, this.deps.housekeepingMs ?? 1000);
    const userSync = setInterval(() => void this.syncUsers(), this.deps.userSyncMs ?? 5000);
    // Trades whose venues could not be asked at start (venue down) are reconciled again until they can be.
    const retryRecovery = setInterval(() => {
      if (unreconciled.length === 0) return;
      const batch = unreconciled;
      unreconciled = [];
      void this.recover(async () => batch, recovered).then((left) => unreconciled.push(...left));
    }, 10_000);
    housekeeping.unref();
    userSync.unref();
    retryRecovery.unref();
    this.timers.push(housekeeping, userSync, retryRecovery);
    this.logger.info('trading engine started');
  }

  /** Reconciles unfinished trades and hands them to decisions and execution; returns those not reconciled yet. */
  private recover(unfinished: () => Promise<TradeState[]>, users: Set<string>): Promise<TradeState[]> {
    return recoverTrades({
      unfinished,
      venues: this.deps.venues,
      account: this.deps.account,
      now: () => new Date(this.now()),
      logger: this.logger,
      claimed: (venue, since) => this.deps.store.claimedOrderIds(venue, since),
      adopt: async (state) => {
        users.add(state.userId);
        const limits = await this.limitsFor(state.userId);
        if (limits) this.execute(this.core.adopt(trackedOf(state, this.params.maxHoldMs), limits));
        this.executor.resume(state);
        if (state.stage === 'open') this.positions.watch(state);
        // A deactivated user's position is not left open: nothing would watch it.
        if (!limits) this.executor.requestClose(state.tradeId, 'account deactivated', true);
      },
    });
  }

  /** The venue order ids of the user's unfinished trades on one venue. */
  private trackedOrderIds(userId: string, venue: VenueId): Set<string> {
    const ids = new Set<string>();
    for (const run of this.executor.active.values()) {
      if (run.state.userId !== userId) continue;
      for (const leg of run.state.legs) if (leg.venue === venue && leg.venueOrderId) ids.add(leg.venueOrderId);
    }
    return ids;
  }

  private endTrading(why: string): void {
    if (!this.trading) return;
    this.trading = false;
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    this.logger.warn({ why }, 'trading engine stopped trading');
  }

  // ---- prices ----

  mid(symbol: SymbolId): number | null {
    const tick = this.latest.get(symbol);
    return tick?.binanceMid ?? tick?.derivMid ?? null;
  }

  /** The latest price of each symbol, `profitable` judged against the given minSpread, staleness as of now. */
  prices(minSpread: number, symbol?: SymbolId): Prices {
    const out: Prices = {};
    for (const s of symbol ? [symbol] : SYMBOLS) {
      const tick = this.latest.get(s);
      if (tick) out[s] = toSymbolPrice(tick, minSpread, this.now(), this.params);
    }
    return out;
  }

  private opportunityThreshold(): number {
    return Math.max(
      this.params.defaultMinSpread,
      this.core.breakEven(this.params.defaultTakerFee) + this.params.closeBand,
    );
  }

  private onTick(tick: PriceTick): void {
    this.latest.set(tick.symbol, tick);
    this.ticks$.next(tick);
    this.publishPrice(tick);
    if (this.trading) this.execute(this.core.onTick(tick));
  }

  private publishPrice(tick: PriceTick): void {
    const price = toSymbolPrice(tick, this.params.defaultMinSpread, this.now(), this.params);
    this.publishedStale.set(tick.symbol, price.stale);
    this.emit({ type: SERVER_EVENTS.priceUpdate, price });
  }

  private publishStaleness(): void {
    for (const [symbol, tick] of this.latest) {
      if (tickIsStale(tick, this.now(), this.params) !== this.publishedStale.get(symbol)) this.publishPrice(tick);
    }
  }

  // ---- users ----

  /** Starts automatic trading for the user (tradingEnabled must already be saved). */
  async addUser(userId: string): Promise<void> {
    await this.refreshUser(userId);
  }

  async removeUser(userId: string): Promise<void> {
    this.autoUsers.delete(userId);
    this.core.removeUser(userId);
  }

  /** Re-reads the user's settings (after they changed). */
  async refreshUser(userId: string): Promise<void> {
    const settings = await this.deps.users.settings(userId);
    if (!settings || !settings.tradingEnabled) {
      await this.removeUser(userId);
      return;
    }
    this.autoUsers.add(userId);
    // Answered once the user's realised figure is read, so the user trades from the very next tick.
    await Promise.all(this.execute(this.core.upsertUser(await this.toLimits(settings))));
  }

  private async syncUsers(): Promise<void> {
    if (!this.trading) return;
    await this.readHalt();
    await this.carryOutFlattens();
    try {
      const enabled = await this.deps.users.tradingUsers();
      const ids = new Set(enabled.map((s) => s.userId));
      for (const settings of enabled) this.execute(this.core.upsertUser(await this.toLimits(settings)));
      for (const id of this.autoUsers) if (!ids.has(id)) this.core.removeUser(id);
      this.autoUsers.clear();
      for (const id of ids) this.autoUsers.add(id);
    } catch (error) {
      this.logger.error({ err: error }, 'could not read trading users');
    }
  }

  private async limitsFor(userId: string): Promise<UserLimits | null> {
    const settings = await this.deps.users.settings(userId);
    return settings ? this.toLimits(settings) : null;
  }

  private async toLimits(s: TradingSettings): Promise<UserLimits> {
    // The engine's own stops hold until trading is turned on again; the kind is stored, never read from the reason.
    const stopped = isEngineStop(s.tradingStop) ? s.tradingStop : null;
    return {
      userId: s.userId,
      maxExposure: s.maxExposure,
      maxLoss: s.maxLoss,
      minSpread: Number(s.minSpread),
      takerFee: await this.takerFee(s.userId),
      autoTrade: s.tradingEnabled,
      stopped,
      windowStart: s.tradingEnabledAt?.getTime() ?? null,
    };
  }

  private async takerFee(userId: string): Promise<number> {
    const known = this.fees.get(userId);
    if (known !== undefined) return known;
    let fee = this.params.defaultTakerFee;
    try {
      const rate = Number(await this.deps.venues.binance.takerFeeRate(await this.deps.account(userId)));
      if (Number.isFinite(rate) && rate >= 0) fee = rate;
    } catch {
      // unknown: the default applies (VENUES.md: 0.1 %)
    }
    this.fees.set(userId, fee);
    return fee;
  }

  /** Closes the open trades of every user whose Stop & flatten is waiting, then marks it done. */
  private async carryOutFlattens(): Promise<void> {
    if (!this.deps.flattens) return;
    try {
      for (const { userId, reason } of await this.deps.flattens.pending()) {
        // Asked to close at once (waitMs 0): the executor keeps closing and retries a failed close on its sweep.
        const result = await this.closeUserTrades(userId, reason, 0);
        if ('ok' in result) return;
        this.logger.warn(
          { event: 'stop_and_flatten', userId, open: result.open },
          'closing every open trade of the user (stop & flatten)',
        );
        await this.deps.flattens.done(userId);
      }
    } catch (error) {
      this.logger.error({ err: error }, 'could not carry out the waiting stop & flatten requests; will try again');
    }
  }

  // ---- the global kill switch ----

  /**
   * Applies the stored kill switch to decisions. A failed read keeps the last known state, except at the first read
   * after start, where not knowing means halted: money is not put at risk on a guess.
   */
  private async readHalt(): Promise<boolean> {
    if (!this.deps.halted) return false;
    try {
      const halted = await this.deps.halted();
      this.setGlobalHalt(halted);
      return halted;
    } catch (error) {
      this.logger.error({ err: error }, 'could not read the global kill switch; keeping the last known state');
      if (!this.haltKnown) this.core.setGlobalHalt(true);
      return this.core.globallyHalted;
    }
  }

  /** Called by the API on this instance right after the switch was saved (other instances read it from the database). */
  setGlobalHalt(halted: boolean): void {
    this.haltKnown = true;
    if (halted !== this.core.globallyHalted)
      this.logger.warn(
        { event: halted ? 'global_halt' : 'global_resume' },
        halted ? 'trading halted for every user by an admin' : 'trading resumed by an admin',
      );
    this.core.setGlobalHalt(halted);
  }

  get globallyHalted(): boolean {
    return this.core.globallyHalted;
  }

  // ---- commands from the API ----

  async createManualTrade(userId: string, symbol: SymbolId, totalAmount: number): Promise<CommandResult> {
    if (!this.trading) return { ok: false, status: 503, message: NOT_LEADER };
    const settings = await this.deps.users.settings(userId);
    if (!settings) return { ok: false, status: 404, message: 'User not found' };
    const limits = await this.toLimits(settings);
    const tick = await this.tradeableTick(symbol);
    // The maxLoss figure comes from the database before a user outside automated trading may open anything. A user
    // forgotten while the read was on its way (their last trade ended) is read again, once.
    for (let reads = 0; reads < 2 && !this.core.hasUser(userId); reads += 1)
      await Promise.all(this.execute(this.core.upsertUser(limits)));
    const result = this.core.manualOpen(limits, symbol, money(totalAmount), tick);
    if (!result.ok) return result;
    const opened = await this.openChecked(result.command.trade);
    if ('refused' in opened)
      return { ok: false, status: 409, message: `The trade cannot be placed: ${opened.refused}` };
    return opened.trade
      ? { ok: true, trade: opened.trade }
      : { ok: false, status: 503, message: 'The trade could not be recorded; nothing was placed. Try again.' };
  }

  /**
   * The latest tick of a symbol if its two quotes may be traded on, else the next one that may, waiting at most the
   * quote freshness limit. Deriv quotes once a second and Binance many times, so at a random instant the pair is often
   * further apart than the skew limit; the next Deriv tick brings them together. Without a tradeable tick in time the
   * latest is returned and the usual check refuses it with its reason.
   */
  private async tradeableTick(symbol: SymbolId): Promise<PriceTick | undefined> {
    const tradeable = (tick: PriceTick) => checkQuotes(tick.binance, tick.deriv, this.now(), this.params).ok;
    const latest = this.latest.get(symbol);
    if (latest && tradeable(latest)) return latest;
    return firstValueFrom(
      this.ticks$.pipe(
        filter((tick) => tick.symbol === symbol && tradeable(tick)),
        timeout({ first: this.params.quoteMaxAgeMs }),
        catchError(() => of(this.latest.get(symbol))),
      ),
    );
  }

  /** A user's cancel of an unfinished trade, by row id: closes the legs; the trade ends 'cancelled'. */
  async cancelTrade(userId: string, id: string): Promise<CommandResult> {
    if (!this.trading) return { ok: false, status: 503, message: NOT_LEADER };
    const state = this.executor.findById(id);
    if (!state) return { ok: false, status: 409, message: 'The trade is finishing or no longer open' };
    if (state.userId !== userId) return { ok: false, status: 404, message: 'Trade not found' };
    const result = this.core.cancel(userId, state.tradeId);
    if (!result.ok) return result;
    this.execute([result.command]);
    const after = this.executor.stateOf(state.tradeId) ?? state;
    return { ok: true, trade: tradeDtoOf(after, new Date(this.now())) };
  }

  /**
   * Closes (cancels) every unfinished trade of the user and stops their automated trading, then waits up to
   * `waitMs` for the trades to end: an admin removes an account only once nothing of it is open on a venue.
   */
  async closeUserTrades(
    userId: string,
    reason: string,
    waitMs: number,
  ): Promise<CloseUserTradesResult | { ok: false; message: string }> {
    if (!this.trading) return { ok: false, message: NOT_LEADER };
    await this.removeUser(userId);
    const open = [...this.executor.active.values()].filter((r) => r.state.userId === userId).length;
    this.execute(this.core.closeAllOf(userId, reason));
    for (const run of this.executor.active.values())
      if (run.state.userId === userId) this.executor.requestClose(run.state.tradeId, reason, true);
    if (open === 0) return { open, closed: true };
    const ended = new Promise<void>((resolve) =>
      this.endWaiters.set(userId, [...(this.endWaiters.get(userId) ?? []), resolve]),
    );
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs)));
    await Promise.race([ended, timeout]);
    clearTimeout(timer);
    return { open, closed: this.userRuns(userId) === 0 };
  }

  private userRuns(userId: string): number {
    return [...this.executor.active.values()].filter((r) => r.state.userId === userId).length;
  }

  // ---- execution ----

  /** Carries out the core's commands; the returned promises settle when the database reads among them are done. */
  private execute(commands: Command[]): Promise<void>[] {
    const reads: Promise<void>[] = [];
    for (const command of commands) {
      switch (command.kind) {
        case 'open':
          this.track(this.openChecked(command.trade));
          break;
        case 'close':
          this.executor.requestClose(command.tradeId, command.reason, command.cancel);
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
    return reads;
  }

  private track<T>(work: Promise<T>): Promise<T> {
    const tracked = work.finally(() => this.deciding.delete(tracked));
    this.deciding.add(tracked);
    return tracked;
  }

  /** Pre-trade checks, then the write-ahead insert and the orders; a trade that cannot be placed is never opened. */
  private async openChecked(trade: NewTrade): Promise<{ trade: Trade | null } | { refused: string }> {
    // Read again at the last moment: a halt saved through another instance stops this trade too.
    if (await this.readHalt()) {
      this.execute(this.core.onSkipped(trade.tradeId, 'trading is halted by an admin', trade.openSpread, false));
      return { refused: 'trading is halted by an admin' };
    }
    const check = await this.preTrade(trade);
    if (!check.ok) {
      this.logger.info(
        {
          event: 'pretrade_refused',
          tradeId: trade.tradeId,
          userId: trade.userId,
          symbol: trade.symbol,
          reason: check.reason,
        },
        'trade not placed: pre-trade check',
      );
      this.execute(this.core.onSkipped(trade.tradeId, check.reason, trade.openSpread, trade.origin === 'auto'));
      return { refused: check.reason };
    }
    const dto = await this.openTrade(trade);
    if (dto)
      this.emitOutcome(
        trade.userId,
        outcomeOf(
          trade.symbol,
          trade.openSpread,
          'taken',
          `${trade.origin} trade of ${trade.notional} USDT`,
          this.now(),
          trade.tradeId,
        ),
      );
    return { trade: dto };
  }

  private async preTrade(trade: NewTrade): Promise<PreTradeResult> {
    const binance = trade.decision?.binance ?? this.latest.get(trade.symbol)?.binance;
    if (!binance) return { ok: false, reason: 'no Binance price to size the order', mirror: false };
    try {
      const figures = await this.figureCache.figures(trade.userId, trade.symbol);
      const binancePrice = trade.direction === 'deriv-rich' ? binance.ask : binance.bid;
      return preTradeCheck(
        { symbol: trade.symbol, direction: trade.direction, notional: money(trade.notional), binancePrice },
        figures.binance,
        figures.deriv,
      );
    } catch (error) {
      return {
        ok: false,
        reason: `the venues' balances and limits could not be read: ${messageOf(error)}`,
        mirror: false,
      };
    }
  }

  private async openTrade(trade: NewTrade): Promise<Trade | null> {
    try {
      return await this.executor.open(trade);
    } catch (error) {
      // The write-ahead insert failed: nothing was placed, so the exposure is released at once.
      this.logger.error({ err: error, tradeId: trade.tradeId }, 'could not record a new trade; not placed');
      this.execute(this.core.onEnded(trade.tradeId, { status: 'cancelled', profit: money(0), reason: null }));
      return null;
    }
  }

  private async readRealised(userId: string, seq: number): Promise<void> {
    try {
      const window = await this.deps.users.realisedWindow(userId);
      this.execute(this.core.realisedRead(userId, seq, { current: money(window.current), peak: money(window.peak) }));
    } catch (error) {
      this.logger.error(
        { err: error, userId },
        'could not read the realised P&L; the user does not trade until it is read',
      );
      const timer = setTimeout(() => this.execute(this.core.realisedReadFailed(userId)), 2_000);
      timer.unref();
    }
  }

  private ended(state: TradeState): void {
    this.positions.unwatch(state.tradeId);
    const status = state.stage === 'completed' || state.stage === 'failed' ? state.stage : 'cancelled';
    this.execute(this.core.onEnded(state.tradeId, { status, profit: money(state.actualProfit), reason: state.reason }));
    this.wakeEndWaiters(state.userId);
  }

  /** The user of a trade was deleted while it ran: logged once with what is left on the venues, then let go. */
  private gone(state: TradeState): void {
    this.positions.unwatch(state.tradeId);
    const open = state.legs
      .filter((l) => l.open && !l.close)
      .map((l) => ({ venue: l.venue, side: l.side, quantity: l.open?.quantity, venueOrderId: l.venueOrderId }));
    this.logger.error(
      { event: 'trade_orphaned', tradeId: state.tradeId, userId: state.userId, openLegs: open },
      'the trade belongs to a deleted user; the engine stopped tracking it',
    );
    this.execute(this.core.onEnded(state.tradeId, { status: 'cancelled', profit: money(0), reason: 'user deleted' }));
    this.wakeEndWaiters(state.userId);
  }

  private wakeEndWaiters(userId: string): void {
    if (this.userRuns(userId) > 0) return;
    for (const wake of this.endWaiters.get(userId) ?? []) wake();
    this.endWaiters.delete(userId);
  }

  private positionClosed(tradeId: string, venue: VenueId, closed: PositionClosed): void {
    const state = this.executor.stateOf(tradeId);
    this.logger.warn(
      { event: 'stop_out', tradeId, userId: state?.userId, venue, reason: closed.reason, price: closed.fill.price },
      'the venue closed a leg; closing the other leg',
    );
    this.core.markClosing(tradeId);
    this.executor.venueClosed(tradeId, venue, closed.fill, closed.reason);
  }

  private async stopTrading(userId: string, stop: EngineStop, reason: string): Promise<void> {
    const at = new Date(this.now());
    try {
      await this.deps.users.stopTrading(userId, stop, reason);
    } catch (error) {
      this.logger.error({ err: error, userId }, 'could not record that trading stopped');
    }
    this.logger.warn(
      { event: stop === 'max-loss' ? 'halt' : 'pause', userId, reason },
      stop === 'max-loss' ? 'trading halted: max loss reached' : 'trading paused after repeated failures',
    );
    this.emit({
      type: SERVER_EVENTS.notice,
      userId,
      notice: {
        level: 'warning',
        message: `Trading ${stop === 'max-loss' ? 'stopped' : 'paused'}: ${reason}. Save your trading settings with automated trading on to trade again.`,
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
    this.emit({ type: SERVER_EVENTS.opportunityOutcome, userId, outcome });
  }

  private emit(event: EngineEvent): void {
    try {
      this.eventSubject.next(event);
    } catch (error) {
      this.logger.error({ err: error, event: event.type }, `event subscriber failed: ${messageOf(error)}`);
    }
  }

  /** For tests and the benchmark: wait until every decided trade is placed or refused and every trade in flight has finished its current step. */
  async idle(): Promise<void> {
    while (this.deciding.size > 0) await Promise.allSettled([...this.deciding]);
    await this.executor.idle();
    if (this.deciding.size > 0) await this.idle();
  }

  /** For tests and diagnostics. */
  get decisions(): TradingCore {
    return this.core;
  }
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
