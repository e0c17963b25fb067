// Runs a backtest in a worker thread, bounded: at most MAX_RUNNING at once in this process (a 2-core machine serves
// prices and requests too), and the thread is terminated when a replay runs longer than the time limit. A thread that
// answered is kept for the next backtest (idle ones do not hold the process open and end after IDLE_MS), so only the
// first backtest after a quiet spell pays for the thread's start and its loading of the worker's code.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { isCompiled } from '../../paths';
import type { BacktestComputed, BacktestJob } from './backtest';

export type WorkerAnswer =
  { ok: true; result: BacktestComputed } | { ok: false; reason: 'busy' | 'timeout' | 'failed'; message: string };
type Reply = { ok: true; result: BacktestComputed } | { ok: false; message: string };

const MAX_RUNNING = 2;
const IDLE_MS = 60_000;
let running = 0;
const idle: { worker: Worker; timer: NodeJS.Timeout }[] = [];

const require = createRequire(import.meta.url);

/** The ahead-compiled worker entry, which server/launch.js bundles beside the server's own (dist-server/). */
const COMPILED_ENTRY = 'replay-worker.js';

/**
 * The worker's first lines. Ahead-compiled (npm start), this module is part of dist-server/main.js and the worker's
 * entry is the bundle beside it, loaded as it is. From the sources (tsx): register tsx's loader in the worker (a
 * `--import tsx` flag does not reach a worker's module loader on Node 20), then load the TypeScript entry.
 */
function bootstrap(): string {
  if (isCompiled(import.meta.url))
    return `import(${JSON.stringify(new URL(`./${COMPILED_ENTRY}`, import.meta.url).href)});`;
  // The ESM entry of tsx's API, as its package exports name it (require.resolve would give the CommonJS one).
  const pkg = require('tsx/package.json') as { exports: Record<string, { import: { default: string } }> };
  const tsx = pathToFileURL(
    join(dirname(require.resolve('tsx/package.json')), pkg.exports['./esm/api']!.import.default),
  ).href;
  const entry = new URL('./worker.ts', import.meta.url).href;
  return `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(entry)}); });`;
}

function takeWorker(): Worker {
  const kept = idle.pop();
  if (kept) {
    clearTimeout(kept.timer);
    kept.worker.ref();
    return kept.worker;
  }
  const worker = new Worker(bootstrap(), { eval: true });
  // An idle thread that fails or ends is forgotten; with no listener an 'error' would be thrown in this process.
  worker.on('error', () => undefined);
  worker.on('exit', () => {
    const at = idle.findIndex((k) => k.worker === worker);
    if (at >= 0) {
      clearTimeout(idle[at]!.timer);
      idle.splice(at, 1);
    }
  });
  // A job posted before the entry has loaded waits in the thread's port until the entry listens.
  return worker;
}

function keep(worker: Worker): void {
  worker.unref();
  const timer = setTimeout(() => {
    const at = idle.findIndex((k) => k.worker === worker);
    if (at >= 0) idle.splice(at, 1);
    void worker.terminate();
  }, IDLE_MS);
  timer.unref();
  idle.push({ worker, timer });
}

export async function backtestInWorker(job: BacktestJob, timeoutMs: number): Promise<WorkerAnswer> {
  if (running >= MAX_RUNNING)
    return { ok: false, reason: 'busy', message: 'Other backtests are running; try again in a moment' };
  running += 1;
  try {
    const worker = takeWorker();
    return await new Promise<WorkerAnswer>((resolve) => {
      const finish = (answer: WorkerAnswer, reusable: boolean) => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        if (reusable) keep(worker);
        else void worker.terminate();
        resolve(answer);
      };
      const onMessage = (reply: Reply) =>
        finish(reply.ok ? reply : { ok: false, reason: 'failed', message: reply.message }, true);
      const onError = (error: Error) => finish({ ok: false, reason: 'failed', message: error.message }, false);
      const onExit = (code: number) =>
        finish({ ok: false, reason: 'failed', message: `the backtest stopped unexpectedly (exit ${code})` }, false);
      const timer = setTimeout(
        () =>
          finish(
            {
              ok: false,
              reason: 'timeout',
              message: `The backtest took longer than ${timeoutMs / 1000} s and was stopped; try a shorter range or one symbol`,
            },
            false,
          ),
        timeoutMs,
      );
      worker.on('message', onMessage);
      worker.once('error', onError);
      worker.once('exit', onExit);
      const { columns, books } = job;
      worker.postMessage(job, [
        columns.t.buffer,
        columns.symbol.buffer,
        columns.binance.buffer,
        columns.deriv.buffer,
        columns.minute.buffer,
        ...(books ? Object.values(books).map((column: Float64Array | Uint8Array) => column.buffer) : []),
      ] as ArrayBuffer[]);
    });
  } finally {
    running -= 1;
  }
}
