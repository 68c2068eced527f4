import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  errorResponses,
  messageResponse,
  okSchema,
  strategyCreateBody,
  strategySchema,
  strategyUpdateBody,
} from '@kairos/contract';
import { currentUser } from '../plugins/auth';

const tags = ['strategies'];
const idParams = z.object({ id: z.string().uuid('Strategy not found') });
export const requestOrigin = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

const strategyRoutes: FastifyPluginAsyncZod = async (app) => {
  const strategies = app.services.strategies;
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/api/strategies',
    { schema: { tags, response: { 200: okSchema(z.array(strategySchema)), ...errorResponses } } },
    async (request) => ({
      success: true as const,
      results: await strategies.list(currentUser(request), requestOrigin(request)),
    }),
  );

  app.get(
    '/api/strategies/:id',
    { schema: { tags, params: idParams, response: { 200: okSchema(strategySchema), ...errorResponses } } },
    async (request) => ({
      success: true as const,
      results: await strategies.get(currentUser(request), request.params.id, requestOrigin(request)),
    }),
  );

  app.post(
    '/api/strategies',
    {
      schema: {
        tags,
        body: strategyCreateBody,
        response: { 201: okSchema(strategySchema), ...errorResponses },
      },
    },
    async (request, reply) =>
      reply.status(201).send({
        success: true as const,
        results: await strategies.create(currentUser(request), request.body, requestOrigin(request)),
      }),
  );

  app.put(
    '/api/strategies/:id',
    {
      schema: {
        tags,
        params: idParams,
        body: strategyUpdateBody,
        response: { 200: okSchema(strategySchema), ...errorResponses },
      },
    },
    async (request) => ({
      success: true as const,
      results: await strategies.update(
        currentUser(request),
        request.params.id,
        request.body,
        requestOrigin(request),
      ),
    }),
  );

  app.delete(
    '/api/strategies/:id',
    { schema: { tags, params: idParams, response: { 200: messageResponse, ...errorResponses } } },
    async (request) => {
      await strategies.remove(currentUser(request), request.params.id);
      return { success: true as const, message: 'Strategy deleted' };
    },
  );
};

export default strategyRoutes;
