// Keeps the simulated market's price path across restarts and failovers: the instance that trades saves the market's
// state about every second and on shutdown; a process continues from it at start, and an instance that takes over the
// leadership continues from what the last leader saved (its own market ran a path of its own while standing by).
import type { Db } from '../../db/client';
import { loadSimMarket, saveSimMarket } from '../../db/repositories/sim-market';
import type { SavedSimMarket, SimMarket } from '../../venues/sim/market';
import type { Leadership } from '../leader';
import type { EngineLogger } from '../ports';

const SAVE_EVERY_MS = 1000;

export class SimMarketKeeper {
  private timer: NodeJS.Timeout | null = null;
  private saving: Promise<void> | null = null;
  /** When the state this market continues from was saved; a newer save means another instance traded since. */
  private continuedFrom: Date | null = null;
  private logger: EngineLogger | null = null;

  constructor(
    private readonly db: Db,
    private readonly market: SimMarket,
  ) {}

  /** The saved state to build the market from, read before the market exists (so it never quotes another path). */
  static async saved(db: Db): Promise<{ state: SavedSimMarket; savedAt: Date | null }> {
    return loadSimMarket(db);
  }

  /** Records which save the market was built from. */
  builtFrom(savedAt: Date | null): void {
    this.continuedFrom = savedAt;
  }

  /** The leadership, with the market continued before trading begins and saved while this instance trades. */
  around(leadership: Leadership, logger: EngineLogger): Leadership {
    this.logger = logger;
    // Shards never run on the simulated market (a configuration error), so the market is continued and saved by the
    // one instance that holds every user.
    return {
      shards: leadership.shards,
      ...(leadership.lockPid && { lockPid: leadership.lockPid }),
      start: (handlers) =>
        leadership.start({
          onAcquired: async (shards) => {
            await this.continueLatest();
            // Saved once before trading begins, so a kill at any moment after it finds a path to continue (the
            // interval's first save comes a second later).
            await this.save();
            this.startSaving();
            await handlers.onAcquired(shards);
          },
          onLost: (shards) => {
            this.stopSaving();
            handlers.onLost(shards);
          },
          drain: (shard) => handlers.drain(shard),
        }),
      // The last save happens before the lock is released, so that a standby taking over continues from it.
      stop: async () => {
        await this.finish();
        await leadership.stop();
      },
    };
  }

  /** Saves once more and stops saving (shutdown of the instance that trades). */
  private async finish(): Promise<void> {
    const wasSaving = this.timer !== null;
    this.stopSaving();
    await this.saving;
    if (wasSaving) await this.save();
  }

  private async continueLatest(): Promise<void> {
    const { state, savedAt } = await loadSimMarket(this.db);
    if (!savedAt || (this.continuedFrom && savedAt <= this.continuedFrom)) return;
    this.market.resume(state);
    this.continuedFrom = savedAt;
    this.logger?.info({ savedAt }, 'simulated market continues from its saved state');
  }

  private startSaving(): void {
    this.timer ??= setInterval(() => {
      this.saving ??= this.save().finally(() => (this.saving = null));
    }, SAVE_EVERY_MS);
    this.timer.unref();
  }

  private stopSaving(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private async save(): Promise<void> {
    const at = new Date();
    try {
      await saveSimMarket(this.db, this.market.snapshot(), at);
      this.continuedFrom = at;
    } catch (error) {
      this.logger?.warn({ err: error }, 'could not save the simulated market; will try again');
    }
  }
}
