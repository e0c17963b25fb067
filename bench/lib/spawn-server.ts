// Starts bench/lib/api-server.ts (or another server entry speaking the same IPC: { port } once listening, { cpu } when
// sent 'cpu' — bench/api-floor.ts) in a child process through tsx and resolves with its base URL.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** User + system CPU time the server process has used so far, in milliseconds. */
  cpuMs(): Promise<number>;
  stop(): Promise<void>;
}

/** `execArgv` adds Node flags, e.g. `--cpu-prof --cpu-prof-dir=…` to profile the server under load. */
export function spawnApiServer(
  env: Record<string, string>,
  options: { entry?: string; execArgv?: string[] } = {},
): Promise<ServerProcess> {
  const entry = options.entry ?? fileURLToPath(new URL('./api-server.ts', import.meta.url));
  const child = fork(entry, [], {
    env: { ...process.env, ...env },
    execArgv: ['--import', 'tsx', ...(options.execArgv ?? [])],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`api server exited with code ${code} before listening`)));
    child.once('message', (message: { port: number }) => {
      child.removeAllListeners('exit');
      resolve({
        url: `http://127.0.0.1:${message.port}`,
        child,
        cpuMs: () =>
          new Promise((done) => {
            const onMessage = (reply: { cpu?: { user: number; system: number } }) => {
              if (!reply.cpu) return;
              child.off('message', onMessage);
              done((reply.cpu.user + reply.cpu.system) / 1000);
            };
            child.on('message', onMessage);
            child.send('cpu');
          }),
        stop: () =>
          new Promise((done) => {
            if (child.exitCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
  });
}
