// Which users the engine trades for, and with what limits. Settings are read from the user directory when a user's
// change reaches this instance and every few seconds for every trading user (changes made through other instances),
// turned into the core's limits with the user's own Binance taker fee, and handed to the decisions.
import { isEngineStop } from '../../contract/trading-state';
import type { Venue } from '../venues/types';
import type { VenueId } from '../../contract/domain';
import type { TradingParams } from './costs';
import type { AccountLoader, EngineLogger, TradingSettings, UserDirectory } from './ports';
import type { Command, TradingCore, UserLimits } from './trading-core';

export interface UserRegistryDeps {
  venues: Record<VenueId, Venue>;
  users: UserDirectory;
  account: AccountLoader;
  params: TradingParams;
  core: TradingCore;
  /** Carries out the core's commands; resolves the reads among them (execution.ts). */
  execute(commands: Command[]): Promise<void>[];
  logger(): EngineLogger;
}

export class UserRegistry {
  /** Users trading automatically as of the last settings read. */
  private readonly auto = new Set<string>();
  /** Each user's Binance taker fee, read once from the venue (the default when it cannot say). */
  private readonly fees = new Map<string, number>();

  constructor(private readonly deps: UserRegistryDeps) {}

  /** The users trading automatically as of the last read. */
  get autoUsers(): ReadonlySet<string> {
    return this.auto;
  }

  /** Stops automated trading for the user at once; open trades run to their normal close. */
  remove(userId: string): void {
    this.auto.delete(userId);
    this.deps.core.removeUser(userId);
  }

  /** Re-reads the user's settings (after they changed); resolves once the user's realised figure is read. */
  async refresh(userId: string): Promise<void> {
    const settings = await this.deps.users.settings(userId);
    if (!settings || !settings.tradingEnabled) {
      this.remove(userId);
      return;
    }
    this.auto.add(userId);
    // Answered once the realised figure is read, so the user trades from the very next tick.
    await Promise.all(this.deps.execute(this.deps.core.upsertUser(await this.toLimits(settings))));
  }

  /**
   * Every trading user's settings, read again: changes made through other instances or straight in the database.
   * Only the users `ours` says this instance trades (its engine shards) are kept.
   */
  async sync(ours: (userId: string) => boolean = () => true): Promise<void> {
    try {
      const enabled = (await this.deps.users.tradingUsers()).filter((s) => ours(s.userId));
      const ids = new Set(enabled.map((s) => s.userId));
      for (const settings of enabled) this.deps.execute(this.deps.core.upsertUser(await this.toLimits(settings)));
      for (const id of this.auto) if (!ids.has(id)) this.deps.core.removeUser(id);
      this.auto.clear();
      for (const id of ids) this.auto.add(id);
    } catch (error) {
      this.deps.logger().error({ err: error }, 'could not read trading users');
    }
  }

  /** An active user's limits (trading or not); null when the user is unknown, deleted or deactivated. */
  async limitsFor(userId: string): Promise<UserLimits | null> {
    const settings = await this.deps.users.settings(userId);
    return settings ? this.toLimits(settings) : null;
  }

  async toLimits(s: TradingSettings): Promise<UserLimits> {
    return {
      userId: s.userId,
      maxExposure: s.maxExposure,
      maxLoss: s.maxLoss,
      minSpread: Number(s.minSpread),
      takerFee: await this.takerFee(s.userId),
      autoTrade: s.tradingEnabled,
      // The engine's own stops hold until trading is turned on again; the kind is stored, never read from a reason.
      stopped: isEngineStop(s.tradingStop) ? s.tradingStop : null,
      windowStart: s.tradingEnabledAt?.getTime() ?? null,
      symbols: s.symbols,
    };
  }

  private async takerFee(userId: string): Promise<number> {
    const known = this.fees.get(userId);
    if (known !== undefined) return known;
    let fee = this.deps.params.defaultTakerFee;
    try {
      const rate = Number(await this.deps.venues.binance.takerFeeRate(await this.deps.account(userId)));
      if (Number.isFinite(rate) && rate >= 0) fee = rate;
    } catch {
      // unknown: the default applies (contract/costs.ts)
    }
    this.fees.set(userId, fee);
    return fee;
  }
}
