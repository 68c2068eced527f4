import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { healthResponseSchema } from '@kairos/contract';

const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/healthz',
    {
      schema: {
        tags: ['system'],
        summary: 'Liveness and readiness: database, migrations, worker heartbeat',
        response: { 200: healthResponseSchema, 503: healthResponseSchema },
      },
    },
    async (_request, reply) => {
      const health = await app.services.health.check();
      return reply.status(health.status === 'ok' ? 200 : 503).send(health);
    },
  );
};

export default healthRoutes;
