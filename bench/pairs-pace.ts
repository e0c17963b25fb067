// Opportunities a day on the calibrated simulated market with the spec's 2 pairs and with every modelled pair
// (`npx tsx bench/pairs-pace.ts`): what more pairs give a default user to trade. An opportunity is |spread| rising to
// a default user's opening threshold (tools/market-figures.ts). The same seeds drive both runs.
// Env: BENCH_SEEDS (3), BENCH_HOURS (24).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_SYMBOLS } from '../contract/pairs';
import { CALIBRATED_PARAMS, MODELLED_SYMBOLS, withPairs } from '../server/venues/sim/profiles';
import { measureMarket } from '../tools/market-figures';

const SEEDS = Number(process.env.BENCH_SEEDS ?? 3);
const HOURS = Number(process.env.BENCH_HOURS ?? 24);
const HERE = dirname(fileURLToPath(import.meta.url));

const runs = [DEFAULT_SYMBOLS, MODELLED_SYMBOLS].map((symbols) => {
  const params = withPairs(CALIBRATED_PARAMS, symbols);
  const perDay: number[] = [];
  for (let seed = 1; seed <= SEEDS; seed += 1) {
    const figures = measureMarket(params, seed, HOURS);
    perDay.push(figures.opportunitiesPerHour * symbols.length * 24);
  }
  const mean = perDay.reduce((a, b) => a + b, 0) / perDay.length;
  const round = (x: number) => Math.round(x * 10) / 10;
  const result = { pairs: symbols.length, symbols, opportunitiesPerDay: round(mean), bySeed: perDay.map(round) };
  console.log(
    `${symbols.length} pairs: ${result.opportunitiesPerDay} opportunities a day (seeds: ${result.bySeed.join(', ')})`,
  );
  return result;
});
const [two, all] = runs;
if (two && all)
  console.log(
    `  ${all.pairs} pairs beside ${two.pairs}: ×${Math.round((all.opportunitiesPerDay / two.opportunitiesPerDay) * 10) / 10}`,
  );
const out = join(HERE, 'results', 'pairs-pace.json');
mkdirSync(dirname(out), { recursive: true });
writeFileSync(
  out,
  `${JSON.stringify({ benchmark: 'calibrated market opportunities a day by pairs', hours: HOURS, runs }, null, 2)}\n`,
);
console.log(`  written to ${out}`);
