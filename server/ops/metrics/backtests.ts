// The backtest worker, metered from its caller: how many run now, how each ended, how long it took.
import type { WorkerAnswer } from '../../engine/replay/run-in-worker';
import type { MetricFamilies } from './families';

export async function meterBacktest(m: MetricFamilies, run: () => Promise<WorkerAnswer>): Promise<WorkerAnswer> {
  m.backtestsRunning.inc();
  const stop = m.backtestDuration.startTimer();
  let result = 'failed';
  try {
    const answer = await run();
    result = answer.ok ? 'ok' : answer.reason;
    return answer;
  } finally {
    m.backtestsRunning.dec();
    // A refusal (others running) never reached a worker: its duration would only blur the others'.
    if (result !== 'busy') stop();
    m.backtests.inc({ result });
  }
}
