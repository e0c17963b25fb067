// The operator's endpoints at the root, outside /api: GET /healthz (the process answers), GET /readyz (it can serve:
// database, migrations, client build) and GET /metrics (Prometheus text, only with METRICS_TOKEN as a bearer token,
// and not served at all without one). The probes take no authentication and touch nothing but the readiness check.
// The HTTP duration histogram is fed from here too, for every request the app answers.
import type { FastifyInstance } from 'fastify';
import { HttpError, notFound } from '../http/plugins/http-error';
import { bearerMatches } from './bearer';
import type { Readiness } from './health';
import type { OpsMetrics } from './metrics';

export interface OpsRouteOptions {
  metrics: OpsMetrics;
  /** METRICS_TOKEN; /metrics is not served when unset. */
  metricsToken: string | undefined;
  readiness: () => Promise<Readiness>;
}

export function registerOps(app: FastifyInstance, options: OpsRouteOptions): void {
  const { metrics, metricsToken } = options;
  const http = metrics.families.http;
  // The route pattern (/api/trades/:id), never the URL: ids and queries stay out of the labels.
  app.addHook('onResponse', async (request, reply) => {
    http.observe(
      { method: request.method, route: request.routeOptions.url ?? 'unmatched', status_code: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });

  app.get('/healthz', { schema: { hide: true }, logLevel: 'warn' }, async () => ({ status: 'ok' }));

  app.get('/readyz', { schema: { hide: true }, logLevel: 'warn' }, async (_request, reply) => {
    const readiness = await options.readiness();
    return reply
      .code(readiness.ready ? 200 : 503)
      .header('cache-control', 'no-store')
      .send({ status: readiness.ready ? 'ready' : 'not ready', checks: readiness.checks, missing: readiness.missing });
  });

  app.get('/metrics', { schema: { hide: true }, logLevel: 'warn' }, async (request, reply) => {
    // Not served without a token: a 404 like any unknown path (and not the app's shell, which the client routes get).
    if (!metricsToken) throw notFound('Not found');
    if (!bearerMatches(request.headers.authorization, metricsToken))
      throw new HttpError(401, 'The metrics need Authorization: Bearer <METRICS_TOKEN>', {
        'www-authenticate': 'Bearer realm="metrics"',
      });
    const { contentType, body } = await metrics.scrape();
    return reply.header('content-type', contentType).header('cache-control', 'no-store').send(body);
  });
}
