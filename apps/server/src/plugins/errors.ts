import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { apiError, type ErrorEnvelope } from '@kairos/contract';
import { DomainRuleError } from '@kairos/core';
import { ExchangeGatewayError } from '../exchange/errors';
import { AppError } from '../lib/errors';
import { prefersHtml, sendWebApp } from './web-app';

type Refusal = [code: string, message: string, params?: ErrorEnvelope['params']];

function envelope([error, message, params]: Refusal, details?: ErrorEnvelope['details']): ErrorEnvelope {
  return {
    success: false,
    error,
    message,
    ...(params && Object.keys(params).length > 0 ? { params } : {}),
    ...(details ? { details } : {}),
  };
}

const FASTIFY_CODES: Record<string, { status: number; refusal: Refusal }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, refusal: apiError('MALFORMED_JSON') },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, refusal: apiError('MALFORMED_JSON', { variant: 'empty' }) },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, refusal: apiError('PAYLOAD_TOO_LARGE') },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, refusal: apiError('UNSUPPORTED_MEDIA_TYPE') },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    status: 400,
    refusal: apiError('BAD_REQUEST', { variant: 'contentLength' }),
  },
};

const INTERNAL = apiError('INTERNAL');

/**
 * Refusals of the router itself, before any hook runs (Fastify's `frameworkErrors`): an over-long path
 * parameter names nothing that exists; a path that is not valid percent-encoding is a bad request. Same
 * envelope as every other error, and the path is not echoed back.
 */
export function frameworkErrorHandler(err: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (err.code === 'FST_ERR_MAX_PARAM_LENGTH')
    return reply.status(404).send(envelope(apiError('NOT_FOUND', { variant: 'nothing' })));
  if (err.code === 'FST_ERR_BAD_URL')
    return reply.status(400).send(envelope(apiError('BAD_REQUEST', { variant: 'malformedUrl' })));
  request.log.error({ err }, 'router error');
  return reply.status(500).send(envelope(INTERNAL));
}

/**
 * One error handler for the whole API: the envelope of DESIGN §2, never a stack trace. The only place
 * refusals become HTTP: a DomainRuleError (core's, the engine's, a service's) is a 422 unless it carries
 * its own status (AppError), and a venue's refusal is a 422 too; each keeps its code and params.
 */
async function errorsPlugin(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (hasZodFastifySchemaValidationErrors(err)) {
      const details = err.validation.map((v) => ({
        path: v.instancePath.replace(/^\//, '').replaceAll('/', '.'),
        message: v.message ?? 'Invalid value',
      }));
      const first = details[0];
      // A malformed id in the path names nothing that exists.
      // The schemas' own words (the contract's validation messages), said as they are.
      if (err.validationContext === 'params') {
        return reply
          .status(404)
          .send(
            envelope(first ? ['NOT_FOUND', first.message] : apiError('NOT_FOUND', { variant: 'nothing' })),
          );
      }
      const where = err.validationContext === 'body' ? '' : ` (${err.validationContext})`;
      const refusal: Refusal = first
        ? ['VALIDATION_ERROR', `${first.message}${where}`]
        : apiError('VALIDATION_ERROR', { variant: 'invalidRequest' });
      return reply.status(400).send(envelope(refusal, details));
    }
    const thrown: unknown = err;
    if (thrown instanceof DomainRuleError) {
      const status = thrown instanceof AppError ? thrown.statusCode : 422;
      if (status >= 500) request.log.error({ err }, 'service error');
      if (thrown instanceof AppError) reply.headers(thrown.headers);
      return reply.status(status).send(envelope([thrown.code, thrown.message, thrown.params]));
    }
    if (thrown instanceof ExchangeGatewayError) {
      return reply.status(422).send(envelope([thrown.code, thrown.message, thrown.params]));
    }
    if (isResponseSerializationError(err)) {
      request.log.error({ err, issues: err.cause?.issues }, 'response did not match its schema');
      return reply.status(500).send(envelope(INTERNAL));
    }
    const known = err.code ? FASTIFY_CODES[err.code] : undefined;
    if (known) return reply.status(known.status).send(envelope(known.refusal));
    if (err.statusCode === 429) {
      const refusal: Refusal = err.message
        ? ['RATE_LIMITED', err.message]
        : apiError('RATE_LIMITED', { variant: 'tooManyRequests' });
      return reply.status(429).send(envelope(refusal));
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      return reply.status(err.statusCode).send(envelope([err.code ?? 'BAD_REQUEST', err.message]));
    }
    request.log.error({ err }, 'unhandled error');
    return reply.status(500).send(envelope(INTERNAL));
  });

  app.setNotFoundHandler((request, reply) => {
    // A browser navigation to any unknown path gets the web app, which renders NotFound itself.
    if (prefersHtml(request) && sendWebApp(reply)) return reply;
    const path = request.url.split('?')[0] ?? '';
    return reply
      .status(404)
      .send(envelope(apiError('NOT_FOUND', { variant: 'route', method: request.method, path })));
  });
}

export default fp(errorsPlugin, { name: 'errors' });
