// The export's range of days, as the Trades screen picks it: calendar days in the user's time zone.

export const EMPTY_RANGE_MESSAGE = 'The start date must be on or before the end date';

/**
 * Calendar days picked in the user's time zone as the export's instants: from the start of `fromDay` to the end of
 * `toDay` (the next day's midnight, exclusive), ISO instants (`from` inclusive, `to` exclusive). Throws on a range
 * that ends before it starts.
 */
export function dayRange(fromDay: string, toDay: string): { from?: string; to?: string } {
  const start = (day: string) => new Date(`${day}T00:00:00`);
  const from = fromDay ? start(fromDay) : undefined;
  let to: Date | undefined;
  if (toDay) {
    to = start(toDay);
    to.setDate(to.getDate() + 1);
  }
  if (from && to && from >= to) throw new Error(EMPTY_RANGE_MESSAGE);
  return { from: from?.toISOString(), to: to?.toISOString() };
}
