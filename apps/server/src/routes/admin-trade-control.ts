import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminStrategySchema,
  botActionOutcomeSchema,
  errorResponses,
  okSchema,
  pushToTpBody,
  strategyPauseBody,
  tradeControlResultSchema,
  tradeControlScopeQuery,
  tradeControlScopeSchema,
  tradeControlStatusSchema,
} from '@kairos/contract';
import { adminActor, guardAdminRoutes } from './admin-guard';

const tags = ['admin: trade control'];
const idParams = z.object({ id: z.string().uuid('Strategy not found') });
const botParams = z.object({ id: z.string().uuid('Bot not found') });
const resultResponse = { 200: okSchema(tradeControlResultSchema), ...errorResponses };
const botOutcomeResponse = { 200: okSchema(botActionOutcomeSchema), ...errorResponses };

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

  app.get(
    '/admin/strategies/:id/trades/scope',
    {
      schema: {
        tags,
        params: idParams,
        querystring: tradeControlScopeQuery,
        response: { 200: okSchema(tradeControlScopeSchema), ...errorResponses },
      },
    },
    async (request) => ({
      success: true as const,
      results: await control.scope(request.params.id, request.query.action),
    }),
  );

  app.put(
    '/admin/strategies/:id/status',
    {
      schema: {
        tags,
        params: idParams,
        body: strategyPauseBody,
        response: { 200: okSchema(adminStrategySchema), ...errorResponses },
      },
    },
    async (request) => ({
      success: true as const,
      results: await control.setStatus(adminActor(request), request.params.id, request.body.status),
    }),
  );

  app.post(
    '/admin/bots/:id/close-position',
    { schema: { tags, params: botParams, response: botOutcomeResponse } },
    async (request) => ({
      success: true as const,
      results: await control.runForBot(adminActor(request), request.params.id, 'close-position'),
    }),
  );

  app.post(
    '/admin/bots/:id/pause',
    { schema: { tags, params: botParams, response: botOutcomeResponse } },
    async (request) => ({
      success: true as const,
      results: await control.runForBot(adminActor(request), request.params.id, 'pause'),
    }),
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
