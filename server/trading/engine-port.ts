// What the trading-state owner needs from this process's engine. The engine satisfies it structurally; the trading
// folder imports nothing of the engine at run time, and the engine never imports this folder (eslint.config.js): it
// reports its own stops through the recorder the process hands it (engine-stops.ts).
import type { CloseUserTradesResult } from '../engine/engine';

export interface TradingEngine {
  /** True while this instance holds the engine's leadership and trades. */
  readonly isTrading: boolean;
  /** Re-reads the user's settings: new limits apply to the next tick; trading on or off takes effect. */
  refreshUser(userId: string): Promise<void>;
  /** Stops automated trading for the user at once; open trades run to their normal close. */
  removeUser(userId: string): Promise<void>;
  /** Closes every open trade of the user, waiting up to `waitMs` for them to end. */
  closeUserTrades(
    userId: string,
    reason: string,
    waitMs: number,
  ): Promise<CloseUserTradesResult | { ok: false; message: string }>;
  /** The global kill switch was just saved; this instance's engine applies it at once. */
  setGlobalHalt(halted: boolean): void;
}
