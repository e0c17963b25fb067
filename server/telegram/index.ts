// The Telegram bot built into the server (grammY, long polling). Every instance with TELEGRAM_BOT_TOKEN can send
// (notifications, through the wrapped push service) and makes link codes; only the instance that runs the engine, and
// only while it leads, polls for updates and answers commands (poller.ts). The token is checked at start with getMe:
// a refused token turns the bot off with an error in the log, a network failure is retried with backoff.
import type { FastifyInstance } from 'fastify';
import { Bot, GrammyError } from 'grammy';
import type { PushService } from '../notifications/push-service';
import { composeBot, type BotContext } from './bot';
import { createNotifier, type TelegramNotifier } from './notifier';
import { startPoller, backoffAfter, type Poller } from './poller';
import { realWait, throttle, type ThrottleOptions, type Wait } from './throttle';

export { withTelegram } from './notifier';

export interface TelegramTuning {
  wait?: Wait;
  /** getUpdates' long-poll timeout, seconds. */
  pollTimeoutSeconds?: number;
  leaderCheckMs?: number;
  throttle?: ThrottleOptions;
}

export interface TelegramOptions extends TelegramTuning {
  app: FastifyInstance;
  token: string;
  apiUrl: string;
  /** Web push to devices only (a command's own answer already tells the chat). */
  devicePush: PushService;
}

export interface TelegramService {
  /** The bot's @username once getMe answered; null before (or when the token was refused). */
  readonly botUsername: string | null;
  readonly notifier: TelegramNotifier;
  /**
   * Checks the token (getMe, retried with backoff while Telegram cannot be reached), then polls while `isLeader()`
   * when asked to. Resolves once getMe answered (or the token was refused); the process does not wait for it.
   */
  start(options: { poll: boolean; isLeader: () => boolean }): Promise<void>;
  stop(): Promise<void>;
  /** A plain line to a chat (the chat was just unlinked); failures are logged, never thrown. */
  tell(chatId: number, text: string): Promise<void>;
}

export function createTelegram(options: TelegramOptions): TelegramService {
  const { app } = options;
  const wait = options.wait ?? realWait;
  const bot = new Bot<BotContext>(options.token, {
    client: { apiRoot: options.apiUrl, timeoutSeconds: (options.pollTimeoutSeconds ?? 30) + 15 },
  });
  bot.api.config.use(throttle({ wait, ...options.throttle }));
  composeBot(bot, { app, devicePush: options.devicePush });
  bot.catch((error) =>
    app.log.error(
      { err: error.error instanceof Error ? error.error.message : String(error.error) },
      'telegram handler failed',
    ),
  );
  const stopping = new AbortController();
  let poller: Poller | null = null;
  let starting: Promise<void> | null = null;
  let username: string | null = null;

  const notifier = createNotifier({ db: app.db, api: () => bot.api, logger: app.log });

  /** getMe until it answers; false when the token is refused or the service stops first. */
  const init = async (): Promise<boolean> => {
    for (let failures = 1; !stopping.signal.aborted; failures++) {
      try {
        await bot.init();
        username = bot.botInfo.username;
        app.log.info({ bot: username }, 'telegram bot ready');
        return true;
      } catch (error) {
        if (error instanceof GrammyError && (error.error_code === 401 || error.error_code === 404)) {
          app.log.error('TELEGRAM_BOT_TOKEN was refused by Telegram: the bot is off. Check the token with @BotFather.');
          return false;
        }
        const backoff = backoffAfter(error, failures);
        app.log.warn({ why: backoff.why, retryInMs: backoff.ms }, 'telegram getMe failed; retrying');
        await wait(backoff.ms, stopping.signal);
      }
    }
    return false;
  };

  return {
    get botUsername() {
      return username;
    },
    notifier,
    start({ poll, isLeader }) {
      starting ??= init().then((ok) => {
        if (ok && poll && !stopping.signal.aborted)
          poller = startPoller({
            api: bot.api,
            handle: (update) => bot.handleUpdate(update),
            isLeader,
            logger: app.log,
            wait,
            timeoutSeconds: options.pollTimeoutSeconds,
            leaderCheckMs: options.leaderCheckMs,
          });
      });
      return starting;
    },
    async tell(chatId, text) {
      try {
        await bot.api.sendMessage(chatId, text);
      } catch (error) {
        app.log.warn({ err: error instanceof Error ? error.message : String(error) }, 'telegram message not sent');
      }
    },
    async stop() {
      stopping.abort();
      await poller?.stop();
    },
  };
}
