import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses, quotaSettingsResponse, quotaSettingsSchema } from '@kairos/contract';
import { adminActor, guardAdminRoutes } from './admin-guard';

/** The operator's settings (issue 20): the caps on what one user may hold. */
const adminSettingsRoutes: FastifyPluginAsyncZod = async (app) => {
  guardAdminRoutes(app);
  const quotas = app.services.quotas;
  const tags = ['admin: settings'];

  app.get(
    '/admin/settings/quotas',
    {
      schema: {
        tags,
        summary: 'What one user may hold: strategies, trading accounts, bots, open event streams',
        response: { 200: quotaSettingsResponse, ...errorResponses },
      },
    },
    async () => ({ success: true as const, results: await quotas.settings() }),
  );

  app.put(
    '/admin/settings/quotas',
    {
      schema: {
        tags,
        summary: 'Sets the caps per user (admins are not capped); audited',
        body: quotaSettingsSchema,
        response: { 200: quotaSettingsResponse, ...errorResponses },
      },
    },
    async (request) => ({
      success: true as const,
      results: await quotas.saveSettings(adminActor(request), request.body),
    }),
  );
};

export default adminSettingsRoutes;
