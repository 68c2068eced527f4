import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  accountDeleteQuery,
  botsDistributionSchema,
  errorResponses,
  messageResponse,
  okSchema,
  tradingAccountCreateBody,
  tradingAccountSchema,
  tradingAccountUpdateBody,
} from '@kairos/contract';
import { currentUser } from '../plugins/auth';

const tags = ['trading accounts'];
const idParams = z.object({ id: z.string().uuid('Trading account not found') });

const accountRoutes: FastifyPluginAsyncZod = async (app) => {
  const accounts = app.services.accounts;
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/api/trading-accounts',
    { schema: { tags, response: { 200: okSchema(z.array(tradingAccountSchema)), ...errorResponses } } },
    async (request) => ({ success: true as const, results: await accounts.list(currentUser(request)) }),
  );

  app.post(
    '/api/trading-accounts',
    {
      schema: {
        tags,
        body: tradingAccountCreateBody,
        response: { 201: okSchema(tradingAccountSchema), ...errorResponses },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send({ success: true as const, results: await accounts.create(currentUser(request), request.body) }),
  );

  app.put(
    '/api/trading-accounts/:id',
    {
      schema: {
        tags,
        params: idParams,
        body: tradingAccountUpdateBody,
        response: { 200: okSchema(tradingAccountSchema), ...errorResponses },
      },
    },
    async (request) => ({
      success: true as const,
      results: await accounts.update(currentUser(request), request.params.id, request.body),
    }),
  );

  app.delete(
    '/api/trading-accounts/:id',
    {
      schema: {
        tags,
        params: idParams,
        querystring: accountDeleteQuery,
        response: { 200: messageResponse, ...errorResponses },
      },
    },
    async (request) => {
      await accounts.remove(currentUser(request), request.params.id, request.query.bots);
      return { success: true as const, message: 'Trading account deleted' };
    },
  );

  app.get(
    '/api/trading-accounts/:id/bots-distributions',
    {
      schema: {
        tags,
        params: idParams,
        querystring: z.object({ exclude_bot_id: z.string().uuid().optional() }),
        response: { 200: okSchema(botsDistributionSchema), ...errorResponses },
      },
    },
    async (request) => ({
      success: true as const,
      results: await accounts.botsDistribution(
        currentUser(request),
        request.params.id,
        request.query.exclude_bot_id,
      ),
    }),
  );
};

export default accountRoutes;
