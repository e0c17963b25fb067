// Notifications to linked chats: the same events and texts as web push (server/notifications/messages.ts), by the
// same preferences, with the event's time in the user's zone. The push service is wrapped (withTelegram), so every
// path that notifies — the engine's bridge on the leader (which deduplicates), the kill switches — reaches Telegram
// exactly as it reaches devices, once. A chat that blocked the bot (403) is unlinked: nobody reads it any more.
import { GrammyError, type Api } from 'grammy';
import type { PushMessage } from '../../contract/notifications';
import type { Db } from '../db/client';
import { preferencesOf } from '../db/repositories/push';
import { allLinks, findLink, unlinkChat } from '../db/repositories/telegram';
import type { TelegramLinkRow } from '../db/schema/telegram';
import type { PushService, SendReport } from '../notifications/push-service';
import { dateTime, escapeHtml } from './format';

export interface NotifierLogger {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

export interface TelegramNotifier {
  send(userId: string, message: PushMessage): Promise<boolean>;
  broadcast(message: PushMessage): Promise<number>;
}

export function notificationText(message: PushMessage, link: Pick<TelegramLinkRow, 'locale' | 'timeZone'>): string {
  return `<b>${escapeHtml(message.title)}</b>\n${escapeHtml(message.body)}\n<i>${escapeHtml(dateTime(link, message.at))}</i>`;
}

export function createNotifier(deps: { db: Db; api: () => Api | null; logger: NotifierLogger }): TelegramNotifier {
  const { db, logger } = deps;

  async function deliver(link: TelegramLinkRow, message: PushMessage): Promise<boolean> {
    const api = deps.api();
    if (!api) return false;
    try {
      await api.sendMessage(link.chatId, notificationText(message, link), {
        parse_mode: 'HTML',
        link_preview_options: { is_disabled: true },
      });
      return true;
    } catch (error) {
      if (error instanceof GrammyError && error.error_code === 403) {
        await unlinkChat(db, link.chatId);
        logger.info({ userId: link.userId }, 'telegram chat blocked the bot: unlinked');
      } else {
        logger.warn(
          { userId: link.userId, kind: message.kind, err: error instanceof Error ? error.message : String(error) },
          'telegram notification not delivered',
        );
      }
      return false;
    }
  }

  return {
    async send(userId, message) {
      // The Settings button's test is about this device's push, not the chat.
      if (message.kind === 'test') return false;
      const link = await findLink(db, userId);
      if (!link || !(await preferencesOf(db, userId))[message.kind]) return false;
      return deliver(link, message);
    },
    async broadcast(message) {
      let sent = 0;
      for (const link of await allLinks(db)) {
        if (message.kind !== 'test' && !(await preferencesOf(db, link.userId))[message.kind]) continue;
        if (await deliver(link, message)) sent++;
      }
      return sent;
    },
  };
}

/** The push service, also telling linked chats. What Telegram answered never changes what push reports. */
export function withTelegram(push: PushService, telegram: TelegramNotifier, logger: NotifierLogger): PushService {
  const tell = async (what: Promise<unknown>) => {
    try {
      await what;
    } catch (error) {
      logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'telegram notification failed');
    }
  };
  return {
    get publicKey() {
      return push.publicKey;
    },
    refusalOf: (endpoint) => push.refusalOf(endpoint),
    async send(userId, message): Promise<SendReport> {
      const [report] = await Promise.all([push.send(userId, message), tell(telegram.send(userId, message))]);
      return report;
    },
    async broadcast(message): Promise<SendReport> {
      const [report] = await Promise.all([push.broadcast(message), tell(telegram.broadcast(message))]);
      return report;
    },
  };
}
