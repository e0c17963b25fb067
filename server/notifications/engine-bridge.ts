// Engine events → push notifications. Only the instance that leads the engine sends (the engine raises trade and
// pause events only while it trades; the leader check also drops a late event of an instance that just lost the
// lead), so each event is sent once across a scale-out. Sending is off the engine's path: a slow push service delays
// nothing but the notification.
import { filter, mergeMap, type Observable, type Subscription } from 'rxjs';
import { SERVER_EVENTS } from '../../contract/events';
import type { PushMessage } from '../../contract/notifications';
import type { EngineEvent } from '../engine/events';
import { noticeMessage, tradeMessage } from './messages';
import type { PushLogger, PushService } from './push-service';

export interface PushBridgeOptions {
  events$: Observable<EngineEvent>;
  isLeader: () => boolean;
  push: Pick<PushService, 'send'>;
  logger: PushLogger & { error(obj: object, msg: string): void };
  /** Sends in flight at once. */
  concurrency?: number;
}

/** How many (trade, status) pairs are remembered so a trade persisted twice in one state is announced once. */
const REMEMBERED = 10_000;

export function messageOf(event: EngineEvent, announced: Set<string>): { userId: string; message: PushMessage } | null {
  if (event.type === SERVER_EVENTS.newTrade || event.type === SERVER_EVENTS.tradeUpdated) {
    const message = tradeMessage(event.trade);
    if (!message) return null;
    const key = `${event.trade._id}:${event.trade.status}`;
    if (announced.has(key)) return null;
    announced.add(key);
    // A Set iterates in insertion order: the oldest goes first.
    if (announced.size > REMEMBERED) announced.delete(announced.values().next().value as string);
    return { userId: event.userId, message };
  }
  if (event.type === SERVER_EVENTS.notice) {
    const message = noticeMessage(event.notice);
    return message ? { userId: event.userId, message } : null;
  }
  return null;
}

export function startPushBridge(options: PushBridgeOptions): Subscription {
  const announced = new Set<string>();
  return options.events$
    .pipe(
      filter(() => options.isLeader()),
      mergeMap(async (event) => {
        const item = messageOf(event, announced);
        if (!item) return;
        try {
          await options.push.send(item.userId, item.message);
        } catch (error) {
          options.logger.error(
            { err: error, userId: item.userId, kind: item.message.kind },
            'push notification could not be sent',
          );
        }
      }, options.concurrency ?? 8),
    )
    .subscribe();
}
