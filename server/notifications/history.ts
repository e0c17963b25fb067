// The notifications history (contract/notification-history.ts): every notification the server sends a user is also
// written down for them, by the same preferences that decide whether it reaches their devices and linked chat, and
// announced live to their open apps. Wraps the push service (as Telegram does), so every path that notifies — the
// engine's bridge on the leader (which deduplicates), the kill switches, the test button — writes it down once.
// Written whether or not the user has a device: the history is itself where the app shows what it told them.
import type { SentNotification } from '../../contract/notification-history';
import type { PushMessage } from '../../contract/notifications';
import type { Db } from '../db/client';
import { activeUserIds, recordNotification } from '../db/repositories/notification-history';
import { preferencesOf } from '../db/repositories/push';
import type { PushLogger, PushService } from './push-service';

export interface HistoryOptions {
  db: Db;
  logger: PushLogger;
  /** A notification was written down for the user (the realtime gateway tells their open apps). */
  onSent: (userId: string, notification: SentNotification) => void;
}

export function withHistory(push: PushService, options: HistoryOptions): PushService {
  const { db, logger } = options;

  async function record(userId: string, message: PushMessage): Promise<void> {
    try {
      if (message.kind !== 'test' && !(await preferencesOf(db, userId))[message.kind]) return;
      options.onSent(userId, await recordNotification(db, userId, message));
    } catch (error) {
      // A user deleted while the notification was on its way, or the database gone for a moment: the push still goes.
      logger.warn(
        { userId, kind: message.kind, err: error instanceof Error ? error.message : String(error) },
        'notification not written to the history',
      );
    }
  }

  return {
    publicKey: push.publicKey,
    refusalOf: (endpoint) => push.refusalOf(endpoint),
    async send(userId, message) {
      const [report] = await Promise.all([push.send(userId, message), record(userId, message)]);
      return report;
    },
    async broadcast(message) {
      const everyone = await activeUserIds(db).catch((error: unknown) => {
        logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'notification history: no users');
        return [];
      });
      const [report] = await Promise.all([
        push.broadcast(message),
        Promise.all(everyone.map((userId) => record(userId, message))),
      ]);
      return report;
    },
  };
}
