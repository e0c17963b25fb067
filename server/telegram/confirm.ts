// Questions the bot is waiting on: an inline "Confirm" button (its nonce in the callback data), or, for a user with
// two-factor sign-in, the next six-digit code sent in the chat. Each is bound to the chat and the user that asked,
// answered once, and forgotten after two minutes. Kept in memory: only the polling instance asks and answers, and a
// question lost with a restart is asked again by sending the command again.
import { randomBytes } from 'node:crypto';
import type { ConfirmableAction } from './actions';

export const CONFIRM_TTL_MS = 2 * 60_000;

interface Question {
  chatId: number;
  userId: string;
  action: ConfirmableAction;
  expiresAt: number;
}

export class Confirmations {
  private readonly byNonce = new Map<string, Question>();
  private readonly byChat = new Map<number, Question>();

  constructor(private readonly now: () => number = Date.now) {}

  private prune() {
    const t = this.now();
    for (const [k, q] of this.byNonce) if (q.expiresAt <= t) this.byNonce.delete(k);
    for (const [k, q] of this.byChat) if (q.expiresAt <= t) this.byChat.delete(k);
  }

  /** A button's question; its nonce goes into the callback data. */
  askButton(chatId: number, userId: string, action: ConfirmableAction): string {
    this.prune();
    const nonce = randomBytes(9).toString('base64url');
    this.byNonce.set(nonce, { chatId, userId, action, expiresAt: this.now() + CONFIRM_TTL_MS });
    return nonce;
  }

  /** A question answered with a code; a newer one in the chat replaces it. */
  askCode(chatId: number, userId: string, action: ConfirmableAction): void {
    this.prune();
    this.byChat.set(chatId, { chatId, userId, action, expiresAt: this.now() + CONFIRM_TTL_MS });
  }

  /** The button's question, taken (a second press finds nothing); null when unknown, expired or someone else's. */
  takeButton(nonce: string, chatId: number, userId: string): ConfirmableAction | null {
    const q = this.byNonce.get(nonce);
    this.byNonce.delete(nonce);
    if (!q || q.expiresAt <= this.now() || q.chatId !== chatId || q.userId !== userId) return null;
    return q.action;
  }

  /** The action waiting for a code in this chat (left in place until the code is right). */
  codeQuestion(chatId: number, userId: string): ConfirmableAction | null {
    const q = this.byChat.get(chatId);
    if (!q || q.expiresAt <= this.now() || q.userId !== userId) return null;
    return q.action;
  }

  answeredCode(chatId: number): void {
    this.byChat.delete(chatId);
  }
}
