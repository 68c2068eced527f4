import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses, myBillingSchema, okSchema } from '@kairos/contract';
import { currentUser } from '../plugins/auth';

/** The signed-in user's own billing (issue 21): plan, month in progress, months billed, invoices. */
const billingRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/api/billing',
    { schema: { tags: ['billing'], response: { 200: okSchema(myBillingSchema), ...errorResponses } } },
    async (request) => ({
      success: true as const,
      results: await app.services.billing.mine(currentUser(request).id),
    }),
  );
};

export default billingRoutes;
