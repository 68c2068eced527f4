import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses, webhookAck, webhookBody } from '@kairos/contract';

const tags = ['webhooks'];

/** TradingView alerts: JSON, or the same JSON sent as text/plain (TradingView's default). */
const webhookRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addContentTypeParser('text/plain', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_req, body, done) => {
    try {
      done(null, JSON.parse(body as string));
    } catch {
      const err = new Error('Alert body must be JSON') as Error & { statusCode: number; code: string };
      err.statusCode = 400;
      err.code = 'MALFORMED_JSON';
      done(err, undefined);
    }
  });

  const opts = { bodyLimit: 64 * 1024 };

  app.post(
    '/webhooks/tradingview',
    { ...opts, schema: { tags, body: webhookBody, response: { 200: webhookAck, ...errorResponses } } },
    async (request) => ({
      success: true as const,
      results: await app.services.alerts.ingest(request.body, undefined),
    }),
  );

  app.post(
    '/webhooks/:strategyKey',
    {
      ...opts,
      schema: {
        tags,
        params: z.object({ strategyKey: z.string().min(1).max(64) }),
        body: webhookBody,
        response: { 200: webhookAck, ...errorResponses },
      },
    },
    async (request) => ({
      success: true as const,
      results: await app.services.alerts.ingest(request.body, request.params.strategyKey),
    }),
  );
};

export default webhookRoutes;
