// Old audit rows are pruned at start and once a day, by every instance (the prune is idempotent), with the same SQL on
// PGlite and PostgreSQL.
import type { FastifyInstance } from 'fastify';
import { pruneAuditEvents } from '../db/repositories/audit';

const DAY_MS = 24 * 3600 * 1000;

export function scheduleAuditRetention(app: FastifyInstance): void {
  const prune = async () => {
    try {
      const removed = await pruneAuditEvents(app.db, app.config.auditRetentionDays);
      if (removed > 0) app.log.info({ removed, days: app.config.auditRetentionDays }, 'pruned old audit events');
    } catch (error) {
      app.log.error({ err: error }, 'could not prune old audit events');
    }
  };
  let timer: NodeJS.Timeout | null = null;
  app.addHook('onReady', async () => {
    await prune();
    timer = setInterval(() => void prune(), DAY_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
  });
}
