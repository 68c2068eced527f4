import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminAlertDetailSchema,
  adminAlertSchema,
  adminAlertsQuery,
  adminWebhookRejectionSchema,
  adminWebhookRejectionsQuery,
  errorResponses,
  markAlertDeadBody,
  okSchema,
  pagedSchema,
} from '@kairos/contract';
import { adminActor, guardAdminRoutes } from './admin-guard';

const tags = ['admin: alerts'];
const idParams = z.object({ id: z.string().uuid('Alert not found') });

const adminAlertRoutes: FastifyPluginAsyncZod = async (app) => {
  const alerts = app.services.admin.alerts;
  guardAdminRoutes(app);

  app.get(
    '/admin/alerts',
    {
      schema: {
        tags,
        querystring: adminAlertsQuery,
        response: { 200: pagedSchema(adminAlertSchema), ...errorResponses },
      },
    },
    async (request) => ({ success: true as const, ...(await alerts.list(request.query)) }),
  );

  app.get(
    '/admin/alerts/rejections',
    {
      schema: {
        tags,
        summary: 'Webhooks refused over the last hours, per strategy key and reason (no secret or body kept)',
        querystring: adminWebhookRejectionsQuery,
        response: { 200: okSchema(z.array(adminWebhookRejectionSchema)), ...errorResponses },
      },
    },
    async (request) => ({ success: true as const, results: await alerts.rejected(request.query.hours) }),
  );

  app.get(
    '/admin/alerts/:id',
    {
      schema: {
        tags,
        params: idParams,
        response: { 200: okSchema(adminAlertDetailSchema), ...errorResponses },
      },
    },
    async (request) => ({ success: true as const, results: await alerts.detail(request.params.id) }),
  );

  app.post(
    '/admin/alerts/:id/dead',
    {
      schema: {
        tags,
        params: idParams,
        body: markAlertDeadBody,
        response: { 200: okSchema(adminAlertSchema), ...errorResponses },
      },
    },
    async (request) => ({
      success: true as const,
      results: await alerts.markDead(adminActor(request), request.params.id, request.body.reason),
    }),
  );

  app.post(
    '/admin/alerts/:id/resume',
    { schema: { tags, params: idParams, response: { 200: okSchema(adminAlertSchema), ...errorResponses } } },
    async (request) => ({
      success: true as const,
      results: await alerts.resume(adminActor(request), request.params.id),
    }),
  );
};

export default adminAlertRoutes;
