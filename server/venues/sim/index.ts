export { createRng, nextMulberry32, type Rng } from './prng';
export { DEFAULT_SIM_PARAMS, simParams, withOverrides, type SimParams, type SimParamsOverrides } from './params';
export { CALIBRATED_PARAMS, DEMO_PARAMS, SIM_PROFILE_PARAMS } from './profiles';
export { createSimState, stepSim, type DislocationEvent, type SimTick, type SymbolTick } from './model';
export { runSim, simulatePath, type SimPath } from './path';
export { SimMarket, type SimMarketOptions } from './market';
export { SimVenue, type SimVenueOptions } from './venue';
export { InMemoryPaperBook } from './paper-book';
export { DEFAULT_EXECUTION_COSTS, type ExecutionCosts } from './execution';
