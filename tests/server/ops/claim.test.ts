// The claim on DATA_DIR that lets one process at a time open the embedded database: a live holder is found and
// refuses a second claim; the file a dead holder left, or one whose port another program took, is not a holder; the
// endpoint answers only with the key.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import {
  askHolder,
  CLAIM_FILE,
  claimDataDir,
  DataDirBusyError,
  findHolder,
  type Holder,
} from '../../../server/ops/backup/data-dir-claim';
import { backupGate } from '../../../server/ops/backup/gate';

const dir = mkdtempSync(join(tmpdir(), 'arb-claim-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function body(res: Readable): Promise<string> {
  let text = '';
  for await (const chunk of res) text += String(chunk);
  return text;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

describe('the claim on DATA_DIR', () => {
  it('is found while held, refuses a second claim, and is gone once released', async () => {
    const claim = await claimDataDir(dir, 'backup');
    const holder = await findHolder(dir);
    expect(holder).toMatchObject({ pid: process.pid, role: 'backup' });
    const second = await claimDataDir(dir, 'server').catch((e: unknown) => e);
    expect(second).toBeInstanceOf(DataDirBusyError);
    expect((second as Error).message).toBe(
      `DATA_DIR ${dir} is in use by a backup (npm run backup), process ${process.pid}`,
    );
    await claim.release();
    expect(await findHolder(dir)).toBeNull();
    expect(() => readFileSync(join(dir, CLAIM_FILE))).toThrow();
    await (await claimDataDir(dir, 'server')).release();
  });

  it('takes over from a holder that died, and from a port another program answers', async () => {
    const dead: Holder = { pid: 999_999, role: 'server', port: await freePort(), key: 'k'.repeat(64) };
    writeFileSync(join(dir, CLAIM_FILE), JSON.stringify(dead));
    expect(await findHolder(dir)).toBeNull();
    const other = createServer((_req, res) => res.writeHead(404).end('not ours'));
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
    try {
      const impostor = { ...dead, port: (other.address() as AddressInfo).port };
      writeFileSync(join(dir, CLAIM_FILE), JSON.stringify(impostor));
      expect(await findHolder(dir)).toBeNull();
      const claim = await claimDataDir(dir, 'server');
      expect((await findHolder(dir))?.pid).toBe(process.pid);
      await claim.release();
    } finally {
      await new Promise((r) => other.close(r));
    }
  });

  it('answers backups only with its key, and one at a time', async () => {
    const claim = await claimDataDir(dir, 'server');
    try {
      const holder = (await findHolder(dir))!;
      const starting = await askHolder(holder, '/backup');
      expect(starting.statusCode).toBe(503);
      starting.resume();
      let release: () => void = () => undefined;
      claim.serveBackups(
        backupGate(async () => {
          const stream = new Readable({ read() {} });
          stream.push('backup bytes');
          release = () => stream.push(null);
          return stream;
        }),
      );
      const wrongKey = await askHolder({ ...holder, key: 'x'.repeat(64) }, '/backup');
      expect(wrongKey.statusCode).toBe(401);
      wrongKey.resume();
      const first = await askHolder(holder, '/backup');
      expect(first.statusCode).toBe(200);
      const busy = await askHolder(holder, '/backup');
      expect(busy.statusCode).toBe(409);
      expect(await body(busy)).toContain('A backup is being taken already');
      release();
      expect(await body(first)).toBe('backup bytes');
    } finally {
      await claim.release();
    }
  });
});
