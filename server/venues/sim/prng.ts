// A small seeded PRNG so that the simulated market is reproducible: same seed, same prices, same dislocations.

/** One step of mulberry32: a pure function from a 32-bit state to a uniform value in [0, 1) and the next state. */
export function nextMulberry32(state: number): { value: number; state: number } {
  const next = (state + 0x6d2b79f5) | 0;
  let t = next;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return { value: ((t ^ (t >>> 14)) >>> 0) / 4294967296, state: next };
}

export interface Rng {
  /** Uniform in [0, 1). */
  uniform(): number;
  /** Standard normal (Box–Muller). */
  normal(): number;
  /** Uniform in [min, max). */
  between(min: number, max: number): number;
}

/** A stateful generator over nextMulberry32; the state lives in the closure and advances on every draw. */
export function createRng(seed: number): Rng {
  let state = seed | 0;
  let spareNormal: number | null = null;
  const uniform = (): number => {
    const step = nextMulberry32(state);
    state = step.state;
    return step.value;
  };
  return {
    uniform,
    between: (min, max) => min + (max - min) * uniform(),
    normal: () => {
      if (spareNormal !== null) {
        const value = spareNormal;
        spareNormal = null;
        return value;
      }
      // 1 − u keeps the logarithm's argument in (0, 1].
      const radius = Math.sqrt(-2 * Math.log(1 - uniform()));
      const angle = 2 * Math.PI * uniform();
      spareNormal = radius * Math.sin(angle);
      return radius * Math.cos(angle);
    },
  };
}
