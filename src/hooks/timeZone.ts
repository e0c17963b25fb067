import { useMemo } from 'react';
import { displayTimeZone } from '../../contract/time-zone';
import { useChosenTimeZone } from './services';

/**
 * The time zone every date on screen is shown in: the one the user chose in Profile (saved on the server, so the same
 * on each device, and kept with the cached user offline), else the browser's own.
 */
export function useTimeZone(): string {
  const chosen = useChosenTimeZone();
  return useMemo(() => displayTimeZone(chosen), [chosen]);
}
