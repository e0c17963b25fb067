// The real process, as `npm start` runs it: configuration errors, unusable or loose DATA_DIR, first-start admin, sign-in
// over HTTP, restart on the same data directory, graceful shutdown (also when nobody reads its output any more).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
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

/** Every entry under `dir` whose mode is not owner-only (0700 directories, 0600 files), as 'mode path'. */
function notOwnerOnly(dir: string): string[] {
  const found: string[] = [];
  const visit = (path: string) => {
    const stats = statSync(path);
    const mode = stats.mode & 0o777;
    if (mode !== (stats.isDirectory() ? 0o700 : 0o600)) found.push(`${mode.toString(8)} ${path}`);
    if (stats.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(dir);
  return found;
}

/** Resolves true when the process exits within `ms`, false otherwise (then it is killed, so the run never hangs). */
async function exitsWithin(p: Started, ms: number): Promise<number | null | 'hung'> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<'hung'>((r) => (timer = setTimeout(() => r('hung'), ms)));
  const result = await Promise.race([p.exited, hung]);
  clearTimeout(timer);
  if (result === 'hung') {
    p.child.kill('SIGKILL');
    await p.exited;
  }
  return result;
}

function start(env: Record<string, string>): Started {
  const child = spawn(process.execPath, [TSX, 'server/main.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      SKIP_CLIENT_BUILD: '1',
      ENGINE: 'off',
      LOG_LEVEL: 'warn',
      ...env,
    },
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
    void p.exited.then((code) =>
      reject(new Error(`exited with ${code} before listening:\n${p.stdout()}\n${p.stderr()}`)),
    );
  });
}

async function login(url: string, username: string, password: string): Promise<Response> {
  return fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
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

  it('refuses an unusable DATA_DIR with a clear message instead of hanging', async () => {
    const file = join(dataDir, 'not-a-directory');
    writeFileSync(file, 'x');
    for (const bad of ['/proc/x', join(file, 'below')]) {
      const p = start({ PORT: '0', DATA_DIR: bad });
      expect(await exitsWithin(p, 60_000), bad).toBe(1);
      expect(p.stderr(), bad).toContain(`DATA_DIR ${bad} cannot be used`);
    }
    rmSync(file);
  }, 240_000);

  it('keeps DATA_DIR and everything in it owner-only, tightening what it finds at start', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'arb-modes-'));
    try {
      const loose = join(dir, 'copied-in');
      mkdirSync(loose);
      writeFileSync(join(loose, 'file'), 'x');
      chmodSync(loose, 0o777);
      chmodSync(join(loose, 'file'), 0o666);
      chmodSync(dir, 0o755);
      const p = start({ PORT: '0', DATA_DIR: dir });
      await listening(p);
      expect(notOwnerOnly(dir)).toEqual([]);
      p.child.kill('SIGTERM');
      expect(await p.exited).toBe(0);
      expect(notOwnerOnly(dir)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);

  it('shuts down on SIGTERM after the reader of its output has gone, or stopped reading', async () => {
    for (const reader of ['gone', 'stalled'] as const) {
      const dir = mkdtempSync(join(tmpdir(), 'arb-epipe-'));
      const p = start({ PORT: '0', DATA_DIR: dir, LOG_LEVEL: 'info' });
      const url = await listening(p);
      if (reader === 'gone') {
        p.child.stdout.destroy();
        p.child.stderr.destroy();
      } else {
        p.child.stdout.pause();
        p.child.stderr.pause();
      }
      // Enough requests (each logs two lines) to fill a pipe nobody reads, and to write into one nobody holds.
      const requests = Array.from({ length: 600 }, () =>
        fetch(`${url}/api/auth/profile`, { signal: AbortSignal.timeout(20_000) }).then(
          (r) => r.status,
          () => 0,
        ),
      );
      const statuses = await Promise.all(requests);
      expect(
        statuses.filter((s) => s !== 401),
        reader,
      ).toEqual([]);
      p.child.kill('SIGTERM');
      expect(await exitsWithin(p, 20_000), reader).toBe(0);
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);

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
