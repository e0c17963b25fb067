// The simulated market without real time: a whole path at once (tests, backtests), or tick by tick for runs too
// long to keep in memory (statistics, the calibration benchmark).
import { createSimState, stepSim, type DislocationEvent, type SimTick } from './model';
import { DEFAULT_SIM_PARAMS, type SimParams } from './params';

export interface SimPath {
  ticks: SimTick[];
  dislocations: DislocationEvent[];
}

/** Hands each of the first `steps` ticks of the market under `seed` to `onTick`, keeping none. */
export function runSim(seed: number, steps: number, params: SimParams, onTick: (tick: SimTick) => void): void {
  const state = createSimState(seed, params);
  for (let i = 0; i < steps; i += 1) onTick(stepSim(state, params));
}

/** The first `steps` ticks of the market under `seed`. Same inputs, same output. */
export function simulatePath(seed: number, steps: number, params: SimParams = DEFAULT_SIM_PARAMS): SimPath {
  const ticks: SimTick[] = [];
  const dislocations: DislocationEvent[] = [];
  runSim(seed, steps, params, (tick) => {
    ticks.push(tick);
    dislocations.push(...tick.started);
  });
  return { ticks, dislocations };
}
