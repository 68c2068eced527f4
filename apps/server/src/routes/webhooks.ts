import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiError, errorResponses, webhookAck, webhookBody } from '@kairos/contract';
import { ValidationError } from '../lib/errors';

const tags = ['webhooks'];

/** TradingView alerts: JSON, or the same JSON sent as text/plain (TradingView's default). */
const webhookRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addContentTypeParser('text/plain', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_req, body, done) => {
    try {
      done(null, JSON.parse(body as string));
    } catch {
      done(new ValidationError(...apiError('MALFORMED_JSON', { variant: 'alertBody' })), undefined);
    }
  });

  // Every refusal is counted for the alerts console (issue 21): its code, the strategy key it named and the
  // source address — never the secret or the body.
  const rejections = app.services.webhookRejections;
  app.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode < 400) return payload;
    let reason = `HTTP_${reply.statusCode}`;
    try {
      const body = JSON.parse(String(payload)) as { error?: unknown };
      if (typeof body.error === 'string') reason = body.error;
    } catch {
      // not JSON: the status says it
    }
    const key =
      (request.params as { strategyKey?: unknown } | undefined)?.strategyKey ??
      (request.body as { strategyKey?: unknown } | undefined)?.strategyKey;
    rejections.record(typeof key === 'string' ? key : undefined, reason, request.ip);
    return payload;
  });
  app.addHook('onClose', async () => rejections.close());

  // Per source address, before anything else is read (issue 20); per strategy in the alerts service.
  const opts = {
    bodyLimit: 64 * 1024,
    config: { rateLimit: { max: app.deps.config.webhookLimit.perAddressPerMinute, timeWindow: '1 minute' } },
  };

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
