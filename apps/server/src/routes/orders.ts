import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses, ordersListQuery, pagedSchema, userOrderSchema } from '@kairos/contract';
import { currentUser } from '../plugins/auth';

/** The user's orders (issue 21): read only; an unfilled entry is cancelled through its trade's complete. */
const orderRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/api/orders',
    {
      schema: {
        tags: ['orders'],
        querystring: ordersListQuery,
        response: { 200: pagedSchema(userOrderSchema), ...errorResponses },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await app.services.orders.list(currentUser(request), request.query)),
    }),
  );
};

export default orderRoutes;
