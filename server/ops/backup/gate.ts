// One backup at a time per process: each holds a copy of the whole database in memory until it has been streamed out,
// so a second request while one runs is refused (and asked to try again) rather than doubling that.
import type { Readable } from 'node:stream';

export class BackupBusyError extends Error {
  constructor() {
    super('A backup is being taken already; try again when it has finished');
    this.name = 'BackupBusyError';
  }
}

export interface BackupSource {
  /** A consistent backup as a gzip stream; rejects with BackupBusyError while another is still being streamed. */
  take(): Promise<Readable>;
}

export function backupGate(snapshot: () => Promise<Readable>): BackupSource {
  let busy = false;
  return {
    take: async () => {
      if (busy) throw new BackupBusyError();
      busy = true;
      try {
        const stream = await snapshot();
        stream.once('close', () => (busy = false));
        return stream;
      } catch (error) {
        busy = false;
        throw error;
      }
    },
  };
}
