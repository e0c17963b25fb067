// What a confirmed command does, through the same owners as the app's buttons: server/trading for the user's trading
// state and the global halt, the audit log (marked "telegram"), web push to the user's devices, and the realtime
// announcement of a halt. The answer is the text the chat gets.
import type { FastifyInstance } from 'fastify';
import { auditVia } from '../audit/audit';
import { findUserById } from '../db/repositories/users';
import type { UserRow } from '../db/schema';
import { flattenSummary, killSwitchMessage } from '../notifications/messages';
import type { PushService } from '../notifications/push-service';
import type { Reader } from './format';
import { flattenText } from './views';

/** As the app's Stop & flatten: how long the answer waits for the trades to close (they keep closing afterwards). */
export const FLATTEN_WAIT_MS = 15_000;
export const VIA = 'telegram';

export type ConfirmableAction = 'stop' | 'resume' | 'halt' | 'unhalt';

export const ACTION_QUESTIONS: Record<ConfirmableAction, string> = {
  stop: 'Stop & flatten: turn automated trading off and close every open trade now?',
  resume: 'Turn automated trading on again, within your limits?',
  halt: 'Halt trading for every user? No new trades open (automated or manual) until an admin resumes.',
  unhalt: 'Lift the global halt and let every user trade again?',
};

export const ADMIN_ACTIONS: ReadonlySet<ConfirmableAction> = new Set(['halt', 'unhalt']);
export const ADMINS_ONLY = 'Only an admin can halt or resume trading for everyone.';

export interface ActionDeps {
  app: FastifyInstance;
  /** Web push to the user's devices only: the chat gets the command's own answer. */
  devicePush: PushService;
}

export async function runAction(
  deps: ActionDeps,
  action: ConfirmableAction,
  userId: string,
  reader: Reader,
): Promise<string> {
  const { app } = deps;
  // Who the user is now (a role or an account may have changed since the question was asked).
  const user = await findUserById(app.db, userId);
  if (!user || !user.isActive) return 'This account can no longer be used.';
  if (ADMIN_ACTIONS.has(action) && user.role !== 'admin') return ADMINS_ONLY;
  const note = (send: () => Promise<unknown>) =>
    void send().catch((error: unknown) =>
      app.log.warn({ err: error instanceof Error ? error.message : String(error) }, 'kill switch push not sent'),
    );
  switch (action) {
    case 'stop':
      return stop(deps, user, reader, note);
    case 'resume': {
      const enabled = await app.trading.enable(user.id);
      if (!enabled.ok) return enabled.message;
      await auditVia(app.db, app.log, VIA, 'trading_started', { actorId: user.id });
      return 'You are now trading automatically within your limits.';
    }
    case 'halt':
    case 'unhalt': {
      const halted = action === 'halt';
      const halt = await app.trading.setGlobalHalt(halted, halted ? 'halted from Telegram' : '', {
        id: user.id,
        name: user.username,
      });
      app.haltChanges$.next(halt);
      await auditVia(app.db, app.log, VIA, halted ? 'global_halt' : 'global_resume', {
        actorId: user.id,
        details: halted ? { reason: 'halted from Telegram' } : {},
      });
      // Everyone is told of a halt: devices through push, linked chats through the wrapped service's broadcast.
      if (halted)
        note(() => app.push.broadcast(killSwitchMessage({ scope: 'global', closed: 0, failed: 0, by: 'an admin' })));
      return halted
        ? 'Trading is halted for every user. Open trades close as usual; no new trades open.'
        : 'Trading resumed for every user.';
    }
  }
}

async function stop(
  deps: ActionDeps,
  user: UserRow,
  reader: Reader,
  note: (send: () => Promise<unknown>) => void,
): Promise<string> {
  const { app, devicePush } = deps;
  const outcome = await app.trading.stopAndFlatten(user.id, FLATTEN_WAIT_MS);
  if (outcome.handedOff) {
    const open = outcome.open.length;
    await auditVia(app.db, app.log, VIA, 'stop_and_flatten', {
      actorId: user.id,
      details: { open, handedTo: 'engine instance' },
    });
    note(() => devicePush.send(user.id, killSwitchMessage({ scope: 'user', closed: 0, failed: open, by: 'you' })));
    return flattenText(reader, {
      message: flattenSummary({ handedOff: true, open, closed: 0, stillClosing: open }),
      trades: outcome.open,
    });
  }
  const { closed, stillClosing, trades } = outcome;
  await auditVia(app.db, app.log, VIA, 'stop_and_flatten', {
    actorId: user.id,
    details: { open: outcome.open.length, closed, stillClosing },
  });
  note(() => devicePush.send(user.id, killSwitchMessage({ scope: 'user', closed, failed: stillClosing, by: 'you' })));
  return flattenText(reader, {
    message: flattenSummary({ handedOff: false, open: trades.length, closed, stillClosing }),
    trades,
  });
}
