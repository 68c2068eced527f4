import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses, outboxMailSchema, outboxQuery, skipTakeSchema } from '@kairos/contract';
import { adminActor, guardAdminRoutes } from './admin-guard';

const adminOutboxRoutes: FastifyPluginAsyncZod = async (app) => {
  guardAdminRoutes(app);

  /** The mail Kairos sent or keeps, bodies included (reset links: admins only, each read audited). */
  app.get(
    '/admin/outbox',
    {
      schema: {
        tags: ['admin: outbox'],
        querystring: outboxQuery,
        response: { 200: skipTakeSchema(outboxMailSchema), ...errorResponses },
      },
    },
    async (request) => {
      const page = await app.services.admin.outbox.list(request.query);
      await app.services.audit.recordAudit(adminActor(request), {
        action: 'outbox.read',
        target: 'outbox',
        details: { skip: page.skip, take: page.take, mails: page.results.map((m) => m.id) },
        outcome: 'ok',
      });
      return { success: true as const, ...page };
    },
  );
};

export default adminOutboxRoutes;
