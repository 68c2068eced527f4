import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminStrategySchema,
  errorResponses,
  okSchema,
  pushToTpBody,
  tradeControlResultSchema,
  tradeControlStatusSchema,
} from '@kairos/contract';
import { adminActor, guardAdminRoutes } from './admin-guard';

const tags = ['admin: trade control'];
const idParams = z.object({ id: z.string().uuid('Strategy not found') });
const resultResponse = { 200: okSchema(tradeControlResultSchema), ...errorResponses };

const adminTradeControlRoutes: FastifyPluginAsyncZod = async (app) => {
  const control = app.services.admin.tradeControl;
  guardAdminRoutes(app);

  app.get(
    '/admin/strategies',
    { schema: { tags, response: { 200: okSchema(z.array(adminStrategySchema)), ...errorResponses } } },
    async () => ({ success: true as const, results: await control.listStrategies() }),
  );

  app.get(
    '/admin/strategies/:id/trades/status',
    {
      schema: {
        tags,
        params: idParams,
        response: { 200: okSchema(tradeControlStatusSchema), ...errorResponses },
      },
    },
    async (request) => ({ success: true as const, results: await control.status(request.params.id) }),
  );

  app.post(
    '/admin/strategies/:id/trades/push-to-tp',
    { schema: { tags, params: idParams, body: pushToTpBody, response: resultResponse } },
    async (request) => ({
      success: true as const,
      results: await control.run(adminActor(request), request.params.id, 'push-to-tp', {
        role: request.body?.takeProfitRole,
      }),
    }),
  );

  app.post(
    '/admin/strategies/:id/trades/close-positions',
    { schema: { tags, params: idParams, response: resultResponse } },
    async (request) => ({
      success: true as const,
      results: await control.run(adminActor(request), request.params.id, 'close-positions'),
    }),
  );

  app.post(
    '/admin/strategies/:id/trades/cancel-orders',
    { schema: { tags, params: idParams, response: resultResponse } },
    async (request) => ({
      success: true as const,
      results: await control.run(adminActor(request), request.params.id, 'cancel-orders'),
    }),
  );
};

export default adminTradeControlRoutes;
