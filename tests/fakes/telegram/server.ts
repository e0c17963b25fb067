// A fake Telegram Bot API server on 127.0.0.1, written from the Bot API reference (core.telegram.org/bots/api):
// requests at /bot<token>/<method> with parameters as JSON, a form or the query string; answers
// `{ ok: true, result }` or `{ ok: false, error_code, description, parameters? }`. Methods: getMe, getUpdates (offset:
// updates from that id, and every earlier one confirmed and dropped; negative offsets count from the end; limit;
// timeout as a long poll; allowed_updates; a second concurrent getUpdates ends the first with 409), sendMessage,
// editMessageText, answerCallbackQuery, sendChatAction. Text with parse_mode HTML is parsed as the reference says
// (only its tags; the stored text has them removed, entities unescaped). Errors with the Bot API's codes and words.
// Controls play the user's side (userSends, userPresses) and the service's failures (rateLimitNext: 429 with
// retry_after; dropNext: the connection closes with no answer; blockChat: 403).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EventEmitter } from 'node:events';

export interface FakeChat {
  id: number;
  firstName: string;
  username?: string;
}

export interface SentMessage {
  chatId: number;
  messageId: number;
  /** As Telegram shows it: HTML tags removed. */
  text: string;
  /** Callback data of the inline buttons, row by row (empty when none). */
  buttons: Array<Array<{ text: string; data: string }>>;
  edited: boolean;
}

export interface FakeTelegram {
  apiUrl: string;
  token: string;
  username: string;
  /** Every call in order, with its parameters. */
  calls: Array<{ method: string; params: Record<string, unknown> }>;
  /** Every message as it is now, in the order sent. */
  messages: SentMessage[];
  userSends(chat: FakeChat, text: string): number;
  userPresses(chat: FakeChat, messageId: number, data: string): string;
  /** The next call of `method` answers 429 with this retry_after. */
  rateLimitNext(method: string, retryAfterSeconds: number): void;
  /** The next call of `method` gets its connection closed without an answer (a network error). */
  dropNext(method: string): void;
  blockChat(chatId: number): void;
  /** Resolves with the first message (sent or edited) in the chat that matches, now or later. */
  waitForMessage(chatId: number, match: (m: SentMessage) => boolean, what?: string): Promise<SentMessage>;
  waitForCall(method: string, nth?: number): Promise<Record<string, unknown>>;
  answeredCallbacks: Array<{ id: string; text?: string }>;
  close(): Promise<void>;
}

const ALLOWED_TAGS = new Set([
  'b',
  'strong',
  'i',
  'em',
  'u',
  'ins',
  's',
  'strike',
  'del',
  'a',
  'code',
  'pre',
  'tg-spoiler',
  'span',
  'blockquote',
]);

function parseHtml(text: string): string | { error: string } {
  for (const m of text.matchAll(/<\/?([a-zA-Z-]+)[^>]*>/g)) {
    if (!ALLOWED_TAGS.has((m[1] ?? '').toLowerCase()))
      return { error: `can't parse entities: Unsupported start tag "${m[1]}"` };
  }
  if (/<(?![a-zA-Z/])/.test(text)) return { error: "can't parse entities: Unexpected end of name token" };
  return text
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}

async function paramsOf(req: IncomingMessage, url: URL): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const body = Buffer.concat(chunks).toString('utf8');
  const params: Record<string, unknown> = Object.fromEntries(url.searchParams);
  const type = req.headers['content-type'] ?? '';
  if (body && type.includes('application/json')) Object.assign(params, JSON.parse(body));
  else if (body && type.includes('application/x-www-form-urlencoded'))
    for (const [k, v] of new URLSearchParams(body)) params[k] = /^[[{]/.test(v) ? JSON.parse(v) : v;
  return params;
}

class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly description: string,
    readonly parameters?: Record<string, unknown>,
  ) {
    super(description);
  }
}

