// The admin's global kill switch as the engine applies it: read from the database when trading begins and with every
// settings sync, set at once by the API of this instance, and kept current in memory from the database's change
// notifications (a halt saved through another instance reaches this one at its commit). A trade asks `current()`: the
// switch in memory while the notifications are live and it was confirmed lately, else a read that the trades of a
// burst share. So the decision path pays no database round trip for the switch, and a halt still stops the next open.
import type { EngineLogger, HaltChanges, HaltSource } from './ports';
import type { TradingCore } from './trading-core';

/**
 * How long the switch in memory is trusted while notifications are live (a safety net against a lost one). Without
 * live notifications (none offered, the embedded database, or the listening connection dropped) every trade reads the
 * switch, the trades of a burst sharing one read.
 */
export const HALT_TRUSTED_LIVE_MS = 10_000;

export class GlobalHalt {
  /** Whether the stored switch has been read (or set by the API) since this process started. */
  private known = false;
  /** When the switch in memory was last confirmed (read, notified or set here); 0: read it before the next trade. */
  private confirmedAt = 0;
  /** The read on its way: the trades of a burst share it rather than each asking the database. */
  private reading: Promise<boolean> | null = null;
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly core: TradingCore,
    private readonly source: HaltSource | undefined,
    private readonly logger: () => EngineLogger,
    private readonly changes: HaltChanges | undefined = undefined,
    private readonly now: () => number = Date.now,
  ) {}

  get halted(): boolean {
    return this.core.globallyHalted;
  }

  /** Follows the change notifications (when offered) until `close()`. */
  listen(): void {
    if (!this.changes || this.unsubscribe) return;
    this.unsubscribe = this.changes.subscribe({
      changed: (payload) => this.set(payload === 'true'),
      // Changes may have been missed: the next trade reads the switch again.
      lost: () => (this.confirmedAt = 0),
      live: () => (this.confirmedAt = 0),
    });
  }

  close(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  /** The switch for a trade about to be placed: from memory while it is trusted, else read (shared). */
  current(): Promise<boolean> {
    const live = this.unsubscribe !== null && this.changes?.isLive === true;
    if (live && this.known && this.now() - this.confirmedAt < HALT_TRUSTED_LIVE_MS)
      return Promise.resolve(this.core.globallyHalted);
    return this.read();
  }

  /**
   * Applies the stored switch. A failed read keeps the last known state, except at the first read after start, where
   * not knowing means halted: money is not put at risk on a guess.
   */
  read(): Promise<boolean> {
    // A read joined is at most one database round trip older than one of its own: a halt saved meanwhile stops the
    // next trade (and a halt set through this instance is applied at once by set()).
    this.reading ??= this.readOnce().finally(() => (this.reading = null));
    return this.reading;
  }

  private async readOnce(): Promise<boolean> {
    if (!this.source) return false;
    try {
      // Confirmed as of when the read was asked: a notification arriving meanwhile is newer and is not overwritten
      // by an older answer (set() below only applies the read if nothing confirmed the switch since).
      const asked = this.now();
      const halted = await this.source();
      if (this.confirmedAt <= asked) this.set(halted, asked);
      return this.core.globallyHalted;
    } catch (error) {
      this.logger().error({ err: error }, 'could not read the global kill switch; keeping the last known state');
      if (!this.known) this.core.setGlobalHalt(true);
      return this.core.globallyHalted;
    }
  }

  /** The switch as just saved through this instance, or announced by the database. */
  set(halted: boolean, at = this.now()): void {
    this.known = true;
    this.confirmedAt = Math.max(this.confirmedAt, at);
    if (halted !== this.core.globallyHalted)
      this.logger().warn(
        { event: halted ? 'global_halt' : 'global_resume' },
        halted ? 'trading halted for every user by an admin' : 'trading resumed by an admin',
      );
    this.core.setGlobalHalt(halted);
  }
}
