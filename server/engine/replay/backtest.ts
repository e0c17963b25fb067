// One backtest from recorded history to its answer: the replay, its figures and its equity series. Pure and
// synchronous; the worker (worker.ts) runs it off the request thread, the benchmark runs it directly.
import type { BacktestResult } from '../../../contract/backtest';
import { BACKTEST_EQUITY_POINTS } from '../../../contract/backtest';
import { equitySeries, replayFigures } from './figures';
import { quotesOf, type HistoryColumns } from './history';
import { replayQuotes } from './replay';

export interface BacktestJob {
  columns: HistoryColumns;
  limits: BacktestResult['limits'];
  from: number;
  to: number;
}

export type BacktestComputed = Pick<BacktestResult, 'figures' | 'stopped' | 'openAtEnd' | 'equity'>;

export function runBacktest(job: BacktestJob): BacktestComputed {
  const { limits } = job;
  const outcome = replayQuotes(quotesOf(job.columns), {
    minSpread: limits.minSpread,
    maxExposure: String(limits.maxExposure),
    maxLoss: String(limits.maxLoss),
  });
  return {
    figures: replayFigures(outcome),
    stopped: outcome.stopped ? { reason: outcome.stopped.reason, at: new Date(outcome.stopped.at).toISOString() } : null,
    openAtEnd: outcome.open,
    equity: equitySeries(outcome, job.from, job.to, BACKTEST_EQUITY_POINTS),
  };
}
