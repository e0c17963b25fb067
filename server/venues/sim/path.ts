// A whole simulated path at once, without real time: for tests, statistics and backtests.
import { createSimState, stepSim, type DislocationEvent, type SimTick } from './model';
import { DEFAULT_SIM_PARAMS, type SimParams } from './params';

export interface SimPath {
  ticks: SimTick[];
  dislocations: DislocationEvent[];
}

/** The first `steps` ticks of the market under `seed`. Same inputs, same output. */
export function simulatePath(seed: number, steps: number, params: SimParams = DEFAULT_SIM_PARAMS): SimPath {
  const state = createSimState(seed, params);
  const ticks: SimTick[] = [];
  const dislocations: DislocationEvent[] = [];
  for (let i = 0; i < steps; i += 1) {
    const tick = stepSim(state, params);
    ticks.push(tick);
    dislocations.push(...tick.started);
  }
  return { ticks, dislocations };
}
