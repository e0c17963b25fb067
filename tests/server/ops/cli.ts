// Runs `npm run backup` / `npm run restore` as the operator would (the same scripts, under tsx), with the given
// environment, and answers the exit code and what they printed.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../../..');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(command: 'backup' | 'restore', args: string[], env: Record<string, string>): Promise<CliRun> {
  const child = spawn(process.execPath, ['--import', 'tsx', `server/ops/backup/${command}-cli.ts`, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((res) => child.on('close', (code) => res({ code, stdout, stderr })));
}
