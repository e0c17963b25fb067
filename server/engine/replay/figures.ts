// The figures of a replay, with the definitions the Stats figures use (contract/figures.ts) and the drawdown the
// engine's maxLoss measures (drawdown.ts), and an equity series of bounded size.
import type { BacktestEquityPoint, BacktestFigures } from '../../../contract/backtest';
import { isDecidedTrade, isWinningTrade, runningEquity, winRate } from '../../../contract/figures';
import { money, Money } from '../decimal';
import { drawdownOf, EMPTY_WINDOW, foldRealised, MONEY } from '../drawdown';
import type { ReplayOutcome } from './replay';

export function replayFigures(outcome: ReplayOutcome): BacktestFigures {
  let window = EMPTY_WINDOW;
  let maxDrawdown = money(0);
  let won = 0;
  let decided = 0;
  for (const trade of outcome.trades) {
    window = foldRealised(window, money(trade.actualProfit));
    maxDrawdown = Money.max(maxDrawdown, drawdownOf(window));
    const row = {
      status: trade.status as 'completed' | 'failed' | 'cancelled',
      actualProfit: Number(trade.actualProfit),
    };
    if (isWinningTrade(row)) won += 1;
    if (isDecidedTrade(row)) decided += 1;
  }
  return {
    trades: outcome.trades.length,
    winRate: winRate(won, decided),
    netProfit: window.current.toNumber(),
    maxDrawdown: maxDrawdown.toNumber(),
    exposureUsed: outcome.peakCommitted.toNumber(),
  };
}

/**
 * Realised P&L from `from` to `to`, a step at each finished trade. Beyond `maxPoints` the range is cut into equal
 * buckets and each keeps its lowest and its last value, so a dip the drawdown reports is still drawn.
 */
export function equitySeries(
  outcome: ReplayOutcome,
  from: number,
  to: number,
  maxPoints: number,
): BacktestEquityPoint[] {
  // The equity curve's definition (contract/figures.ts), in Money; the trades come in the order they closed.
  const curve = runningEquity(
    MONEY,
    outcome.trades.map((trade) => ({ t: trade.closedAt, profit: money(trade.actualProfit) })),
  ).map(({ t, equity }) => ({ t, equity: equity.toNumber() }));
  const steps: BacktestEquityPoint[] = [{ t: from, equity: 0 }, ...curve];
  steps.push({ t: to, equity: curve[curve.length - 1]?.equity ?? 0 });
  if (steps.length <= maxPoints) return steps;
  const buckets = Math.max(1, Math.floor((maxPoints - 2) / 2));
  const width = (to - from) / buckets;
  const kept: BacktestEquityPoint[] = [steps[0]!];
  let b = 0;
  let low: BacktestEquityPoint | null = null;
  let last: BacktestEquityPoint | null = null;
  const flush = () => {
    if (low && last)
      kept.push(...(low === last || low.t === last.t ? [last] : low.t < last.t ? [low, last] : [last, low]));
    low = null;
    last = null;
  };
  for (const point of steps.slice(1, -1)) {
    const bucket = Math.min(buckets - 1, Math.floor((point.t - from) / width));
    if (bucket !== b) {
      flush();
      b = bucket;
    }
    if (!low || point.equity < low.equity) low = point;
    last = point;
  }
  flush();
  kept.push(steps[steps.length - 1]!);
  return kept;
}
