import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  botCreateBody,
  botSchema,
  botStopBody,
  botTradesQuery,
  botUpdateBody,
  errorResponses,
  messageResponse,
  okSchema,
  pagedSchema,
  tradeRowSchema,
} from '@kairos/contract';
import { currentUser } from '../plugins/auth';

const tags = ['bots'];
const idParams = z.object({ id: z.string().uuid('Bot not found') });

const botRoutes: FastifyPluginAsyncZod = async (app) => {
  const bots = app.services.bots;
  app.addHook('onRequest', app.authenticate);

  // The list is the screen every client polls: served as sent from a cache kept exact by the live events.
  const listResponse = okSchema(z.array(botSchema));
  const cache = app.services.botsListCache;
  app.get(
    '/api/bots',
    { schema: { tags, response: { 200: listResponse, ...errorResponses } } },
    async (request, reply) => {
      const user = currentUser(request);
      let body = cache.get(user.id);
      if (body === undefined) {
        const version = cache.version(user.id);
        body = JSON.stringify(listResponse.parse({ success: true, results: await bots.list(user) }));
        cache.set(user.id, version, body);
      }
      // Already JSON: Fastify sends a string with a JSON content type as it is.
      return reply
        .type('application/json; charset=utf-8')
        .send(body as unknown as z.infer<typeof listResponse>);
    },
  );

  app.post(
    '/api/bots',
    { schema: { tags, body: botCreateBody, response: { 201: okSchema(botSchema), ...errorResponses } } },
    async (request, reply) =>
      reply
        .status(201)
        .send({ success: true as const, results: await bots.create(currentUser(request), request.body) }),
  );

  app.get(
    '/api/bots/:id',
    { schema: { tags, params: idParams, response: { 200: okSchema(botSchema), ...errorResponses } } },
    async (request) => ({
      success: true as const,
      results: await bots.get(currentUser(request), request.params.id),
    }),
  );

  app.put(
    '/api/bots/:id',
    {
      schema: {
        tags,
        params: idParams,
        body: botUpdateBody,
        response: { 200: okSchema(botSchema), ...errorResponses },
      },
    },
    async (request) => ({
      success: true as const,
      results: await bots.update(currentUser(request), request.params.id, request.body),
    }),
  );

  app.delete(
    '/api/bots/:id',
    { schema: { tags, params: idParams, response: { 200: messageResponse, ...errorResponses } } },
    async (request) => {
      await bots.remove(currentUser(request), request.params.id);
      return { success: true as const, message: 'Bot deleted' };
    },
  );

  app.get(
    '/api/bots/:id/trades',
    {
      schema: {
        tags,
        params: idParams,
        querystring: botTradesQuery,
        response: { 200: pagedSchema(tradeRowSchema), ...errorResponses },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await bots.trades(
        currentUser(request),
        request.params.id,
        request.query.page,
        request.query.pageSize,
      )),
    }),
  );

  app.post(
    '/bots/:id/start',
    { schema: { tags, params: idParams, response: { 200: okSchema(botSchema), ...errorResponses } } },
    async (request) => ({
      success: true as const,
      results: await bots.start(currentUser(request), request.params.id),
    }),
  );

  app.post(
    '/bots/:id/stop',
    {
      schema: {
        tags,
        params: idParams,
        body: botStopBody,
        response: { 200: okSchema(botSchema), ...errorResponses },
      },
    },
    async (request) => ({
      success: true as const,
      results: await bots.stop(currentUser(request), request.params.id, request.body?.closePosition ?? true),
    }),
  );
};

export default botRoutes;
