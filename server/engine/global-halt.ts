// The admin's global kill switch as the engine applies it: read from the database when trading begins, with every
// settings sync and before each trade is placed (a halt saved through another instance stops the next open), and set
// at once by the API of this instance. The decisions (trading-core.ts) hold the switch; this keeps it current.
import type { EngineLogger, HaltSource } from './ports';
import type { TradingCore } from './trading-core';

export class GlobalHalt {
  /** Whether the stored switch has been read (or set by the API) since this process started. */
  private known = false;
  /** The read on its way: the trades of a burst share it rather than each asking the database. */
  private reading: Promise<boolean> | null = null;

  constructor(
    private readonly core: TradingCore,
    private readonly source: HaltSource | undefined,
    private readonly logger: () => EngineLogger,
  ) {}

  get halted(): boolean {
    return this.core.globallyHalted;
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
      const halted = await this.source();
      this.set(halted);
      return halted;
    } catch (error) {
      this.logger().error({ err: error }, 'could not read the global kill switch; keeping the last known state');
      if (!this.known) this.core.setGlobalHalt(true);
      return this.core.globallyHalted;
    }
  }

  /** The switch as just saved through this instance (other instances read it from the database). */
  set(halted: boolean): void {
    this.known = true;
    if (halted !== this.core.globallyHalted)
      this.logger().warn(
        { event: halted ? 'global_halt' : 'global_resume' },
        halted ? 'trading halted for every user by an admin' : 'trading resumed by an admin',
      );
    this.core.setGlobalHalt(halted);
  }
}
