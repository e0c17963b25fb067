// The real process, as `npm start` runs it: configuration errors, first-start admin, sign-in over HTTP, restart on the
// same data directory, graceful shutdown.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');
const TSX = join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');

interface Started {
  child: ChildProcessWithoutNullStreams;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

function start(env: Record<string, string>): Started {
  const child = spawn(process.execPath, [TSX, 'server/main.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', SKIP_CLIENT_BUILD: '1', ENGINE: 'off', LOG_LEVEL: 'warn', ...env },
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** Resolves with the URL once the process says it listens; rejects if it exits first. */
function listening(p: Started): Promise<string> {
  return new Promise((resolveUrl, reject) => {
    const check = () => {
      const match = /listening on (http:\/\/\S+)/.exec(p.stdout());
      if (match?.[1]) {
        p.child.stdout.off('data', check);
        resolveUrl(match[1]);
      }
    };
    p.child.stdout.on('data', check);
    void p.exited.then((code) => reject(new Error(`exited with ${code} before listening:\n${p.stdout()}\n${p.stderr()}`)));
  });
}

async function login(url: string, username: string, password: string): Promise<Response> {
  return fetch(`${url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password }) });
}

describe('server process', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'arb-process-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('exits with code 1 and a clear message on bad configuration', async () => {
    const p = start({ PORT: 'eighty', MARKET: 'paper', DATA_DIR: dataDir });
    expect(await p.exited).toBe(1);
    expect(p.stderr()).toContain('PORT must be a whole number');
    expect(p.stderr()).toContain("MARKET must be 'sim' or 'live'");
  }, 120_000);

  it('creates the first admin with a printed password, serves the API, restarts on the same data and stops on SIGTERM', async () => {
    const first = start({ PORT: '0', DATA_DIR: dataDir });
    const url = await listening(first);
    const password = /password: (\S+)/.exec(first.stdout())?.[1];
    expect(password).toBeDefined();
    expect(password!.length).toBeGreaterThanOrEqual(16);
    expect(first.stdout()).toContain('This password is shown only during this first start');
    // Printed again as the last start-up line, after the listening line, so later log lines cannot bury it.
    await expect.poll(() => first.stdout().split('password: ').length - 1).toBe(2);
    expect(first.stdout().lastIndexOf(`password: ${password}`)).toBeGreaterThan(first.stdout().indexOf('listening on'));

    const res = await login(url, 'admin@arbitrage.local', password!);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { token: string; user: { role: string } };
    expect(body.user.role).toBe('admin');
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    // Same data directory: no second admin, no new password, the old token still verifies (same signing key).
    const second = start({ PORT: '0', DATA_DIR: dataDir });
    const url2 = await listening(second);
    expect(second.stdout()).not.toContain('password:');
    const profile = await fetch(`${url2}/api/auth/profile`, { headers: { authorization: `Bearer ${body.token}` } });
    expect(profile.status).toBe(200);
    expect((await login(url2, 'admin', password!)).status).toBe(200);
    second.child.kill('SIGINT');
    expect(await second.exited).toBe(0);
  }, 180_000);
});
