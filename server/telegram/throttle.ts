// Every Bot API call the bot makes to a chat (notifications, command answers, edits) goes through this grammY
// transformer, which keeps within Telegram's limits (core.telegram.org/bots/faq, "My bot is hitting limits"): about
// one message a second in a chat and 30 a second overall. A 429 answer carries `retry_after` (seconds): the call waits
// that long and is made again, a few times at most. A network error is not retried: the message may have arrived,
// and a trader told twice of a trade is worse off than one told once. getUpdates is the poller's own (poller.ts).
import type { Transformer } from 'grammy';

export type Wait = (ms: number, signal?: AbortSignal) => Promise<void>;

/** setTimeout as a promise; ends early (resolving) when the signal aborts. */
export const realWait: Wait = (ms, signal) =>
  new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

export interface ThrottleOptions {
  /** Gap between two calls to one chat. */
  perChatMs?: number;
  /** Gap between any two calls (30 a second). */
  globalMs?: number;
  /** Calls made at most for one request when Telegram answers 429. */
  attempts?: number;
  wait?: Wait;
  now?: () => number;
  /** Told of every 429, with the seconds Telegram asked for. */
  onRetryAfter?: (method: string, seconds: number) => void;
}

/** Telegram's limits as its FAQ states them. */
export const PER_CHAT_MS = 1000;
export const GLOBAL_MS = Math.ceil(1000 / 30);

export function throttle(options: ThrottleOptions = {}): Transformer {
  const perChatMs = options.perChatMs ?? PER_CHAT_MS;
  const globalMs = options.globalMs ?? GLOBAL_MS;
  const attempts = options.attempts ?? 3;
  const wait = options.wait ?? realWait;
  const now = options.now ?? Date.now;
  const nextForChat = new Map<string, number>();
  let nextGlobal = 0;

  /** Reserves the next free slot for the chat (and overall) and says how long to wait for it. */
  const reserve = (chat: string | null): number => {
    const t = now();
    let at = Math.max(t, nextGlobal);
    if (chat !== null) at = Math.max(at, nextForChat.get(chat) ?? 0);
    nextGlobal = at + globalMs;
    if (chat !== null) {
      nextForChat.set(chat, at + perChatMs);
      // Forget chats whose slot has passed, so the map does not grow with every chat ever written to.
      if (nextForChat.size > 1000) for (const [k, v] of nextForChat) if (v < t) nextForChat.delete(k);
    }
    return at - t;
  };

  return async (prev, method, payload, signal) => {
    if (method === 'getUpdates' || method === 'getMe') return prev(method, payload, signal);
    const chatId = (payload as { chat_id?: number | string } | undefined)?.chat_id;
    const chat = chatId === undefined ? null : String(chatId);
    for (let attempt = 1; ; attempt++) {
      const delay = reserve(chat);
      if (delay > 0) await wait(delay, signal as AbortSignal | undefined);
      const result = await prev(method, payload, signal);
      if (result.ok || result.error_code !== 429 || attempt >= attempts) return result;
      const seconds = result.parameters?.retry_after ?? 1;
      options.onRetryAfter?.(method, seconds);
      // Nothing else goes to the chat (or anywhere: the limit may be the bot's) before Telegram's time is up.
      const until = now() + seconds * 1000;
      nextGlobal = Math.max(nextGlobal, until);
      if (chat !== null) nextForChat.set(chat, Math.max(nextForChat.get(chat) ?? 0, until));
      await wait(seconds * 1000, signal as AbortSignal | undefined);
      nextGlobal = Math.min(nextGlobal, now());
      if (chat !== null) nextForChat.set(chat, Math.min(nextForChat.get(chat) ?? 0, now()));
    }
  };
}
