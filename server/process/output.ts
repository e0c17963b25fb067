// The process's own output (log lines, start-up notices) must never stop the server. When whatever reads stdout and
// stderr has gone (a supervisor restarting, a closed terminal), writes fail with EPIPE; when it stops reading, the
// pipe fills up. Pino's default destination writes synchronously and retries a full pipe forever, so one stalled
// reader used to freeze the event loop and, with it, every request and the SIGTERM handler. Here a line is queued on
// the stream without waiting, dropped when too much is already waiting, and a broken stream is simply given up.
import type { LogSink } from '../http/plugins/logging';

/** Bytes that may wait for a slow reader before new lines are dropped. */
export const MAX_QUEUED_OUTPUT = 1024 * 1024;

export interface ProcessOutput extends LogSink {
  /** Lines dropped because the reader was gone or too slow. */
  readonly dropped: number;
}

export function safeOutput(
  stream: NodeJS.WritableStream & { writableLength?: number },
  limit = MAX_QUEUED_OUTPUT,
): ProcessOutput {
  let gone = false;
  let dropped = 0;
  // Without a listener, an EPIPE on stdout is an uncaught exception.
  stream.on('error', () => {
    gone = true;
  });
  return {
    get dropped() {
      return dropped;
    },
    write(line: string) {
      if (gone || (stream.writableLength ?? 0) > limit) {
        dropped += 1;
        return;
      }
      try {
        stream.write(line);
      } catch {
        gone = true;
        dropped += 1;
      }
    },
  };
}
