// The export's range of days, as the Trades screen picks it: calendar days in the user's time zone.
import { zonedDayStart } from './format';

export const EMPTY_RANGE_MESSAGE = 'The start date must be on or before the end date';

/**
 * Calendar days picked in the user's time zone as the export's instants: from the start of `fromDay` to the end of
 * `toDay` (the next day's midnight, exclusive), ISO instants (`from` inclusive, `to` exclusive). Throws on a range
 * that ends before it starts.
 */
export function dayRange(fromDay: string, toDay: string, timeZone: string): { from?: string; to?: string } {
  const from = fromDay ? zonedDayStart(fromDay, timeZone) : null;
  const to = toDay ? zonedDayStart(toDay, timeZone, 1) : null;
  if (from !== null && to !== null && from >= to) throw new Error(EMPTY_RANGE_MESSAGE);
  return {
    from: from === null ? undefined : new Date(from).toISOString(),
    to: to === null ? undefined : new Date(to).toISOString(),
  };
}
