// The engine facade: price pipeline, per-user decisions (TradingCore), execution (TradeExecutor), events.
// One instance per process; it trades only while it holds the leadership (one trading engine per database).
import { share, Subject, type Observable, type Subscription } from 'rxjs';
import { SYMBOLS, type SymbolId, type VenueId } from '../../contract/domain';
import type { Prices, Trade } from '../../contract/entities';
import type { PriceBook } from '../http/ports';
import type { Venue } from '../venues/types';
import { DEFAULT_TRADING_PARAMS, type TradingParams } from './costs';
import { money } from './decimal';
import type { EngineEvent } from './events';
import { TradeExecutor, messageOf } from './executor';
import { newTradeIds } from './ids';
import { alwaysLeader, type Leadership } from './leader';
import type { AccountLoader, EngineLogger, FigureSources, RecoverableStore, TradingSettings, UserDirectory } from './ports';
import { SILENT_LOGGER } from './ports';
import { opportunityEdges, priceTicks, toSymbolPrice, type PriceTick } from './prices';
import { recoverTrades } from './recovery';
import { tradeDtoOf } from './store';
import { TradingCore, type Command, type UserLimits } from './trading-core';
import type { TradeState } from './trade-state';

export interface EngineDeps {
  venues: Record<VenueId, Venue>;
  store: RecoverableStore;
  users: UserDirectory;
  account: AccountLoader;
  figures?: FigureSources;
  leadership?: Leadership;
  params?: Partial<TradingParams>;
  logger?: EngineLogger;
  now?: () => number;
  newIds?: () => { id: string; tradeId: string };
  /** How often users' settings are re-read (changes made through other instances or routes). */
  userSyncMs?: number;
  /** How often time limits and stuck closes are checked when no tick arrives. */
  housekeepingMs?: number;
}

export type CommandResult = { ok: true; trade: Trade } | { ok: false; status: 400 | 404 | 409 | 503; message: string };

const NOT_LEADER = 'The trading engine runs on another instance; this one is standing by. Try again in a moment.';

export class ArbitrageEngine implements PriceBook {
  readonly params: TradingParams;
  private readonly eventSubject = new Subject<EngineEvent>();
  /** Every event the engine raises; the realtime gateway subscribes to this. Hot: nothing is replayed. */
  readonly events$: Observable<EngineEvent> = this.eventSubject.pipe(share());
  private readonly latest = new Map<SymbolId, PriceTick>();
  private readonly core: TradingCore;
  private readonly executor: TradeExecutor;
  private readonly logger: EngineLogger;
  private readonly now: () => number;
  private readonly fees = new Map<string, number>();
  private readonly figuresBusy = new Map<string, boolean>();
  /** Users trading automatically as of the last settings read. */
  private readonly autoUsers = new Set<string>();
  private subscriptions: Subscription[] = [];
  private timers: NodeJS.Timeout[] = [];
  private trading = false;
  private stopped = false;