export async function startFakeTelegram(options: { username?: string } = {}): Promise<FakeTelegram> {
  const token = `123456789:${'A'.repeat(20)}fake${'b'.repeat(11)}`;
  const username = options.username ?? 'arb_test_bot';
  const botUser = { id: 123456789, is_bot: true, first_name: 'Arbitrage', username };
  const events = new EventEmitter();
  events.setMaxListeners(100);
  const updates: Array<Record<string, unknown> & { update_id: number }> = [];
  let nextUpdateId = 1000;
  let nextMessageId = 1;
  let nextCallbackId = 1;
  const messages: SentMessage[] = [];
  const calls: FakeTelegram['calls'] = [];
  const rateLimits = new Map<string, number[]>();
  const drops = new Map<string, number>();
  const blocked = new Set<number>();
  const chats = new Map<number, FakeChat>();
  const openCallbacks = new Set<string>();
  const answeredCallbacks: FakeTelegram['answeredCallbacks'] = [];
  let pendingPoll: ((error: ApiError) => void) | null = null;

  const chatOf = (id: unknown): FakeChat => {
    const chat = chats.get(Number(id));
    if (!chat) throw new ApiError(400, 'Bad Request: chat not found');
    if (blocked.has(chat.id)) throw new ApiError(403, 'Forbidden: bot was blocked by the user');
    return chat;
  };
  const messageObject = (m: SentMessage, chat: FakeChat) => ({
    message_id: m.messageId,
    from: botUser,
    chat: {
      id: chat.id,
      type: 'private',
      first_name: chat.firstName,
      ...(chat.username && { username: chat.username }),
    },
    date: Math.floor(Date.now() / 1000),
    ...(m.edited && { edit_date: Math.floor(Date.now() / 1000) }),
    text: m.text,
    ...(m.buttons.length > 0 && {
      reply_markup: {
        inline_keyboard: m.buttons.map((row) => row.map((b) => ({ text: b.text, callback_data: b.data }))),
      },
    }),
  });
  const textOf = (params: Record<string, unknown>): string => {
    const raw = typeof params.text === 'string' ? params.text : '';
    const text = params.parse_mode === 'HTML' ? parseHtml(raw) : raw;
    if (typeof text !== 'string') throw new ApiError(400, `Bad Request: ${text.error}`);
    if (text.trim() === '') throw new ApiError(400, 'Bad Request: message text is empty');
    if (text.length > 4096) throw new ApiError(400, 'Bad Request: message is too long');
    return text;
  };
  const buttonsOf = (params: Record<string, unknown>): SentMessage['buttons'] => {
    const markup = params.reply_markup as
      { inline_keyboard?: Array<Array<{ text: string; callback_data?: string }>> } | undefined;
    return (markup?.inline_keyboard ?? []).map((row) =>
      row.map((b) => ({ text: b.text, data: b.callback_data ?? '' })),
    );
  };

  const takeUpdates = (params: Record<string, unknown>) => {
    let offset = params.offset === undefined ? undefined : Number(params.offset);
    if (offset !== undefined && offset < 0) offset = (updates.at(offset)?.update_id ?? 0) as number;
    // Everything before the offset is confirmed: Telegram forgets it.
    if (offset !== undefined)
      while (updates.length > 0 && (updates[0] as { update_id: number }).update_id < offset) updates.shift();
    const allowed = Array.isArray(params.allowed_updates) ? (params.allowed_updates as string[]) : null;
    const limit = Math.min(100, Math.max(1, Number(params.limit ?? 100)));
    return updates.filter((u) => !allowed || allowed.length === 0 || allowed.some((k) => k in u)).slice(0, limit);
  };

  const methods: Record<string, (params: Record<string, unknown>) => unknown> = {
    getMe: () => botUser,
    getUpdates: async (params) => {
      pendingPoll?.(
        new ApiError(
          409,
          'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running',
        ),
      );
      const now = takeUpdates(params);
      const timeout = Number(params.timeout ?? 0);
      if (now.length > 0 || timeout <= 0) return now;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(finish, timeout * 1000);
        function finish() {
          clearTimeout(timer);
          events.off('update', finish);
          if (pendingPoll === fail) pendingPoll = null;
          resolve(takeUpdates(params));
        }
        function fail(error: ApiError) {
          clearTimeout(timer);
          events.off('update', finish);
          pendingPoll = null;
          reject(error);
        }
        pendingPoll = fail;
        events.on('update', finish);
      });
    },
    sendMessage: (params) => {
      const chat = chatOf(params.chat_id);
      const m: SentMessage = {
        chatId: chat.id,
        messageId: nextMessageId++,
        text: textOf(params),
        buttons: buttonsOf(params),
        edited: false,
      };
      messages.push(m);
      events.emit('message', m);
      return messageObject(m, chat);
    },
    editMessageText: (params) => {
      const chat = chatOf(params.chat_id);
      const m = messages.find((x) => x.chatId === chat.id && x.messageId === Number(params.message_id));
      if (!m) throw new ApiError(400, 'Bad Request: message to edit not found');
      const text = textOf(params);
      const buttons = buttonsOf(params);
      if (text === m.text && JSON.stringify(buttons) === JSON.stringify(m.buttons))
        throw new ApiError(
          400,
          'Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message',
        );
      Object.assign(m, { text, buttons, edited: true });
      events.emit('message', m);
      return messageObject(m, chat);
    },
    answerCallbackQuery: (params) => {
      const id = String(params.callback_query_id ?? '');
      if (!openCallbacks.delete(id))
        throw new ApiError(400, 'Bad Request: query is too old and response timeout expired or query ID is invalid');
      answeredCallbacks.push({ id, ...(typeof params.text === 'string' && { text: params.text }) });
      return true;
    },
    sendChatAction: (params) => {
      chatOf(params.chat_id);
      return true;
    },
  };

  const answer = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const match = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(url.pathname);
      if (!match) return answer(res, 404, { ok: false, error_code: 404, description: 'Not Found' });
      if (match[1] !== token) return answer(res, 401, { ok: false, error_code: 401, description: 'Unauthorized' });
      const method = match[2] as string;
      const params = await paramsOf(req, url);
      calls.push({ method, params });
      events.emit('call', method);
      const drop = drops.get(method) ?? 0;
      if (drop > 0) {
        drops.set(method, drop - 1);
        return void req.socket.destroy();
      }
      const limited = rateLimits.get(method)?.shift();
      if (limited !== undefined)
        return answer(res, 429, {
          ok: false,
          error_code: 429,
          description: `Too Many Requests: retry after ${limited}`,
          parameters: { retry_after: limited },
        });
      const handler = methods[method];
      if (!handler) return answer(res, 404, { ok: false, error_code: 404, description: 'Not Found: method not found' });
      try {
        answer(res, 200, { ok: true, result: await handler(params) });
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        answer(res, error.code, {
          ok: false,
          error_code: error.code,
          description: error.description,
          ...(error.parameters && { parameters: error.parameters }),
        });
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  const push = (update: Record<string, unknown>) => {
    const id = nextUpdateId++;
    updates.push({ update_id: id, ...update });
    events.emit('update');
    return id;
  };
  const userOf = (chat: FakeChat) => ({
    id: chat.id,
    is_bot: false,
    first_name: chat.firstName,
    ...(chat.username && { username: chat.username }),
    language_code: 'en',
  });

  const fake: FakeTelegram = {
    apiUrl: `http://127.0.0.1:${port}`,
    token,
    username,
    calls,
    messages,
    answeredCallbacks,
    userSends(chat, text) {
      chats.set(chat.id, chat);
      const command = /^\/\w+(@\w+)?/.exec(text);
      const messageId = nextMessageId++;
      push({
        message: {
          message_id: messageId,
          from: userOf(chat),
          chat: {
            id: chat.id,
            type: 'private',
            first_name: chat.firstName,
            ...(chat.username && { username: chat.username }),
          },
          date: Math.floor(Date.now() / 1000),
          text,
          ...(command && { entities: [{ type: 'bot_command', offset: 0, length: command[0].length }] }),
        },
      });
      return messageId;
    },
    userPresses(chat, messageId, data) {
      const m = messages.find((x) => x.chatId === chat.id && x.messageId === messageId);
      if (!m) throw new Error(`no message ${messageId} in chat ${chat.id}`);
      const id = String(nextCallbackId++);
      openCallbacks.add(id);
      push({
        callback_query: {
          id,
          from: userOf(chat),
          message: messageObject(m, chat),
          chat_instance: String(chat.id),
          data,
        },
      });
      return id;
    },
    rateLimitNext(method, seconds) {
      rateLimits.set(method, [...(rateLimits.get(method) ?? []), seconds]);
    },
    dropNext(method) {
      drops.set(method, (drops.get(method) ?? 0) + 1);
    },
    blockChat(chatId) {
      blocked.add(chatId);
    },
    waitForMessage(chatId, match, what = 'a message') {
      return new Promise((resolve, reject) => {
        const found = messages.find((m) => m.chatId === chatId && match(m));
        if (found) return resolve(found);
        const timer = setTimeout(() => {
          events.off('message', on);
          reject(
            new Error(
              `timed out waiting for ${what} in chat ${chatId}; it has: ${JSON.stringify(messages.filter((m) => m.chatId === chatId).map((m) => m.text))}`,
            ),
          );
        }, 20_000);
        function on(m: SentMessage) {
          if (m.chatId !== chatId || !match(m)) return;
          clearTimeout(timer);
          events.off('message', on);
          resolve(m);
        }
        events.on('message', on);
      });
    },
    waitForCall(method, nth = 1) {
      return new Promise((resolve) => {
        const check = () => {
          const seen = calls.filter((c) => c.method === method);
          if (seen.length < nth) return false;
          events.off('call', check);
          resolve((seen[nth - 1] as { params: Record<string, unknown> }).params);
          return true;
        };
        if (!check()) events.on('call', check);
      });
    },
    close: async () => {
      pendingPoll?.(new ApiError(409, 'Conflict: the server is closing'));
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
  return fake;
}
