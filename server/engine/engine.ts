// The engine facade: prices (price-feed.ts), the users it trades for (user-registry.ts), the decisions (trading-core.ts,
// pure), their execution against the venues (execution.ts) and the global kill switch (global-halt.ts), wired
// together with the engine's lifecycle. One instance per process; it trades only while it holds the leadership (one
// trading engine per database) or some of the engine shards (ENGINE_SHARDS: the users of those shards only), and
// recovers the unfinished trades of what it takes first.
import { share, Subject, type Observable } from 'rxjs';
import type { SymbolId, VenueId } from '../../contract/domain';
import type { OpportunityOutcome, Prices, Trade } from '../../contract/entities';
import { SERVER_EVENTS } from '../../contract/events';
import type { VenueHealth } from '../../contract/venue-health';
import type { Venue } from '../venues/types';
import { DEFAULT_TRADING_PARAMS, type TradingParams } from './costs';
import { money } from './decimal';
import type { EngineEvent } from './events';
import { ENGINE_BUSY_MANUAL } from './deadline';
import { Execution } from './execution';
import { messageOf } from './executor';
import { GlobalHalt } from './global-halt';
import { newTradeIds } from './ids';
import { RecentOutcomes } from './opportunity-outcomes';
import { alwaysLeader, type Leadership } from './leader';
import { NO_ENGINE_METRICS, type EngineMetrics } from './metrics-port';
import type {
  AccountLoader,
  EngineLogger,
  FigureSources,
  FlattenQueue,
  HaltChanges,
  HaltSource,
  PriceBook,
  RecoverableStore,
  UserDirectory,
} from './ports';
import { SILENT_LOGGER } from './ports';
import { PriceFeed } from './price-feed';
import type { PriceTick } from './prices';
import type { LaneLimits } from './venue-lanes';
import { adoptInto, recoverTrades } from './recovery';
import { shardOf, ShardSet } from './shards';
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
  /** The stored switch's changes from every instance: with them a trade takes the switch from memory (global-halt.ts). */
  haltChanges?: HaltChanges;
  /** Stop & flatten requests taken by other instances (or before a restart): carried out on every settings sync. */
  flattens?: FlattenQueue;
  params?: Partial<TradingParams>;
  now?: () => number;
  newIds?: () => { id: string; tradeId: string };
  /** How often users' settings are re-read (changes made through other instances or routes). */
  userSyncMs?: number;
  /** How often time limits, back-offs, stuck closes and stale prices are checked when no tick arrives. */
  housekeepingMs?: number;
  /** The process's metrics (server/ops/metrics); nothing is counted when omitted. */
  metrics?: EngineMetrics;
  /** Orders on their way at once per venue and per venue account (venue-lanes.ts); the defaults when omitted. */
  lanes?: LaneLimits;
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
const OTHER_SHARD = 'Your trading runs on another engine instance. Try again in a moment.';

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
  /** The shards whose users this instance trades (all users while it leads with ENGINE_SHARDS=1). */
  private shards = new ShardSet(1);
  /** Unfinished trades whose venues could not be asked yet (a venue down): reconciled again until they can be. */
  private unreconciled: TradeState[] = [];
  private readonly recovered = new Set<string>();
  /** Each user's newest opportunity outcomes, for GET /snapshot. */
  private readonly outcomes = new RecentOutcomes();

  constructor(private readonly deps: EngineDeps) {
    this.params = { ...DEFAULT_TRADING_PARAMS, ...deps.params };
    const now = (this.now = deps.now ?? Date.now);
    const logger = () => this.logger;
    const emit = (event: EngineEvent) => this.emit(event);
    const execute = (commands: Parameters<Execution['execute']>[0]) => this.execution.execute(commands);
    this.core = new TradingCore({ params: this.params, now, newIds: deps.newIds ?? (() => newTradeIds(now())) });
    this.priceFeed = new PriceFeed({ venues: deps.venues, params: this.params, now, emit });
    this.halt = new GlobalHalt(this.core, deps.halted, logger, deps.haltChanges, now);
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
      metrics: deps.metrics ?? NO_ENGINE_METRICS,
    });
  }

  get venues(): Record<VenueId, Venue> {
    return this.deps.venues;
  }

  /** True while decisions were dropped lately because they could not be sent in time (the engine is overloaded). */
  get shedding(): boolean {
    return this.trading && this.execution.shedding;
  }

  /** True while this instance holds the leadership (or any shard) and trades. */
  get isTrading(): boolean {
    return this.trading;
  }

  /** The shard numbers this instance trades now, and how many there are in all. */
  get heldShards(): { held: number[]; count: number } {
    return { held: this.shards.list(), count: this.shards.count };
  }

  /** The backend pid of the session holding this instance's engine locks (PostgreSQL), if any. */
  get lockPid(): number | null {
    return this.leadership.lockPid?.() ?? null;
  }

  /** Work done once across instances (the spread history): by the holder of shard 0, the leader without shards. */
  get leadsShared(): boolean {
    return this.trading && this.shards.has(0);
  }

  /** Whether this instance trades for the user now. */
  tradesFor(userId: string): boolean {
    return this.trading && this.shards.owns(userId);
  }

  // ---- lifecycle ----

  /** Starts the price pipeline at once and trading as soon as the leadership is ours. */
  async start(options: EngineStart = {}): Promise<void> {
    if (options.logger) this.logger = options.logger;
    if (options.leadership) this.leadership = options.leadership;
    this.shards = new ShardSet(this.leadership.shards);
    this.priceFeed.start((tick) => {
      if (!this.trading) return;
      const at = this.now();
      this.execution.execute(this.core.onTick(tick));
      if (this.tickSubject.observed) this.tickSubject.next({ tick, at });
    });
    this.halt.listen();
    await this.leadership.start({
      onAcquired: (shards) => this.beginTrading(shards),
      onLost: (shards) => {
        this.shards.delete(shards);
        if (this.shards.size === 0) this.endTrading('leadership lost');
      },
      drain: (shard) => this.drain(shard),
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.endTrading('shutting down');
    this.halt.close();
    this.priceFeed.stop();
    this.execution.positions.stop();
    await this.execution.executor.idle();
    await this.leadership.stop();
    this.eventSubject.complete();
    this.tickSubject.complete();
  }

  private async beginTrading(taken: number[]): Promise<void> {
    if (this.stopped) throw new Error('the engine is stopping');
    const fresh = new Set(taken);
    const ofFresh = (userId: string) => this.shards.within(userId, fresh);
    this.logger.info(
      this.shards.count > 1 ? { shards: taken } : {},
      'trading engine is the leader: recovering unfinished trades',
    );
    const recovered = new Set<string>();
    const all = () => this.deps.store.unfinished();
    const unfinished = this.shards.count > 1 ? async () => (await all()).filter((t) => ofFresh(t.userId)) : all;
    this.unreconciled.push(...(await this.recover(unfinished, recovered)));
    await this.halt.read();
    this.shards.add(taken);
    const first = !this.trading;
    this.trading = true;
    await this.syncUsers();
    void this.execution.positions.audit(
      new Set([...recovered, ...[...this.registry.autoUsers].filter(ofFresh)]),
      (userId, venue) => this.execution.trackedOrderIds(userId, venue),
      (userId, notice) => this.emit({ type: SERVER_EVENTS.notice, userId, notice }),
    );
    if (first) this.startTimers();
  }

  private startTimers(): void {
    let rounds = 0;
    const housekeeping = setInterval(() => {
      this.execution.execute(this.core.checkTimeLimits(this.now()));
      // Closes that kept failing are tried again every 15 rounds: a position is never left open for good.
      if (++rounds % 15 === 0) this.execution.executor.sweep();
    }, this.deps.housekeepingMs ?? 1000);
    const userSync = setInterval(() => void this.syncUsers(), this.deps.userSyncMs ?? 5000);
    // Trades whose venues could not be asked at start (venue down) are reconciled again until they can be.
    const retryRecovery = setInterval(() => {
      if (this.unreconciled.length === 0) return;
      const batch = this.unreconciled.filter((t) => this.shards.owns(t.userId));
      this.unreconciled = [];
      void this.recover(async () => batch, this.recovered).then((left) => this.unreconciled.push(...left));
    }, 10_000);
    housekeeping.unref();
    userSync.unref();
    retryRecovery.unref();
    this.timers.push(housekeeping, userSync, retryRecovery);
    this.logger.info('trading engine started');
  }

  /**
   * Hands a shard over to another instance: its users get no new trade from here, and this resolves once none of
   * their trades is tracked or in flight here any more (their open trades run to their normal end meanwhile).
   */
  private async drain(shard: number): Promise<void> {
    this.shards.delete([shard]);
    const ofShard = (userId: string) => shardOf(userId, this.shards.count) === shard;
    const users = [...this.registry.autoUsers, ...this.core.openTrades().map((t) => t.userId)];
    for (const userId of new Set(users)) if (ofShard(userId)) this.registry.remove(userId);
    const busy = () =>
      this.core.openTrades().some((t) => ofShard(t.userId)) ||
      [...this.execution.executor.active.values()].some((run) => ofShard(run.state.userId));
    while (!this.stopped && busy()) await new Promise((resolve) => setTimeout(resolve, 250).unref());
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
      adopt: adoptInto(
        { core: this.core, execution: this.execution, registry: this.registry, maxHoldMs: this.params.maxHoldMs },
        users,
      ),
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

  /** Each venue's connection now: state, round trip, last error (the Dashboard's venue health). */
  venueHealth(): VenueHealth[] {
    return this.priceFeed.venueHealth();
  }

  /** The user's newest opportunity outcomes on this instance, newest first (GET /snapshot's `outcomes`). */
  recentOutcomes(userId: string): OpportunityOutcome[] {
    return this.outcomes.of(userId);
  }

  // ---- users ----

  /** Starts automatic trading for the user (tradingEnabled must already be saved). */
  async addUser(userId: string): Promise<void> {
    await this.refreshUser(userId);
  }

  async removeUser(userId: string): Promise<void> {
    this.registry.remove(userId);
  }

  /** Re-reads the user's settings (after they changed). */
  async refreshUser(userId: string): Promise<void> {
    // A user of a shard another instance trades: that instance reads the change on its next settings sync.
    if (this.shards.count > 1 && !this.shards.owns(userId)) return;
    await this.registry.refresh(userId);
  }

  private async syncUsers(): Promise<void> {
    if (!this.trading) return;
    await this.halt.read();
    await this.carryOutFlattens();
    await this.registry.sync((userId) => this.shards.owns(userId));
  }

  /** Closes the open trades of every user whose Stop & flatten (or an admin's close) is waiting, then marks it done. */
  private async carryOutFlattens(): Promise<void> {
    if (!this.deps.flattens) return;
    try {
      const pending = (await this.deps.flattens.pending()).filter((p) => this.shards.owns(p.userId));
      for (const { userId, reason } of pending) {
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

  /** Why this instance cannot act for the user now; null when it can. */
  private elsewhere(userId: string): string | null {
    if (!this.trading) return NOT_LEADER;
    return this.shards.owns(userId) ? null : OTHER_SHARD;
  }

  async createManualTrade(userId: string, symbol: SymbolId, totalAmount: number): Promise<CommandResult> {
    const away = this.elsewhere(userId);
    if (away) return { ok: false, status: 503, message: away };
    const settings = await this.deps.users.settings(userId);
    if (!settings) return { ok: false, status: 404, message: 'User not found' };
    const limits = await this.registry.toLimits(settings);
    const tick = await this.priceFeed.tradeableTick(symbol);
    // The maxLoss figure comes from the database before a user outside automated trading may open anything. A user
    // forgotten while the read was on its way (their last trade ended) is read again, once.
    for (let reads = 0; reads < 2 && !this.core.hasUser(userId); reads += 1)
      await Promise.all(this.execution.execute(this.core.upsertUser(limits)));
    // The user's shard may have been handed over while the reads were on their way.
    if (!this.shards.owns(userId)) return { ok: false, status: 503, message: OTHER_SHARD };
    const result = this.core.manualOpen(limits, symbol, money(totalAmount), tick);
    if (!result.ok) return result;
    const opened = await this.execution.open(result.command.trade);
    if ('refused' in opened)
      return { ok: false, status: 409, message: `The trade cannot be placed: ${opened.refused}` };
    if ('busy' in opened) return { ok: false, status: 503, message: ENGINE_BUSY_MANUAL };
    return opened.trade
      ? { ok: true, trade: opened.trade }
      : { ok: false, status: 503, message: 'The trade could not be recorded; nothing was placed. Try again.' };
  }

  /** A user's close of an unfinished trade, by row id: closes the legs; the trade ends closed by you. */
  async cancelTrade(userId: string, id: string): Promise<CommandResult> {
    const away = this.elsewhere(userId);
    if (away) return { ok: false, status: 503, message: away };
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
    const away = this.elsewhere(userId);
    if (away) return { ok: false, message: away };
    this.registry.remove(userId);
    return this.execution.closeAllOf(userId, reason, waitMs);
  }

  private emit(event: EngineEvent): void {
    if (event.type === SERVER_EVENTS.opportunityOutcome) this.outcomes.add(event.userId, event.outcome);
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
