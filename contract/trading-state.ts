// A user's automated trading as a fact, defined once: running, or stopped with a typed kind stored with the user
// (users.trading_stop), never parsed from a reason text. The reason text stored beside a stop is for people.
import type { EngineState } from './entities';

/**
 * Why a user's automated trading is not running; null while it runs.
 * - `off`: turned off by the user (or never turned on);
 * - `paused`: paused by the engine after repeated failed trades;
 * - `max-loss`: halted by the engine: the realised drawdown reached the user's max loss;
 * - `flattened`: turned off by the user's Stop & flatten, which also closed every open trade;
 * - `admin`: turned off by an admin closing the account's trades (before deactivating or deleting it).
 */
export const TRADING_STOPS = ['off', 'paused', 'max-loss', 'flattened', 'admin'] as const;
export type TradingStop = (typeof TRADING_STOPS)[number];

/** The stops the engine decides by itself; only turning trading on again (a new maxLoss window) lifts them. */
export const ENGINE_STOPS = ['paused', 'max-loss'] as const satisfies readonly TradingStop[];
export type EngineStop = (typeof ENGINE_STOPS)[number];

export const isEngineStop = (stop: TradingStop | null): stop is EngineStop => stop === 'paused' || stop === 'max-loss';

/** The engine's state for one user, from the stored stop kind. */
export function engineStateOf(stop: TradingStop | null): EngineState {
  if (stop === null) return 'running';
  if (stop === 'paused') return 'paused';
  if (stop === 'max-loss') return 'halted';
  return 'off';
}

/** The engine's state as every screen, notification and bot answer names it. */
export const ENGINE_STATE_LABELS: Record<EngineState, string> = {
  running: 'Running',
  off: 'Off',
  paused: 'Paused',
  halted: 'Halted',
};

/** The global kill switch as screens and the bot name it. */
export const HALTED_BY_ADMIN_LABEL = 'Halted by an admin';
