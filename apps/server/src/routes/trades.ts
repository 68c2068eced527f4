import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  errorResponses,
  messageResponse,
  okSchema,
  pagedSchema,
  pushTakeProfitBody,
  pushTakeProfitResponse,
  tradeCompletionSchema,
  tradeCreateBody,
  tradeDetailSchema,
  tradeRowSchema,
  tradesListQuery,
  tradeUpdateBody,
} from '@kairos/contract';
import { currentUser } from '../plugins/auth';

const tags = ['trades'];
const idParams = z.object({ id: z.string().uuid('Trade not found') });

const tradeRoutes: FastifyPluginAsyncZod = async (app) => {
  const trades = app.services.trades;
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/api/trades',
    {
      schema: {
        tags,
        querystring: tradesListQuery,
        response: { 200: pagedSchema(tradeRowSchema), ...errorResponses },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await trades.list(currentUser(request), request.query)),
    }),
  );

  app.post(
    '/api/trades',
    {
      schema: {
        tags,
        body: tradeCreateBody,
        response: { 201: okSchema(tradeDetailSchema), ...errorResponses },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send({ success: true as const, results: await trades.create(currentUser(request), request.body) }),
  );

  app.get(
    '/api/trades/:id',
    { schema: { tags, params: idParams, response: { 200: okSchema(tradeDetailSchema), ...errorResponses } } },
    async (request) => ({
      success: true as const,
      results: await trades.get(currentUser(request), request.params.id),
    }),
  );

  app.put(
    '/api/trades/:id',
    {
      schema: {
        tags,
        params: idParams,
        body: tradeUpdateBody,
        response: { 200: okSchema(tradeDetailSchema), ...errorResponses },
      },
    },
    async (request) => ({
      success: true as const,
      results: await trades.update(currentUser(request), request.params.id, request.body),
    }),
  );

  app.delete(
    '/api/trades/:id',
    { schema: { tags, params: idParams, response: { 200: messageResponse, ...errorResponses } } },
    async (request) => {
      await trades.remove(currentUser(request), request.params.id);
      return { success: true as const, message: 'Trade deleted' };
    },
  );

  app.post(
    '/api/trades/:id/complete',
    {
      schema: {
        tags,
        params: idParams,
        response: { 200: okSchema(tradeCompletionSchema), ...errorResponses },
      },
    },
    async (request) => ({
      success: true as const,
      results: await trades.complete(currentUser(request), request.params.id),
    }),
  );

  app.get(
    '/api/trades/:id/complete',
    {
      schema: {
        tags,
        params: idParams,
        response: { 200: okSchema(tradeCompletionSchema), ...errorResponses },
      },
    },
    async (request) => ({
      success: true as const,
      results: await trades.completion(currentUser(request), request.params.id),
    }),
  );

  app.put(
    '/push-to-take-profit',
    {
      schema: {
        tags,
        body: pushTakeProfitBody,
        response: { 200: pushTakeProfitResponse, ...errorResponses },
      },
    },
    async (request) => trades.push(currentUser(request), request.body),
  );
};

export default tradeRoutes;
