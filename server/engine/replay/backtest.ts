// One backtest from recorded history to its answer: the replay, its figures and its equity series. Pure and
// synchronous; the worker (worker.ts) runs it off the request thread, the benchmark runs it directly.
import type { BacktestResult } from '../../../contract/backtest';
import { BACKTEST_EQUITY_POINTS } from '../../../contract/backtest';
import { DEFAULT_TRADING_PARAMS, type TradingParams } from '../costs';
import { equitySeries, replayFigures } from './figures';
import { emptyBooks, replayInputs, type BookColumns } from './books';
import type { HistoryColumns } from './history';
import { replayQuotes } from './replay';

/** The engine's configured time limits (TRADE_MAX_HOLD_MS, QUOTE_MAX_AGE_MS, QUOTE_MAX_SKEW_MS): plain numbers, to cross to a worker. */
export type ConfiguredParams = Partial<Pick<TradingParams, 'maxHoldMs' | 'quoteMaxAgeMs' | 'quoteMaxSkewMs'>>;

export interface BacktestJob {
  /** Mids, where no books were recorded yet (before the books existed). */
  columns: HistoryColumns;
  /** The books the engine decided on. */
  books?: BookColumns;
  params?: ConfiguredParams;
  limits: BacktestResult['limits'];
  from: number;
  to: number;
}

export type BacktestComputed = Pick<BacktestResult, 'figures' | 'stopped' | 'openAtEnd' | 'equity'>;

export function runBacktest(job: BacktestJob): BacktestComputed {
  const { limits } = job;
  const outcome = replayQuotes(
    replayInputs(job.columns, job.books ?? emptyBooks()),
    { minSpread: limits.minSpread, maxExposure: String(limits.maxExposure), maxLoss: String(limits.maxLoss) },
    { params: { ...DEFAULT_TRADING_PARAMS, ...job.params } },
  );
  return {
    figures: replayFigures(outcome),
    stopped: outcome.stopped
      ? { reason: outcome.stopped.reason, at: new Date(outcome.stopped.at).toISOString() }
      : null,
    openAtEnd: outcome.open,
    equity: equitySeries(outcome, job.from, job.to, BACKTEST_EQUITY_POINTS),
  };
}
