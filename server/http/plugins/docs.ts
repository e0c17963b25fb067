// OpenAPI document generated from the same zod schemas that validate requests, served as JSON at GET /api/docs.
import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

export async function registerDocs(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Arbitrage trading API',
        description: 'REST API of the self-hosted Binance/Deriv arbitrage app. Every answer carries `success`.',
        version: '1.0.0',
      },
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearerAuth: [] }],
    },
    transform: jsonSchemaTransform,
  });
  // Public, like the API's shape it describes: only what the routes themselves declare public answers without a token.
  app.get('/api/docs', { schema: { hide: true, security: [] } }, async () => app.swagger());
}
