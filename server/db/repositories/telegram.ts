// Telegram storage: one-time link codes, each user's linked chat, and the day's realised P&L the bot reports.
import { and, eq, gte, inArray, sql } from 'drizzle-orm';
import { FINISHED_STATUSES } from '../../../contract/domain';
import type { Db } from '../client';
import { trades } from '../schema/trades';
import { telegramLinkCodes, telegramLinks, type TelegramLinkRow } from '../schema/telegram';

export interface LinkCodeRequest {
  userId: string;
  codeHash: string;
  timeZone: string;
  locale: string;
  expiresAt: Date;
}

/** Saves a new code for the user; any older code of theirs stops working (one live code a user). */
export async function issueLinkCode(db: Db, request: LinkCodeRequest): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(telegramLinkCodes).where(eq(telegramLinkCodes.userId, request.userId));
    await tx.insert(telegramLinkCodes).values(request);
  });
}

export type ConsumedCode =
  { ok: true; userId: string; timeZone: string; locale: string } | { ok: false; reason: 'unknown' | 'expired' };

/** Takes the code: deleted as it is read, so two chats sending it at once cannot both use it. */
export async function consumeLinkCode(db: Db, codeHash: string, now = new Date()): Promise<ConsumedCode> {
  const [row] = await db.delete(telegramLinkCodes).where(eq(telegramLinkCodes.codeHash, codeHash)).returning();
  if (!row) return { ok: false, reason: 'unknown' };
  if (row.expiresAt.getTime() <= now.getTime()) return { ok: false, reason: 'expired' };
  return { ok: true, userId: row.userId, timeZone: row.timeZone, locale: row.locale };
}

export interface NewLink {
  userId: string;
  chatId: number;
  chatName: string;
  timeZone: string;
  locale: string;
}

/**
 * Links the chat to the user, replacing the user's earlier chat. A chat linked to someone else before is taken from
 * them (whoever holds a fresh code of this user's sent it from this chat); the user it was taken from is returned.
 */
export async function linkChat(
  db: Db,
  link: NewLink,
): Promise<{ previousUserOfChat: string | null; previousChat: number | null }> {
  return db.transaction(async (tx) => {
    const [taken] = await tx
      .delete(telegramLinks)
      .where(and(eq(telegramLinks.chatId, link.chatId), sql`${telegramLinks.userId} <> ${link.userId}`))
      .returning({ userId: telegramLinks.userId });
    const [before] = await tx
      .select({ chatId: telegramLinks.chatId })
      .from(telegramLinks)
      .where(eq(telegramLinks.userId, link.userId));
    await tx
      .insert(telegramLinks)
      .values(link)
      .onConflictDoUpdate({
        target: telegramLinks.userId,
        set: {
          chatId: link.chatId,
          chatName: link.chatName,
          timeZone: link.timeZone,
          locale: link.locale,
          linkedAt: sql`now()`,
        },
      });
    return {
      previousUserOfChat: taken?.userId ?? null,
      previousChat: before && before.chatId !== link.chatId ? before.chatId : null,
    };
  });
}

export async function findLink(db: Db, userId: string): Promise<TelegramLinkRow | null> {
  const [row] = await db.select().from(telegramLinks).where(eq(telegramLinks.userId, userId));
  return row ?? null;
}

export async function findLinkByChat(db: Db, chatId: number): Promise<TelegramLinkRow | null> {
  const [row] = await db.select().from(telegramLinks).where(eq(telegramLinks.chatId, chatId));
  return row ?? null;
}

/** Every linked chat (an admin's global halt is told to all of them). */
export function allLinks(db: Db): Promise<TelegramLinkRow[]> {
  return db.select().from(telegramLinks);
}

/** Removes the user's link; the removed row, or null when there was none. */
export async function unlinkUser(db: Db, userId: string): Promise<TelegramLinkRow | null> {
  const [row] = await db.delete(telegramLinks).where(eq(telegramLinks.userId, userId)).returning();
  return row ?? null;
}

/** The chat blocked the bot or was deleted (Telegram answered 403): nobody reads it any more. */
export async function unlinkChat(db: Db, chatId: number): Promise<TelegramLinkRow | null> {
  const [row] = await db.delete(telegramLinks).where(eq(telegramLinks.chatId, chatId)).returning();
  return row ?? null;
}

/** Realised P&L (USDT, as a decimal string) of the user's trades that finished at or after `since`. */
export async function realisedSince(db: Db, userId: string, since: Date): Promise<string> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${trades.actualProfit}), 0)::text` })
    .from(trades)
    .where(and(eq(trades.userId, userId), inArray(trades.status, [...FINISHED_STATUSES]), gte(trades.closedAt, since)));
  return row?.total ?? '0';
}
