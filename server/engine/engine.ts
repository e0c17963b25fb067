// The engine facade: prices (price-feed.ts), the users it trades for (user-registry.ts), the decisions (trading-core.ts,
// pure), their execution against the venues (execution.ts) and the global kill switch (global-halt.ts), wired
// together with the engine's lifecycle. One instance per process; it trades only while it holds the leadership (one
// trading engine per database), and recovers the unfinished trades first when it takes it.
import { share, Subject, type Observable } from 'rxjs';
import type { SymbolId, VenueId } from '../../contract/domain';
import type { Prices, Trade } from '../../contract/entities';
import { SERVER_EVENTS } from '../../contract/events';
import type { Venue } from '../venues/types';
import { DEFAULT_TRADING_PARAMS, type TradingParams } from './costs';
import { money } from './decimal';
import type { EngineEvent } from './events';
import { Execution } from './execution';
import { messageOf } from './executor';
import { GlobalHalt } from './global-halt';
import { newTradeIds } from './ids';
import { alwaysLeader, type Leadership } from './leader';
import type {
  AccountLoader,
  EngineLogger,
  FigureSources,
  FlattenQueue,
  HaltSource,
  PriceBook,
  RecoverableStore,
  UserDirectory,
} from './ports';
import { SILENT_LOGGER } from './ports';
import { PriceFeed } from './price-feed';
import type { PriceTick } from './prices';
import { recoverTrades } from './recovery';
import { tradeDtoOf } from './storage/trade-rows';
import { TradingCore } from './trading-core';
import type { TradeState } from './trade-state';
import { UserRegistry } from './user-registry';

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

/** A tick the engine decided on and its clock when it did (what a replay must see to decide the same). */
export interface DecidedTick {
  tick: PriceTick;
  at: number;
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
  private readonly tickSubject = new Subject<DecidedTick>();
  /** Every tick the engine decided on while trading, with its clock at that moment (the spread-book recorder's input). */
  readonly ticks$: Observable<DecidedTick> = this.tickSubject.asObservable();
  private readonly core: TradingCore;
  private readonly priceFeed: PriceFeed;
  private readonly halt: GlobalHalt;
  private readonly registry: UserRegistry;
  private readonly execution: Execution;
  private logger: EngineLogger = SILENT_LOGGER;
  private leadership: Leadership = alwaysLeader();
  private readonly now: () => number;
  private timers: NodeJS.Timeout[] = [];
  private trading = false;
  private stopped = false;

