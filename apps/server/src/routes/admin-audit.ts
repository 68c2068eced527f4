import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { auditEntrySchema, auditQuery, errorResponses, skipTakeSchema } from '@kairos/contract';
import { guardAdminRoutes } from './admin-guard';

const adminAuditRoutes: FastifyPluginAsyncZod = async (app) => {
  guardAdminRoutes(app);

  app.get(
    '/admin/audit',
    {
      schema: {
        tags: ['admin: audit'],
        querystring: auditQuery,
        response: { 200: skipTakeSchema(auditEntrySchema), ...errorResponses },
      },
    },
    async (request) => ({ success: true as const, ...(await app.services.audit.list(request.query)) }),
  );
};

export default adminAuditRoutes;
