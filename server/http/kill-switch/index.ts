// The kill switches, carried out by the trading-state owner (server/trading). A user's "Stop & flatten" turns their
// automated trading off and closes every open trade, answering each trade's fate (202 when the engine runs on another
// instance, which closes them within seconds). An admin's global halt is saved (a restart or a failover stays
// halted), applied at once by this instance's engine, read by any other engine before its next trade, and announced
// to every signed-in user.
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { HaltBody, type FlattenResponse, type FlattenResult, type HaltResponse } from '../../../contract/guard';
import type { Trade } from '../../../contract/entities';
import { findUserById } from '../../db/repositories/users';
import { audit } from '../../audit/audit';
import type { PushMessage } from '../../../contract/notifications';
import { flattenSummary, killSwitchMessage } from '../../notifications';

/** How long Stop & flatten waits for the trades to close before answering (they keep closing afterwards). */
export const FLATTEN_WAIT_MS = 15_000;

const resultOf = (t: Trade): FlattenResult => ({
  _id: t._id,
  tradeId: t.tradeId,
  symbol: t.symbol,
  status: t.status,
  actualProfit: t.actualProfit,
  reason: t.reason,
});

export const killSwitchRoutes: FastifyPluginAsyncZod = async (app) => {
  // The kill switch's push goes out after the answer: a slow push service must not hold the trader's confirmation.
  const announce = (send: () => Promise<unknown>) =>
    void send().catch((error: unknown) =>
      app.log.warn({ err: error instanceof Error ? error.message : String(error) }, 'kill switch push not sent'),
    );
  const toUser = (userId: string, message: PushMessage) => announce(() => app.push.send(userId, message));

  app.post(
    '/exchanges/trading/stop-and-flatten',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['exchanges'],
        summary:
          "Kill switch: stops the caller's automated trading and closes every open trade, answering each one's result",
      },
    },
    async (request, reply): Promise<FlattenResponse> => {
      const userId = request.user.id;
      const outcome = await app.trading.stopAndFlatten(userId, FLATTEN_WAIT_MS);
      const { open } = outcome;
      if (outcome.handedOff) {
        await audit(app, request, 'stop_and_flatten', { details: { open: open.length, handedTo: 'engine instance' } });
        toUser(userId, killSwitchMessage({ scope: 'user', closed: 0, failed: open.length, by: 'you' }));
        reply.code(202);
        return {
          success: true,
          message: flattenSummary({ handedOff: true, open: open.length, closed: 0, stillClosing: open.length }),
          closed: 0,
          stillClosing: open.length,
          trades: open.map(resultOf),
        };
      }
      const { closed, stillClosing, trades } = outcome;
      await audit(app, request, 'stop_and_flatten', { details: { open: open.length, closed, stillClosing } });
      toUser(userId, killSwitchMessage({ scope: 'user', closed, failed: stillClosing, by: 'you' }));
      const message = flattenSummary({ handedOff: false, open: trades.length, closed, stillClosing });
      return { success: true, message, closed, stillClosing, trades: trades.map(resultOf) };
    },
  );

  const change = async (request: FastifyRequest, halted: boolean, reason: string): Promise<HaltResponse> => {
    const admin = await findUserById(app.db, request.user.id);
    const halt = await app.trading.setGlobalHalt(halted, reason, { id: request.user.id, name: admin?.username ?? '' });
    app.haltChanges$.next(halt);
    await audit(app, request, halted ? 'global_halt' : 'global_resume', {
      details: halted && reason ? { reason } : {},
    });
    if (halted)
      announce(() => app.push.broadcast(killSwitchMessage({ scope: 'global', closed: 0, failed: 0, by: 'an admin' })));
    return {
      success: true,
      halt,
      message: halted
        ? 'Trading is halted for every user. Open trades close as usual; no new trades open.'
        : 'Trading resumed for every user.',
    };
  };

  app.post(
    '/admin/trading/halt',
    {
      preHandler: [app.authenticate, app.requireAdmin],
      schema: {
        tags: ['admin'],
        summary: 'Global kill switch: no new trades for anyone (automated or manual) until an admin resumes',
        body: HaltBody,
      },
    },
    (request) => change(request, true, request.body.reason?.trim() ?? ''),
  );

  app.post(
    '/admin/trading/resume',
    {
      preHandler: [app.authenticate, app.requireAdmin],
      schema: { tags: ['admin'], summary: 'Lifts the global kill switch' },
    },
    (request) => change(request, false, ''),
  );
};
