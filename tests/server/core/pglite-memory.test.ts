// The embedded database runs with the memory settings chosen for small machines, on a cluster created outside the
// server's process (initdb's WebAssembly heap would otherwise stay resident for the life of the server).
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../server/db/client';

describe('embedded PGlite memory', () => {
  it('creates a new cluster, owner-only, and runs with 16 MB of shared buffers', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'arb-pglite-memory-'));
    try {
      const database = await openDatabase({ dataDir, databaseUrl: undefined });
      try {
        const result = (await database.db.execute(sql`show shared_buffers`)) as unknown as {
          rows: Array<{ shared_buffers: string }>;
        };
        expect(result.rows[0]?.shared_buffers).toBe('16MB');
      } finally {
        await database.close();
      }
      expect(statSync(join(dataDir, 'db', 'PG_VERSION')).mode & 0o777).toBe(0o600);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
