// GET /api/trades/export.csv: the caller's trades under the trade list's filters and a date range, as a CSV file
// streamed from the database batch by batch (repositories/trade-export.ts), so its size never meets the heap.
import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { TradesExportQuery } from '../../../contract/api';
import { tradeCsvLine, tradesCsvFileName, tradesCsvHeader } from '../../../contract/csv';
import type { Db } from '../../db/client';
import { exportTradeBatches, type TradeExportFilter } from '../../db/repositories/trade-export';

/** The file's text, one chunk a batch: the header first, so an empty range still gives a valid (header-only) file. */
async function* csvChunks(db: Db, userId: string, filter: TradeExportFilter): AsyncGenerator<string> {
  yield tradesCsvHeader();
  for await (const batch of exportTradeBatches(db, userId, filter)) {
    let chunk = '';
    for (const trade of batch) chunk += tradeCsvLine(trade);
    yield chunk;
  }
}

export const tradeExportRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/trades/export.csv',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['trades'],
        summary: "The caller's trades as CSV (newest first), filtered by status, symbol and opening time [from, to)",
        querystring: TradesExportQuery,
      },
    },
    async (request, reply) => {
      const { status, symbol, from, to } = request.query;
      const filter: TradeExportFilter = {
        status,
        symbol,
        from: from ? new Date(from) : undefined,
        to: to ? new Date(to) : undefined,
      };
      const stream = Readable.from(csvChunks(app.db, request.user.id, filter), { objectMode: false });
      // Headers are sent before the first row: a database failure later can only cut the file short, so it is
      // logged and the connection closed (a client sees an incomplete download, never a wrong one).
      stream.on('error', (error) => request.log.error({ err: error }, 'trade export failed part-way'));
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${tradesCsvFileName(from, to)}"`)
        .header('cache-control', 'no-store')
        .send(stream);
    },
  );
};
