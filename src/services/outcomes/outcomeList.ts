import type { OpportunityOutcome } from '../../../contract/entities';

/** How many recent outcomes are kept (and cached for offline), over both pairs. */
export const OUTCOMES_KEEP = 100;

/**
 * The recent outcomes with one more folded in: newest first, at most `keep`. The engine rate-limits repeats per pair
 * (one a second unless the outcome changes), so a repeat of the newest outcome of its pair with the same result and
 * reason replaces it instead of filling the list with copies; a taken trade always stands on its own.
 */
export function foldOutcome(
  list: readonly OpportunityOutcome[],
  o: OpportunityOutcome,
  keep = OUTCOMES_KEEP,
): OpportunityOutcome[] {
  const i = list.findIndex((x) => x.symbol === o.symbol);
  const prev = i === -1 ? undefined : list[i];
  const repeat =
    prev !== undefined && o.outcome !== 'taken' && prev.outcome === o.outcome && prev.reason === o.reason && i === 0;
  const rest = repeat ? list.slice(1) : list;
  return [o, ...rest].slice(0, keep);
}

/**
 * The kept list joined with the server's (GET /snapshot's newest outcomes): one entry per outcome (same pair, result
 * and moment), newest first, at most `keep`. Neither list is complete alone: the server's starts empty after an
 * engine restart, the kept one misses what happened while the app was closed.
 */
export function mergeOutcomes(
  kept: readonly OpportunityOutcome[],
  server: readonly OpportunityOutcome[],
  keep = OUTCOMES_KEEP,
): OpportunityOutcome[] {
  const seen = new Set<string>();
  const key = (o: OpportunityOutcome) => `${o.symbol}|${o.outcome}|${o.at}`;
  return [...server, ...kept]
    .filter((o) => (seen.has(key(o)) ? false : (seen.add(key(o)), true)))
    .sort((a, b) => Date.parse(b.at) - Date.parse(a.at))
    .slice(0, keep);
}