  constructor(private readonly deps: EngineDeps) {
    this.params = { ...DEFAULT_TRADING_PARAMS, ...deps.params };
    this.logger = deps.logger ?? SILENT_LOGGER;
    this.now = deps.now ?? Date.now;
    this.core = new TradingCore({ params: this.params, now: this.now, newIds: deps.newIds ?? (() => newTradeIds(this.now())) });
    this.executor = new TradeExecutor({
      venues: deps.venues,
      store: deps.store,
      account: deps.account,
      now: () => new Date(this.now()),
      onPersisted: (state, trade, created) =>
        this.emit({ type: created ? 'new_trade' : 'trade_updated', userId: state.userId, trade }),
      onOpened: (state) => this.core.onOpened(state.tradeId),
      onEnded: (state) => this.ended(state),
      onFill: (userId) => this.refreshFigures(userId),
      onError: (error, state) => this.logger.error({ err: error, tradeId: state.tradeId }, 'trade step failed; will retry'),
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
  async start(): Promise<void> {
    const ticks = priceTicks(this.deps.venues, SYMBOLS).pipe(share());
    this.subscriptions.push(
      ticks.subscribe((tick) => this.onTick(tick)),
      opportunityEdges(ticks, this.opportunityThreshold()).subscribe((opportunity) => this.emit({ type: 'arbitrage_opportunity', opportunity })),
    );
    const leadership = this.deps.leadership ?? alwaysLeader();
    await leadership.start({
      onAcquired: () => this.beginTrading(),
      onLost: () => this.endTrading('leadership lost'),
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.endTrading('shutting down');
    for (const s of this.subscriptions) s.unsubscribe();
    this.subscriptions = [];
    await this.executor.idle();
    await this.deps.leadership?.stop();
    this.eventSubject.complete();
  }

  private async beginTrading(): Promise<void> {
    if (this.stopped || this.trading) return;
    this.logger.info('trading engine is the leader: recovering unfinished trades');
    let unreconciled = await this.recover(() => this.deps.store.unfinished());
    this.trading = true;
    await this.syncUsers();
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
      void this.recover(async () => batch).then((left) => unreconciled.push(...left));
    }, 10_000);
    housekeeping.unref();
    userSync.unref();
    retryRecovery.unref();
    this.timers.push(housekeeping, userSync, retryRecovery);
    this.logger.info('trading engine started');
  }

  /** Reconciles unfinished trades and hands them to decisions and execution; returns those not reconciled yet. */
  private recover(unfinished: () => Promise<TradeState[]>): Promise<TradeState[]> {
    return recoverTrades({
      unfinished,
      venues: this.deps.venues,
      account: this.deps.account,
      now: () => new Date(this.now()),
      logger: this.logger,
      adopt: async (state) => {
        const limits = await this.limitsFor(state.userId);
        if (limits) this.core.adopt(trackedOf(state, this.params.maxHoldMs), limits);
        this.executor.resume(state);
        // A deactivated user's position is not left open: nothing would watch it.
        if (!limits) this.executor.requestClose(state.tradeId, 'account deactivated', true);
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
    const tick = this.latest.get(symbol);
    return tick?.binanceMid ?? tick?.derivMid ?? null;
  }

  /** The latest price of each symbol, `profitable` judged against the given minSpread. */
  prices(minSpread: number, symbol?: SymbolId): Prices {
    const out: Prices = {};
    for (const s of symbol ? [symbol] : SYMBOLS) {
      const tick = this.latest.get(s);
      if (tick) out[s] = toSymbolPrice(tick, minSpread);
    }
    return out;
  }

  private opportunityThreshold(): number {
    return Math.max(this.params.defaultMinSpread, this.core.breakEven(this.params.defaultTakerFee) + this.params.closeBand);
  }

  private onTick(tick: PriceTick): void {
    this.latest.set(tick.symbol, tick);
    this.emit({ type: 'priceUpdate', price: toSymbolPrice(tick, this.params.defaultMinSpread) });
    if (this.trading) this.execute(this.core.onTick(tick));
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
    this.execute(this.core.upsertUser(await this.toLimits(settings)));
  }

  private async syncUsers(): Promise<void> {
    if (!this.trading) return;
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
    return {
      userId: s.userId,
      maxExposure: s.maxExposure,
      maxLoss: s.maxLoss,
      minSpread: Number(s.minSpread),
      takerFee: await this.takerFee(s.userId),
      autoTrade: s.tradingEnabled,
      halted: !s.tradingEnabled && s.tradingHaltedAt !== null,
      realisedPnl: s.realisedPnl,
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

  // ---- commands from the API ----

  async createManualTrade(userId: string, symbol: SymbolId, totalAmount: number): Promise<CommandResult> {
    if (!this.trading) return { ok: false, status: 503, message: NOT_LEADER };
    const settings = await this.deps.users.settings(userId);
    if (!settings) return { ok: false, status: 404, message: 'User not found' };
    const limits = this.core.hasUser(userId) ? { ...(await this.toLimits(settings)), realisedPnl: undefined } : await this.toLimits(settings);
    const result = this.core.manualOpen(limits, symbol, money(totalAmount), this.latest.get(symbol));
    if (!result.ok) return result;
    const trade = await this.openTrade(result.command.trade);
    return trade ? { ok: true, trade } : { ok: false, status: 503, message: 'The trade could not be recorded; nothing was placed. Try again.' };
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

  // ---- execution ----

  private execute(commands: Command[]): void {
    for (const command of commands) {
      switch (command.kind) {
        case 'open':
          void this.openTrade(command.trade);
          break;
        case 'close':
          this.executor.requestClose(command.tradeId, command.reason, command.cancel);
          break;
        case 'halt':
          void this.halt(command.userId, command.realisedPnl, command.maxLoss);
          break;
      }
    }
  }

  private async openTrade(trade: Parameters<TradeExecutor['open']>[0]): Promise<Trade | null> {
    try {
      return await this.executor.open(trade);
    } catch (error) {
      // The write-ahead insert failed: nothing was placed, so the exposure is released at once.
      this.logger.error({ err: error, tradeId: trade.tradeId }, 'could not record a new trade; not placed');
      this.execute(this.core.onEnded(trade.tradeId, money(0)));
      return null;
    }
  }

  private ended(state: TradeState): void {
    this.execute(this.core.onEnded(state.tradeId, money(state.actualProfit)));
  }

  private async halt(userId: string, realisedPnl: string, maxLoss: string): Promise<void> {
    try {
      await this.deps.users.markHalted(userId);
    } catch (error) {
      this.logger.error({ err: error, userId }, 'could not record the trading halt');
    }
    const loss = money(realisedPnl).negated().toFixed(2);
    this.emit({
      type: 'notice',
      userId,
      notice: {
        level: 'warning',
        message: `Trading stopped: your realised loss of ${loss} USDT reached your max loss of ${maxLoss} USDT. Save your trading settings to trade again.`,
      },
    });
  }

  /** Balances from the venues and stats after a fill; coalesced so a burst of fills costs one refresh. */
  private refreshFigures(userId: string): void {
    if (this.figuresBusy.has(userId)) {
      this.figuresBusy.set(userId, true);
      return;
    }
    this.figuresBusy.set(userId, false);
    void (async () => {
      try {
        for (;;) {
          await this.sendFigures(userId);
          if (!this.figuresBusy.get(userId)) break;
          this.figuresBusy.set(userId, false);
        }
      } catch (error) {
        this.logger.warn({ err: error, userId }, 'could not refresh balances and stats');
      } finally {
        this.figuresBusy.delete(userId);
      }
    })();
  }

  private async sendFigures(userId: string): Promise<void> {
    const account = await this.deps.account(userId);
    const [binance, deriv] = await Promise.all([this.deps.venues.binance.balances(account), this.deps.venues.deriv.balances(account)]);
    if (this.deps.figures?.saveBalances) {
      await this.deps.figures.saveBalances(userId, 'binance', binance);
      await this.deps.figures.saveBalances(userId, 'deriv', deriv);
    }
    const num = (b: Record<string, string>) => ({ USDT: Number(b.USDT ?? 0), BTC: Number(b.BTC ?? 0), ETH: Number(b.ETH ?? 0) });
    const stats = this.deps.figures ? await this.deps.figures.stats(userId) : null;
    this.emit({
      type: 'balance_updated',
      userId,
      balance: {
        binance: num(binance),
        deriv: num(deriv),
        updatedAt: new Date(this.now()).toISOString(),
        ...(stats && {
          netProfit: stats.netProfit,
          winRate: stats.winRate,
          totalTrades: stats.totalTrades,
          successfulTrades: stats.successfulTrades,
          failedTrades: stats.failedTrades,
          totalValue: stats.totalValue,
        }),
      },
    });
    if (stats) this.emit({ type: 'stats_updated', userId, stats });
  }

  private emit(event: EngineEvent): void {
    try {
      this.eventSubject.next(event);
    } catch (error) {
      this.logger.error({ err: error, event: event.type }, `event subscriber failed: ${messageOf(error)}`);
    }
  }

  /** For tests and the benchmark: wait until every trade in flight has finished its current step. */
  idle(): Promise<void> {
    return this.executor.idle();
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
