// GET /api/admin/backup: a consistent backup of the embedded database, streamed to an admin as a file (the same file
// `npm run backup` writes). Admins only, recorded in the audit log. On PostgreSQL the database is backed up with its
// own tools (pg_dump; README, Operations), so this answers 409 saying so.
import type { FastifyPluginAsync } from 'fastify';
import { SNAPSHOT_CONTENT_TYPE, snapshotFileName } from '../../db/pglite-snapshot';
import { audit } from '../../audit/audit';
import { BackupBusyError, type BackupSource } from '../../ops/backup/gate';
import { conflict, HttpError } from '../plugins/http-error';

export const POSTGRES_BACKUP_MESSAGE =
  'This server keeps its data in PostgreSQL: back it up with pg_dump (see Operations in the README)';

export const backupRoutes: FastifyPluginAsync<{ backups: BackupSource | null }> = async (app, { backups }) => {
  app.get(
    '/admin/backup',
    {
      preHandler: [app.authenticate, app.requireAdmin],
      schema: {
        tags: ['admin'],
        summary:
          'A consistent backup of the embedded database as a gzip-compressed tarball (restore it with npm run restore)',
      },
    },
    async (request, reply) => {
      if (!backups) throw conflict(POSTGRES_BACKUP_MESSAGE);
      let stream;
      try {
        stream = await backups.take();
      } catch (error) {
        if (error instanceof BackupBusyError) throw new HttpError(429, error.message, { 'retry-after': '10' });
        throw error;
      }
      const fileName = snapshotFileName('arbitrage-backup');
      await audit(app, request, 'backup_downloaded', { details: { file: fileName } });
      // The copy is taken; only its streaming is left. A client that goes away ends the stream (and frees the gate).
      stream.on('error', (error) => request.log.error({ err: error }, 'backup download failed part-way'));
      return reply
        .header('content-type', SNAPSHOT_CONTENT_TYPE)
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .header('cache-control', 'no-store')
        .send(stream);
    },
  );
};
