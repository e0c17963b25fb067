// Orchestrator-side helpers for the fan-out benchmark: fork a TypeScript child and await its typed replies.
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface Child<Reply extends { type: string }> {
  process: ChildProcess;
  send(command: object): void;
  /** The next reply of this type (in arrival order, kept if it came before the call), or an error after `timeoutMs`. */
  next<T extends Reply['type']>(type: T, timeoutMs?: number): Promise<Extract<Reply, { type: T }>>;
  stop(): Promise<void>;
}

export function forkChild<Reply extends { type: string }>(script: string, args: string[]): Child<Reply> {
  const path = fileURLToPath(new URL(script, import.meta.url));
  const child = fork(path, args, { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const waiting = new Map<string, Array<(reply: Reply) => void>>();
  // Replies nobody waits for yet are kept in order, so a fast answer is never lost.
  const unclaimed = new Map<string, Reply[]>();
  child.on('message', (reply: Reply) => {
    const waiter = waiting.get(reply.type)?.shift();
    if (waiter) waiter(reply);
    else unclaimed.set(reply.type, [...(unclaimed.get(reply.type) ?? []), reply]);
  });
  return {
    process: child,
    send: (command) => void child.send(command),
    next(type, timeoutMs = 60_000) {
      const early = unclaimed.get(type)?.shift();
      if (early) return Promise.resolve(early as Extract<Reply, { type: typeof type }>);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${script}: no '${type}' within ${timeoutMs} ms`)), timeoutMs);
        const exit = (code: number | null) =>
          reject(new Error(`${script} exited (${String(code)}) while waiting for '${type}'`));
        child.once('exit', exit);
        const queue = waiting.get(type) ?? [];
        queue.push((reply) => {
          clearTimeout(timer);
          child.off('exit', exit);
          resolve(reply as Extract<Reply, { type: typeof type }>);
        });
        waiting.set(type, queue);
      });
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      if (child.connected) child.send({ type: 'stop' });
      const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(killer);
    },
  };
}
