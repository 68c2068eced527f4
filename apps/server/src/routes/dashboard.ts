import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  dashboardQuery,
  dashboardSchema,
  errorResponses,
  okSchema,
  portfolioHistoryQuery,
  portfolioHistorySchema,
  portfolioSchema,
} from '@kairos/contract';
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

  app.get(
    '/portfolio',
    { schema: { tags: ['portfolio'], response: { 200: okSchema(portfolioSchema), ...errorResponses } } },
    async (request) => ({
      success: true as const,
      results: await app.services.portfolio.holdings(currentUser(request)),
    }),
  );

  app.get(
    '/portfolio/history',
    {
      schema: {
        tags: ['portfolio'],
        querystring: portfolioHistoryQuery,
        response: { 200: okSchema(portfolioHistorySchema), ...errorResponses },
      },
    },
    async (request) => ({
      success: true as const,
      results: await app.services.portfolio.history(currentUser(request), request.query.period),
    }),
  );
};

export default dashboardRoutes;
