// Long polling (getUpdates with a timeout), so the bot needs no public URL. Only while `isLeader()` says this instance
// runs the engine: two instances polling one bot would each get 409 Conflict, and each update must be handled once.
// When the lead is lost mid-poll the request is aborted; the next leader starts from the offset Telegram keeps (the
// last one confirmed), so an update is not lost in the handover.
//
// Failures back off: a 429 waits the `retry_after` Telegram gives; a network error or another refusal waits 1 s,
// doubling to a minute while they last; a 401 (the token was revoked) stops polling with an error in the log.
// Updates of one chat are handled in order; different chats do not wait for each other (a Stop & flatten can take
// seconds).
import { GrammyError, HttpError, type Api } from 'grammy';
import type { Update } from 'grammy/types';
import { realWait, type Wait } from './throttle';

export interface PollerLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface PollerOptions {
  api: Pick<Api, 'getUpdates'>;
  handle(update: Update): Promise<void>;
  isLeader(): boolean;
  logger: PollerLogger;
  wait?: Wait;
  /** Long-poll timeout in seconds (Telegram holds the request this long when there is nothing). */
  timeoutSeconds?: number;
  /** How often a standing-by instance asks whether it leads now, and a polling one whether it still does. */
  leaderCheckMs?: number;
}

export interface Poller {
  stop(): Promise<void>;
  /** Resolves when the loop has ended (stopped, or a 401). */
  readonly done: Promise<void>;
}

export const MAX_BACKOFF_MS = 60_000;

/** How long to wait after a failed getUpdates, and whether to go on at all. */
export function backoffAfter(error: unknown, failures: number): { ms: number; fatal: boolean; why: string } {
  const growing = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** Math.max(0, failures - 1));
  if (error instanceof GrammyError) {
    if (error.error_code === 401) return { ms: 0, fatal: true, why: 'the bot token was refused (401)' };
    if (error.error_code === 429)
      return { ms: (error.parameters.retry_after ?? 1) * 1000, fatal: false, why: 'rate limited (429)' };
    return { ms: growing, fatal: false, why: `refused (${error.error_code})` };
  }
  if (error instanceof HttpError) return { ms: growing, fatal: false, why: 'network error' };
  return { ms: growing, fatal: false, why: 'unexpected error' };
}

export function startPoller(options: PollerOptions): Poller {
  const wait = options.wait ?? realWait;
  const timeout = options.timeoutSeconds ?? 30;
  const leaderCheckMs = options.leaderCheckMs ?? 2000;
  const stopping = new AbortController();
  const chains = new Map<number, Promise<void>>();
  let offset: number | undefined;
  let failures = 0;

  const dispatch = (update: Update) => {
    const chat =
      update.message?.chat.id ?? update.callback_query?.message?.chat.id ?? update.callback_query?.from.id ?? 0;
    const run = async () => {
      try {
        await options.handle(update);
      } catch (error) {
        options.logger.error(
          { err: error instanceof Error ? error.message : String(error), updateId: update.update_id },
          'telegram update could not be handled',
        );
      }
    };
    const next = (chains.get(chat) ?? Promise.resolve()).then(run);
    chains.set(chat, next);
    void next.then(() => {
      if (chains.get(chat) === next) chains.delete(chat);
    });
  };

  const pollOnce = async () => {
    // Aborted when polling stops, or when this instance stops leading mid-request.
    const request = new AbortController();
    const onStop = () => request.abort();
    stopping.signal.addEventListener('abort', onStop, { once: true });
    const watch = setInterval(() => {
      if (!options.isLeader()) request.abort();
    }, leaderCheckMs);
    try {
      return await options.api.getUpdates(
        { offset, timeout, allowed_updates: ['message', 'callback_query'] },
        request.signal,
      );
    } finally {
      clearInterval(watch);
      stopping.signal.removeEventListener('abort', onStop);
    }
  };

  const loop = async () => {
    while (!stopping.signal.aborted) {
      if (!options.isLeader()) {
        await wait(leaderCheckMs, stopping.signal);
        continue;
      }
      let updates: Update[];
      try {
        updates = await pollOnce();
        failures = 0;
      } catch (error) {
        if (stopping.signal.aborted || !options.isLeader()) continue;
        failures++;
        const backoff = backoffAfter(error, failures);
        if (backoff.fatal) {
          options.logger.error({ why: backoff.why }, 'telegram polling stopped: set a valid TELEGRAM_BOT_TOKEN');
          return;
        }
        options.logger.warn(
          { why: backoff.why, retryInMs: backoff.ms, err: error instanceof Error ? error.message : String(error) },
          'telegram getUpdates failed; backing off',
        );
        await wait(backoff.ms, stopping.signal);
        continue;
      }
      for (const update of updates) {
        offset = update.update_id + 1;
        dispatch(update);
      }
    }
  };

  const done = loop();
  return {
    done,
    async stop() {
      stopping.abort();
      await done;
      await Promise.all(chains.values());
    },
  };
}
