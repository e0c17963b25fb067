import { useMemo } from 'react';
import type { EngineState, RiskSummary } from '../../contract/entities';
import { engineStatusOf, type EngineStatus, type TradingStop } from '../../contract/trading-state';
import { useTradingHalt } from './data';
import { useAuth } from './services';

/** A risk summary cached by an older version carries only the coarse state: the stop kind it stands for. */
const STOP_OF_STATE: Record<EngineState, TradingStop | null> = {
  running: null,
  paused: 'paused',
  halted: 'max-loss',
  off: 'off',
};

/**
 * The engine's state for the signed-in user, in the contract's words: the stored stop kind (from the risk summary
 * when the screen has one, else from the user, both kept current by the engine's notices) and the admin's global
 * halt. Null until either is known.
 */
export function useEngineStatus(risk?: RiskSummary | null): EngineStatus | null {
  const { user } = useAuth();
  const { value: halt } = useTradingHalt();
  const stop: TradingStop | null | undefined = risk
    ? risk.stop !== undefined
      ? risk.stop
      : STOP_OF_STATE[risk.state]
    : user
      ? user.tradingStop
      : undefined;
  const globalHalt = halt?.halted ?? false;
  const why = risk ? risk.reason : (user?.tradingPauseReason ?? null);
  return useMemo(
    () => (stop === undefined ? null : engineStatusOf({ stop, globalHalt, reason: why })),
    [stop, globalHalt, why],
  );
}
