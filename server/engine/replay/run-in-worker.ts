// Runs a backtest in a worker thread, bounded: at most MAX_RUNNING at once in this process (a 2-core machine serves
// prices and requests too), and terminated when it runs longer than the time limit.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { BacktestComputed, BacktestJob } from './backtest';

export type WorkerAnswer = { ok: true; result: BacktestComputed } | { ok: false; reason: 'busy' | 'timeout' | 'failed'; message: string };

const MAX_RUNNING = 2;
let running = 0;

const require = createRequire(import.meta.url);

/**
 * The worker's first lines: register tsx's loader in the worker (a `--import tsx` flag does not reach a worker's
 * module loader on Node 20), then load the TypeScript entry — as the server process itself runs (npm start).
 */
function bootstrap(): string {
  // The ESM entry of tsx's API, as its package exports name it (require.resolve would give the CommonJS one).
  const pkg = require('tsx/package.json') as { exports: Record<string, { import: { default: string } }> };
  const tsx = pathToFileURL(join(dirname(require.resolve('tsx/package.json')), pkg.exports['./esm/api']!.import.default)).href;
  const entry = new URL('./worker.ts', import.meta.url).href;
  return `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(entry)}); });`;
}

export async function backtestInWorker(job: BacktestJob, timeoutMs: number): Promise<WorkerAnswer> {
  if (running >= MAX_RUNNING) return { ok: false, reason: 'busy', message: 'Other backtests are running; try again in a moment' };
  running += 1;
  try {
    const { columns } = job;
    const worker = new Worker(bootstrap(), {
      eval: true,
      workerData: job,
      transferList: [columns.t.buffer, columns.symbol.buffer, columns.binance.buffer, columns.deriv.buffer, columns.minute.buffer] as ArrayBuffer[],
    });
    return await new Promise<WorkerAnswer>((resolve) => {
      const timer = setTimeout(() => {
        void worker.terminate();
        resolve({ ok: false, reason: 'timeout', message: `The backtest took longer than ${timeoutMs / 1000} s and was stopped; try a shorter range or one symbol` });
      }, timeoutMs);
      const done = (answer: WorkerAnswer) => {
        clearTimeout(timer);
        void worker.terminate();
        resolve(answer);
      };
      worker.once('message', (message: { ok: true; result: BacktestComputed } | { ok: false; message: string }) =>
        done(message.ok ? message : { ok: false, reason: 'failed', message: message.message }),
      );
      worker.once('error', (error) => done({ ok: false, reason: 'failed', message: error.message }));
      worker.once('exit', (code) => done({ ok: false, reason: 'failed', message: `the backtest stopped unexpectedly (exit ${code})` }));
    });
  } finally {
    running -= 1;
  }
}
