// Worker thread entry: runs backtests one at a time as they are posted and answers each (or its error's message).
// A replay is CPU-bound for up to seconds; here it never holds up the event loop that serves requests, prices and
// Socket.IO. The thread is kept between backtests (run-in-worker.ts), so only the first pays for loading TypeScript.
import { parentPort } from 'node:worker_threads';
import { runBacktest, type BacktestJob } from './backtest';

parentPort?.on('message', (job: BacktestJob) => {
  try {
    parentPort?.postMessage({ ok: true, result: runBacktest(job) });
  } catch (error) {
    parentPort?.postMessage({ ok: false, message: error instanceof Error ? error.message : String(error) });
  }
});
