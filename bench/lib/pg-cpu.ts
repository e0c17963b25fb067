// CPU time of the PostgreSQL backends serving one database, read from /proc (the server runs on this machine), so a
// benchmark can report database CPU per request next to the app's.
import { readFileSync } from 'node:fs';
import pg from 'pg';

/** Linux reports process times in clock ticks; USER_HZ is 100 on every mainstream kernel configuration. */
export const TICKS_PER_SECOND = 100;

/** User + system CPU of one process so far, in clock ticks (0 once it is gone). */
export function cpuTicksOf(pid: number): number {
  try {
    // Fields after the parenthesised command name: state is field 3, utime 14, stime 15 (1-based).
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0; // the backend exited, or /proc is not ours to read
  }
}

/** Returns a function that reports the CPU milliseconds the database's backends used since the previous call. */
export async function postgresCpuMeter(
  maintenanceUrl: string,
  database: string,
): Promise<{ sample(): Promise<number>; close(): Promise<void> }> {
  const client = new pg.Client({ connectionString: maintenanceUrl });
  await client.connect();
  const totals = async () => {
    const { rows } = await client.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1', [
      database,
    ]);
    const perPid = new Map<number, number>();
    for (const { pid } of rows) perPid.set(pid, cpuTicksOf(pid));
    return perPid;
  };
  let last = await totals();
  return {
    sample: async () => {
      const now = await totals();
      let ticks = 0;
      for (const [pid, value] of now) ticks += value - (last.get(pid) ?? 0);
      last = now;
      return (ticks * 1000) / TICKS_PER_SECOND;
    },
    close: () => client.end(),
  };
}
