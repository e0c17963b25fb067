// Starts the real server (server/main.ts under tsx) as a child process and talks to it over HTTP on loopback.
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../../..');

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  output(): string;
  /** Resolves with the exit code or signal. */
  exited: Promise<string>;
}

export async function startServer(env: Record<string, string>): Promise<ServerProcess> {
  // One process: node with tsx's loader, not the tsx CLI, which runs the server in a child that SIGKILL would orphan.
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', SKIP_CLIENT_BUILD: '1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<string>((res) => child.on('exit', (code, signal) => res(signal ?? String(code))));
  const url = await new Promise<string>((res, rej) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/[^\s]+)/.exec(output);
      if (match?.[1]) res(match[1]);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exited.then((how) => rej(new Error(`server exited (${how}) before listening:\n${output}`)));
  });
  return { child, url, output: () => output, exited };
}

export async function api(base: string, method: string, path: string, token?: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> & { token?: string; trades?: unknown[]; tradingEnabled?: boolean } }> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...(token && { authorization: `Bearer ${token}` }), ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return { status: res.status, json: await res.json() };
}
