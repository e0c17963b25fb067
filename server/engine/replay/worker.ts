// Worker thread entry: runs one backtest and posts its answer (or its error's message) back. A replay is CPU-bound
// for up to seconds; here it never holds up the event loop that serves requests, prices and Socket.IO.
import { parentPort, workerData } from 'node:worker_threads';
import { runBacktest, type BacktestJob } from './backtest';

try {
  parentPort?.postMessage({ ok: true, result: runBacktest(workerData as BacktestJob) });
} catch (error) {
  parentPort?.postMessage({ ok: false, message: error instanceof Error ? error.message : String(error) });
}