  constructor(private readonly deps: EngineDeps) {
    this.params = { ...DEFAULT_TRADING_PARAMS, ...deps.params };
    const now = (this.now = deps.now ?? Date.now);
    const logger = () => this.logger;
    const emit = (event: EngineEvent) => this.emit(event);
    const execute = (commands: Parameters<Execution['execute']>[0]) => this.execution.execute(commands);
    this.core = new TradingCore({ params: this.params, now, newIds: deps.newIds ?? (() => newTradeIds(now())) });
    this.priceFeed = new PriceFeed({ venues: deps.venues, params: this.params, now, emit });
    this.halt = new GlobalHalt(this.core, deps.halted, logger);
    this.registry = new UserRegistry({ ...deps, params: this.params, core: this.core, execute, logger });
    this.execution = new Execution({
      ...deps,
      core: this.core,
      halt: this.halt,
      prices: this.priceFeed,
      params: this.params,
      now,
      emit,
      logger,
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
    this.priceFeed.start((tick) => {
      if (!this.trading) return;
      const at = this.now();
      this.execution.execute(this.core.onTick(tick));
      if (this.tickSubject.observed) this.tickSubject.next({ tick, at });
    });
    await this.leadership.start({
      onAcquired: () => this.beginTrading(),
      onLost: () => this.endTrading('leadership lost'),
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.endTrading('shutting down');
    this.priceFeed.stop();
    this.execution.positions.stop();
    await this.execution.executor.idle();
    await this.leadership.stop();
    this.eventSubject.complete();
    this.tickSubject.complete();
  }

  private async beginTrading(): Promise<void> {
    if (this.stopped || this.trading) return;
    this.logger.info('trading engine is the leader: recovering unfinished trades');
    const recovered = new Set<string>();
    let unreconciled = await this.recover(() => this.deps.store.unfinished(), recovered);
    await this.halt.read();
    this.trading = true;
    await this.syncUsers();
    void this.execution.positions.audit(
      new Set([...recovered, ...this.registry.autoUsers]),
      (userId, venue) => this.execution.trackedOrderIds(userId, venue),
      (userId, notice) => this.emit({ type: SERVER_EVENTS.notice, userId, notice }),
    );
    let rounds = 0;
    const housekeeping = setInterval(() => {
      this.execution.execute(this.core.checkTimeLimits(this.now()));
      // Closes that kept failing are tried again every 15 rounds: a position is never left open for good.
      if (++rounds % 15 === 0) this.execution.executor.sweep();
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
    const { executor, positions } = this.execution;
    return recoverTrades({
      unfinished,
      venues: this.deps.venues,
      account: this.deps.account,
      now: () => new Date(this.now()),
      logger: this.logger,
      claimed: (venue, since) => this.deps.store.claimedOrderIds(venue, since),
      adopt: async (state) => {
        users.add(state.userId);
        const limits = await this.registry.limitsFor(state.userId);
        if (limits) this.execution.execute(this.core.adopt(trackedOf(state, this.params.maxHoldMs), limits));
        executor.resume(state);
        if (state.stage === 'open') positions.watch(state);
        // A deactivated user's position is not left open: nothing would watch it.
        if (!limits) executor.requestClose(state.tradeId, 'account deactivated', true);
      },
    });
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
    return this.priceFeed.mid(symbol);
  }

  /** The latest price of each symbol, `profitable` judged against the given minSpread, staleness as of now. */
  prices(minSpread: number, symbol?: SymbolId): Prices {
    return this.priceFeed.prices(minSpread, symbol);
  }

  // ---- users ----

  /** Starts automatic trading for the user (tradingEnabled must already be saved). */
  async addUser(userId: string): Promise<void> {
    await this.registry.refresh(userId);
  }

  async removeUser(userId: string): Promise<void> {
    this.registry.remove(userId);
  }

  /** Re-reads the user's settings (after they changed). */
  async refreshUser(userId: string): Promise<void> {
    await this.registry.refresh(userId);
  }

  private async syncUsers(): Promise<void> {
    if (!this.trading) return;
    await this.halt.read();
    await this.carryOutFlattens();
    await this.registry.sync();
  }

  /** Closes the open trades of every user whose Stop & flatten (or an admin's close) is waiting, then marks it done. */
  private async carryOutFlattens(): Promise<void> {
    if (!this.deps.flattens) return;
    try {
      for (const { userId, reason } of await this.deps.flattens.pending()) {
        // Asked to close at once (waitMs 0): the executor keeps closing and retries a failed close on its sweep.
        const result = await this.closeUserTrades(userId, reason, 0);
        if ('ok' in result) return;
        this.logger.warn(
          { event: 'stop_and_flatten', userId, open: result.open },
          `closing every open trade: ${reason}`,
        );
        await this.deps.flattens.done(userId);
      }
    } catch (error) {
      this.logger.error({ err: error }, 'could not carry out the waiting stop & flatten requests; will try again');
    }
  }

  // ---- the global kill switch ----

  /** Called by the API on this instance right after the switch was saved (other instances read it from the database). */
  setGlobalHalt(halted: boolean): void {
    this.halt.set(halted);
  }

  get globallyHalted(): boolean {
    return this.halt.halted;
  }

  // ---- commands from the API ----

  async createManualTrade(userId: string, symbol: SymbolId, totalAmount: number): Promise<CommandResult> {
    if (!this.trading) return { ok: false, status: 503, message: NOT_LEADER };
    const settings = await this.deps.users.settings(userId);
    if (!settings) return { ok: false, status: 404, message: 'User not found' };
    const limits = await this.registry.toLimits(settings);
    const tick = await this.priceFeed.tradeableTick(symbol);
    // The maxLoss figure comes from the database before a user outside automated trading may open anything. A user
    // forgotten while the read was on its way (their last trade ended) is read again, once.
    for (let reads = 0; reads < 2 && !this.core.hasUser(userId); reads += 1)
      await Promise.all(this.execution.execute(this.core.upsertUser(limits)));
    const result = this.core.manualOpen(limits, symbol, money(totalAmount), tick);
    if (!result.ok) return result;
    const opened = await this.execution.open(result.command.trade);
    if ('refused' in opened)
      return { ok: false, status: 409, message: `The trade cannot be placed: ${opened.refused}` };
    return opened.trade
      ? { ok: true, trade: opened.trade }
      : { ok: false, status: 503, message: 'The trade could not be recorded; nothing was placed. Try again.' };
  }

  /** A user's cancel of an unfinished trade, by row id: closes the legs; the trade ends 'cancelled'. */
  async cancelTrade(userId: string, id: string): Promise<CommandResult> {
    if (!this.trading) return { ok: false, status: 503, message: NOT_LEADER };
    const { executor } = this.execution;
    const state = executor.findById(id);
    if (!state) return { ok: false, status: 409, message: 'The trade is finishing or no longer open' };
    if (state.userId !== userId) return { ok: false, status: 404, message: 'Trade not found' };
    const result = this.core.cancel(userId, state.tradeId);
    if (!result.ok) return result;
    this.execution.execute([result.command]);
    const after = executor.stateOf(state.tradeId) ?? state;
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
    this.registry.remove(userId);
    return this.execution.closeAllOf(userId, reason, waitMs);
  }

  private emit(event: EngineEvent): void {
    try {
      this.eventSubject.next(event);
    } catch (error) {
      this.logger.error({ err: error, event: event.type }, `event subscriber failed: ${messageOf(error)}`);
    }
  }

  /** For tests and the benchmark: wait until every decided trade is placed or refused and every trade in flight has finished its current step. */
  idle(): Promise<void> {
    return this.execution.idle();
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
