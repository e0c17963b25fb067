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

/**
 * What every screen, toast, push and audit line calls the engine's state for one user: the typed stop kind and the
 * admin's global halt together. A global halt stops every user's new trades whatever their own setting, so it wins:
 * nothing says running while it is in force.
 */
export type EngineStatusKind = 'running' | 'paused' | 'halted-max-loss' | 'halted-admin' | 'off';

export interface EngineStatus {
  kind: EngineStatusKind;
  /** Short, for a label or a badge: 'Running', 'Paused', 'Halted — max loss reached', … */
  label: string;
  /** One sentence (ends with a full stop), for a greeting or a push body. */
  sentence: string;
  /** What lifts it, for a hint under the label; null while running. */
  remedy: string | null;
}

export const ENGINE_STATUS_LABELS: Record<EngineStatusKind, string> = {
  running: 'Running',
  paused: 'Paused',
  'halted-max-loss': 'Halted — max loss reached',
  'halted-admin': 'Halted by an admin',
  off: 'Off',
};

const TURN_ON = 'Turn automated trading on in Settings to trade again.';

/** How each stop that leaves trading off came about, in the trader's words. */
const OFF_BY: Record<'off' | 'flattened' | 'admin', string> = {
  off: 'Automated trading is off.',
  flattened: 'Automated trading is off: you used Stop & flatten.',
  admin: 'Automated trading is off: an admin closed your trades.',
};

/**
 * The engine's state for one user, in words. `stop` is the stored stop kind (null while the user's trading runs);
 * `globalHalt` whether an admin halted trading for everyone; `reason` the text stored beside a pause or halt.
 */
export function engineStatusOf(input: {
  stop: TradingStop | null;
  globalHalt: boolean;
  reason?: string | null;
}): EngineStatus {
  const why = input.reason ? `: ${input.reason}` : '';
  if (input.globalHalt)
    return {
      kind: 'halted-admin',
      label: ENGINE_STATUS_LABELS['halted-admin'],
      sentence: 'Trading is halted by an admin: no new trades open until an admin resumes it.',
      remedy: 'Only an admin can resume it.',
    };
  if (input.stop === null)
    return {
      kind: 'running',
      label: ENGINE_STATUS_LABELS.running,
      sentence: 'Automated trading is running.',
      remedy: null,
    };
  if (input.stop === 'paused')
    return {
      kind: 'paused',
      label: ENGINE_STATUS_LABELS.paused,
      sentence: `Automated trading is paused${why || ' after repeated failed trades'}.`,
      remedy: TURN_ON,
    };
  if (input.stop === 'max-loss')
    return {
      kind: 'halted-max-loss',
      label: ENGINE_STATUS_LABELS['halted-max-loss'],
      sentence: `Automated trading is halted${why || ': your realised drawdown reached Max Loss'}.`,
      remedy: TURN_ON,
    };
  return { kind: 'off', label: ENGINE_STATUS_LABELS.off, sentence: OFF_BY[input.stop], remedy: TURN_ON };
}

/** A toast's text for a change of state: the sentence and what lifts it. */
export const noticeText = (status: EngineStatus): string => `${status.sentence} ${status.remedy ?? ''}`.trim();
