// POST /api/backtest: what the caller's limits would have done over recorded history: the books the engine decided on,
// and mids only for what was recorded before those were kept (the answer says which). The history is read here (the
// database is this thread's I/O); the replay — the engine's own decision core and paper fills (engine/replay) — runs
// in a worker thread with a time limit. Answered from the database, so an API-only instance serves it too.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  BACKTEST_ALL_PAIRS,
  BACKTEST_MAX_TICKS,
  BACKTEST_TIMEOUT_MS,
  type BacktestResponse,
} from '../../../contract/backtest';
import { BacktestBody } from '../../../contract/backtest-body';
import type { SymbolId } from '../../../contract/domain';
import { enabledSymbols, isEnabledSymbol } from '../../venues/enabled-pairs';
import { readReplayHistory } from '../../db/repositories/spread-history';
import { countSpreadBooks, readReplayBooks } from '../../db/repositories/spread-books';
import { mergeBooks } from '../../engine/replay/books';
import { mergeSeries } from '../../engine/replay/history';
import { backtestInWorker } from '../../engine/replay/run-in-worker';
import { meterBacktest } from '../../ops/metrics';
import { badRequest, HttpError } from '../plugins/http-error';

export const backtestRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/backtest',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['backtest'],
        summary:
          "Replays recorded prices through the engine's own decisions and paper fills with the given limits: trades, P&L, win rate, drawdown, exposure and an equity series",
        body: BacktestBody,
      },
    },
    async (request): Promise<BacktestResponse> => {
      const body = request.body;
      const from = new Date(body.from);
      const to = new Date(Math.min(Date.parse(body.to), Date.now()));
      if (from.getTime() >= to.getTime()) throw badRequest('The range must start in the past');
      if (body.symbol !== BACKTEST_ALL_PAIRS && !isEnabledSymbol(body.symbol))
        throw badRequest(`This server does not trade ${body.symbol}; pick one of ${enabledSymbols().join(', ')}`);
      const symbols: SymbolId[] = body.symbol === BACKTEST_ALL_PAIRS ? [...enabledSymbols()] : [body.symbol];
      // The books the engine decided on; mids only before a symbol's first book (recorded before books were kept).
      const ticks = await countSpreadBooks(app.db, symbols, from, to);
      if (ticks > BACKTEST_MAX_TICKS)
        throw badRequest(
          `This range holds ${ticks.toLocaleString('en-US')} recorded price ticks, more than one backtest replays (${BACKTEST_MAX_TICKS.toLocaleString('en-US')}); pick a shorter range or one symbol`,
        );
      const books = await readReplayBooks(app.db, symbols, from, to);
      // A mid stands for its whole second: the second in which a symbol's books begin is replayed from the books.
      const firstBook = new Map(books.map((b) => [b.symbol, Math.floor((b.t[0] ?? to.getTime()) / 1000) * 1000]));
      const series = (
        await Promise.all(
          symbols.map((symbol) => {
            const end = firstBook.get(symbol) ?? to.getTime();
            return end > from.getTime() ? readReplayHistory(app.db, [symbol], from, new Date(end)) : [];
          }),
        )
      ).flat();
      const count = (minute: boolean) =>
        series.filter((s) => s.minute === minute).reduce((sum, s) => sum + s.t.length, 0);
      const [secondSamples, minuteSamples] = [count(false), count(true)];
      const bookTicks = books.reduce((sum, b) => sum + b.t.length, 0);
      if (secondSamples + minuteSamples + bookTicks === 0)
        throw badRequest('No prices were recorded in this range yet; pick a range the server was running in');
      const source = bookTicks === 0 ? 'mids' : secondSamples + minuteSamples === 0 ? 'books' : 'books-and-mids';
      const limits = { minSpread: body.minSpread, maxExposure: body.maxExposure, maxLoss: body.maxLoss };
      // The engine's own configured limits on holding time and quote freshness, as it trades with them.
      const params = {
        maxHoldMs: app.config.tradeMaxHoldMs,
        quoteMaxAgeMs: app.config.quoteMaxAgeMs,
        quoteMaxSkewMs: app.config.quoteMaxSkewMs,
      };
      const answer = await meterBacktest(app.metrics.families, () =>
        backtestInWorker(
          {
            columns: mergeSeries(series),
            books: mergeBooks(books),
            params,
            limits,
            from: from.getTime(),
            to: to.getTime(),
          },
          BACKTEST_TIMEOUT_MS,
        ),
      );
      if (!answer.ok) {
        if (answer.reason === 'failed') request.log.error({ reason: answer.message }, 'backtest failed');
        throw new HttpError(
          answer.reason === 'busy' ? 429 : 503,
          answer.reason === 'failed' ? 'The backtest could not be run; try again' : answer.message,
        );
      }
      return {
        success: true,
        backtest: {
          symbol: body.symbol,
          from: from.toISOString(),
          to: to.toISOString(),
          limits,
          replayed: { source, bookTicks, secondSamples, minuteSamples, symbols },
          ...answer.result,
        },
      };
    },
  );
};
