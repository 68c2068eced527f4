import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  errorResponses,
  okSchema,
  portfolioHistoryQuery,
  portfolioHistorySchema,
  portfolioSchema,
} from '@kairos/contract';
import { currentUser } from '../plugins/auth';

/** Spec §3 portfolio: the user's holdings across accounts and their value over time. */
const portfolioRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);

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

export default portfolioRoutes;
