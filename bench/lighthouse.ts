// Lighthouse 12.8.2 (mobile, its default emulation and throttling) on the built app served by the real server
// (compressed, as production). Pages: /login (first visit) — the only page reachable without a session.
// Targets: performance ≥ 98, accessibility ≥ 95, best practices 100, SEO ≥ 90.
// Run: npx tsx bench/lighthouse.ts   → prints the scores and what fell short; writes bench/results/lighthouse.json
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../tools/chromium';
import { startPwaServer } from './pwa-server';

const TARGETS = { performance: 98, accessibility: 95, 'best-practices': 100, seo: 90 } as const;
type Category = keyof typeof TARGETS;

interface LighthouseReport {
  categories: Record<Category, { score: number | null; auditRefs: Array<{ id: string; weight: number }> }>;
  audits: Record<
    string,
    {
      id: string;
      title: string;
      score: number | null;
      scoreDisplayMode: string;
      displayValue?: string;
      numericValue?: number;
    }
  >;
}

const lighthouseBin = fileURLToPath(new URL('../node_modules/lighthouse/cli/index.js', import.meta.url));

function runLighthouse(url: string): LighthouseReport {
  const r = spawnSync(
    process.execPath,
    [
      lighthouseBin,
      url,
      '--quiet',
      '--output=json',
      '--output-path=stdout',
      `--only-categories=${Object.keys(TARGETS).join(',')}`,
      `--chrome-flags=--headless=new ${CHROMIUM_ARGS.join(' ')}`,
    ],
    { env: { ...process.env, CHROME_PATH: CHROMIUM_PATH }, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  if (r.status !== 0) throw new Error(`lighthouse failed (${r.status}): ${r.stderr.slice(-2000)}`);
  return JSON.parse(r.stdout) as LighthouseReport;
}

const server = await startPwaServer();
try {
  const pages = ['/login'];
  const results = [];
  for (const path of pages) {
    const report = runLighthouse(`${server.url}${path}`);
    const scores = Object.fromEntries(
      (Object.keys(TARGETS) as Category[]).map((c) => [c, Math.round((report.categories[c].score ?? 0) * 100)]),
    ) as Record<Category, number>;
    // Audits that cost points, per category (weighted, binary or numeric ones below a full score).
    const shortfalls = Object.fromEntries(
      (Object.keys(TARGETS) as Category[]).map((c) => [
        c,
        report.categories[c].auditRefs
          .map((ref) => report.audits[ref.id])
          .filter(
            (a): a is NonNullable<typeof a> =>
              !!a &&
              a.score !== null &&
              a.score < 1 &&
              a.scoreDisplayMode !== 'informative' &&
              a.scoreDisplayMode !== 'notApplicable',
          )
          .map((a) => ({ id: a.id, title: a.title, score: a.score, displayValue: a.displayValue })),
      ]),
    );
    const metrics = Object.fromEntries(
      [
        'first-contentful-paint',
        'largest-contentful-paint',
        'total-blocking-time',
        'cumulative-layout-shift',
        'speed-index',
        'interactive',
      ].map((id) => [id, report.audits[id]?.displayValue ?? null]),
    );
    results.push({
      path,
      scores,
      metrics,
      shortfalls,
      meetsTargets: (Object.keys(TARGETS) as Category[]).every((c) => scores[c] >= TARGETS[c]),
    });
    console.log(
      `${path}: ${(Object.keys(TARGETS) as Category[]).map((c) => `${c} ${scores[c]} (target ${TARGETS[c]})`).join(', ')}`,
    );
    console.log(
      `  ${Object.entries(metrics)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}`,
    );
    for (const [c, list] of Object.entries(shortfalls))
      for (const a of list) console.log(`  ${c}: ${a.id} — ${a.title}${a.displayValue ? ` (${a.displayValue})` : ''}`);
  }
  mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
  writeFileSync(
    new URL('./results/lighthouse.json', import.meta.url),
    `${JSON.stringify({ benchmark: 'lighthouse', lighthouse: '12.8.2', formFactor: 'mobile', targets: TARGETS, results, at: new Date().toISOString() }, null, 2)}\n`,
  );
} finally {
  await server.stop();
}
