// Entry of the benchmark's server process: the product's own process file, under a name of its own so that tools
// stopping "server/main.ts" processes elsewhere on a shared machine leave the benchmark's server alone.
import '../server/main';
