// Calibration of the simulated market (`npx tsx bench/market.ts`): a simulated day of each profile, run on the model
// alone and fast-forwarded (no clock), measured at every model step. Beside the two profiles, the market as it was
// before calibration, its parameters reproduced below, measured in the same run.
// Env: BENCH_HOURS (24), BENCH_SEED (1).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SimParams } from '../server/venues/sim/params';
import { CALIBRATED_PARAMS, DEMO_PARAMS } from '../server/venues/sim/profiles';
import { measureMarket, SPREAD_LEVELS_BP, type MarketFigures } from '../tools/market-figures';

const HOURS = Number(process.env.BENCH_HOURS ?? 24);
const SEED = Number(process.env.BENCH_SEED ?? 1);
const HERE = dirname(fileURLToPath(import.meta.url));

/**
 * The defaults before calibration: 4 steps a second, both venues quoting every step, Deriv two steps behind with
 * 1 bp of noise and no basis, 60 % / 75 % volatility, and the demo profile's dislocations.
 */
const BEFORE_CALIBRATION: SimParams = {
  tickMs: 250,
  symbols: {
    'BTC/USDT': { priceRange: [60_000, 100_000], annualVolatility: 0.6, decimals: 2 },
    'ETH/USDT': { priceRange: [2_000, 5_000], annualVolatility: 0.75, decimals: 2 },
  },
  venues: {
    binance: { halfSpread: 0.000005, noise: 0.00002, lagMs: 0, smoothingMs: 0, updateMs: 250 },
    deriv: { halfSpread: 0.0002, noise: 0.0001, lagMs: 500, smoothingMs: 0, updateMs: 250 },
  },
  basis: { mean: 0, sd: 0, halfLifeSeconds: 300 },
  // The demo profile kept these dislocations as they were (0.8 a minute, 30–150 bp).
  dislocation: DEMO_PARAMS.dislocation,
};

const MARKETS: Array<{ name: string; params: SimParams }> = [
  { name: 'before calibration', params: BEFORE_CALIBRATION },
  { name: 'calibrated (default)', params: CALIBRATED_PARAMS },
  { name: 'demo', params: DEMO_PARAMS },
];

const bp = (x: number) => x.toFixed(2);
const pct = (x: number) => `${(x * 100).toFixed(x < 0.001 ? 4 : 2)} %`;

function row(name: string, f: MarketFigures): string {
  const shares = SPREAD_LEVELS_BP.map((level) => pct(f.shareAtOrAbove[level]));
  return [
    name,
    bp(f.medianSpreadBp),
    bp(f.medianAbsBp),
    bp(f.p90AbsBp),
    bp(f.p99AbsBp),
    bp(f.maxAbsBp),
    ...shares,
    f.dislocationsPerHour.toFixed(2),
    f.opportunitiesPerHour.toFixed(2),
  ].join(' | ');
}

function main(): void {
  console.log(
    `Simulated market, ${HOURS} h per profile, seed ${SEED}, both symbols pooled; spreads in bp, rates per symbol per hour.`,
  );
  console.log('(cost floor: a round trip costs about 30 bp; a user with the default limits opens at 35 bp)\n');
  // "abs" is |spread| (a bar would break the markdown table).
  const header = [
    'market',
    'median spread',
    'median abs',
    'p90 abs',
    'p99 abs',
    'max abs',
    ...SPREAD_LEVELS_BP.map((l) => `time abs ≥ ${l}`),
    'dislocations/h',
    'reaches 35 bp/h',
  ];
  console.log(`| ${header.join(' | ')} |`);
  console.log(`|${header.map(() => '---').join('|')}|`);
  const results: Record<string, MarketFigures & { simulatedInMs: number }> = {};
  for (const { name, params } of MARKETS) {
    const started = performance.now();
    const figures = measureMarket(params, SEED, HOURS);
    results[name] = { ...figures, simulatedInMs: Math.round(performance.now() - started) };
    console.log(`| ${row(name, figures)} |`);
  }
  const out = join(HERE, 'results', 'market.json');
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify({ hours: HOURS, seed: SEED, results }, null, 2)}\n`);
  console.log(`\nwritten to ${out}`);
}

main();
