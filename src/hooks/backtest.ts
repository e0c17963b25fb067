import { useCallback } from 'react';
import type { BacktestBody, BacktestResult } from '../../contract/backtest';
import { runBacktest } from '../services/backtest/backtest';
import { useServices } from './services';

/** The Backtest tab's call, bound to the signed-in REST client. */
export function useRunBacktest(): (body: BacktestBody, isOnline: () => boolean) => Promise<BacktestResult> {
  const { http } = useServices();
  return useCallback((body, isOnline) => runBacktest(http, body, isOnline), [http]);
}
