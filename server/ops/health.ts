// Readiness: the database answers, every committed migration is applied, and the client build is there (where this
// instance serves one). Asked by probes every few seconds, so one check runs at a time and its answer serves every
// probe for a second; each check is bounded by a timeout, so a lost database turns the answer to 503 within seconds.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { committedMigrations } from '../db/migrate';
import type { DatabaseProbe } from '../db/probe';
import type { ClientBuildStatus } from '../http/client';

export interface ReadinessSources {
  probe: DatabaseProbe;
  /** The built PWA this instance serves, and its build's state; omitted on an instance that serves none. */
  client?: { dir: string; build: ClientBuildStatus };
}

export interface Readiness {
  ready: boolean;
  checks: { database: string; migrations: string; client?: string };
  /** What is missing, one line each; empty when ready. */
  missing: string[];
}

/** How long the database may take to answer a readiness probe. */
export const PROBE_TIMEOUT_MS = 2000;
/** How long one answer serves further probes. */
const ANSWER_FOR_MS = 1000;

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

async function checkOnce(sources: ReadinessSources): Promise<Readiness> {
  const missing: string[] = [];
  const checks: Readiness['checks'] = { database: 'ok', migrations: 'ok' };
  try {
    const { latestMigration } = await sources.probe(PROBE_TIMEOUT_MS);
    const newest = committedMigrations().at(-1) ?? 0;
    if (latestMigration === null || latestMigration < newest) {
      checks.migrations = 'pending';
      missing.push('migrations: the database lacks migrations this version needs (restart to apply them)');
    }
  } catch (error) {
    checks.database = 'unavailable';
    checks.migrations = 'unknown';
    missing.push(`database: ${messageOf(error)}`);
  }
  if (sources.client) {
    const { dir, build } = sources.client;
    const built = build.state === 'ready' && existsSync(join(dir, 'index.html'));
    checks.client = built ? 'ok' : build.state === 'ready' ? 'missing' : build.state;
    if (!built)
      missing.push(
        build.state === 'building'
          ? 'client: the app is being built'
          : build.state === 'failed'
            ? 'client: the app build failed (see the log)'
            : `client: no build in ${dir}`,
      );
  }
  return { ready: missing.length === 0, checks, missing };
}

export function readinessCheck(sources: ReadinessSources): () => Promise<Readiness> {
  let last: { settledAt: number | null; answer: Promise<Readiness> } | null = null;
  return () => {
    const settledAt = last?.settledAt;
    if (!last || (settledAt != null && Date.now() - settledAt >= ANSWER_FOR_MS)) {
      const entry: { settledAt: number | null; answer: Promise<Readiness> } = {
        settledAt: null,
        answer: checkOnce(sources),
      };
      void entry.answer.then(() => (entry.settledAt = Date.now()));
      last = entry;
    }
    return last.answer;
  };
}
