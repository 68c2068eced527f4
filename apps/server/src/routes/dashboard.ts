import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dashboardQuery, dashboardSchema, errorResponses, okSchema } from '@kairos/contract';
import { currentUser } from '../plugins/auth';

const dashboardRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/api/dashboard',
    {
      schema: {
        tags: ['dashboard'],
        summary:
          'Equity curve, daily PnL, balance by account, capital by bot and metrics, in the user currency',
        querystring: dashboardQuery,
        response: { 200: okSchema(dashboardSchema), ...errorResponses },
      },
    },
    async (request) => ({
      success: true as const,
      results: await app.services.dashboard.get(currentUser(request), request.query),
    }),
  );
};

export default dashboardRoutes;
