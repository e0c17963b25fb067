// The backtest's worker thread and its bounds: the answer a worker gives is the replay's own; a replay past the time
// limit is stopped and answered with a message; more than two at once are turned away instead of queued.
import { describe, expect, it } from 'vitest';
import { DEFAULT_SYMBOLS as SYMBOLS } from '../../../contract/pairs';
import { runBacktest, type BacktestJob } from '../../../server/engine/replay/backtest';
import { toColumns, type HistoryRow } from '../../../server/engine/replay/history';
import { backtestInWorker } from '../../../server/engine/replay/run-in-worker';
import { runSim } from '../../../server/venues/sim/path';
import { DEMO_PARAMS } from '../../../server/venues/sim/profiles';

const START = Date.parse('2026-11-01T00:00:00Z');

/** Ten minutes of the demo market at one sample a second: a fresh copy each time, as a job's buffers are transferred. */
function job(): BacktestJob {
  const rows: HistoryRow[] = [];
  let step = 0;
  runSim(9, 6000, DEMO_PARAMS, (tick) => {
    if (step++ % 10 !== 0) return;
    for (const symbol of SYMBOLS) {
      const { binance, deriv } = tick.symbols[symbol]!.quotes;
      rows.push({
        t: START + step * 100,
        symbol,
        binance: (binance.bid + binance.ask) / 2,
        deriv: (deriv.bid + deriv.ask) / 2,
        minute: false,
      });
    }
  });
  return {
    columns: toColumns(rows),
    limits: { minSpread: 0.002, maxExposure: 1000, maxLoss: 100 },
    from: START,
    to: START + 600_000,
  };
}

describe('backtest in a worker thread', () => {
  it('answers what the replay computes', async () => {
    const answer = await backtestInWorker(job(), 10_000);
    expect(answer).toEqual({ ok: true, result: runBacktest(job()) });
    if (answer.ok) expect(answer.result.figures.trades).toBeGreaterThan(0);
  });

  it('stops a replay that runs past the time limit', async () => {
    expect(await backtestInWorker(job(), 1)).toMatchObject({
      ok: false,
      reason: 'timeout',
      message: 'The backtest took longer than 0.001 s and was stopped; try a shorter range or one symbol',
    });
  });

  it('turns a third backtest away while two run', async () => {
    const answers = await Promise.all([
      backtestInWorker(job(), 10_000),
      backtestInWorker(job(), 10_000),
      backtestInWorker(job(), 10_000),
    ]);
    expect(answers.map((a) => a.ok)).toEqual([true, true, false]);
    expect(answers[2]).toMatchObject({ reason: 'busy', message: 'Other backtests are running; try again in a moment' });
  });
});
