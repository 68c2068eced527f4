import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import type { ErrorEnvelope } from '@kairos/contract';
import { AppError } from '../lib/errors';
import { prefersHtml, sendWebApp } from './web-app';

function envelope(error: string, message: string, details?: ErrorEnvelope['details']): ErrorEnvelope {
  return details ? { success: false, error, message, details } : { success: false, error, message };
}

const FASTIFY_CODES: Record<string, { status: number; code: string; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: {
    status: 400,
    code: 'MALFORMED_JSON',
    message: 'Request body is not valid JSON',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    status: 400,
    code: 'MALFORMED_JSON',
    message: "Body cannot be empty when content-type is set to 'application/json'",
  },
  FST_ERR_CTP_BODY_TOO_LARGE: {
    status: 413,
    code: 'PAYLOAD_TOO_LARGE',
    message: 'Request body is too large',
  },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message: 'Unsupported content type',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    status: 400,
    code: 'BAD_REQUEST',
    message: 'Request body size did not match Content-Length',
  },
};

/**
 * Refusals of the router itself, before any hook runs (Fastify's `frameworkErrors`): an over-long path
 * parameter names nothing that exists; a path that is not valid percent-encoding is a bad request. Same
 * envelope as every other error, and the path is not echoed back.
 */
export function frameworkErrorHandler(err: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (err.code === 'FST_ERR_MAX_PARAM_LENGTH')
    return reply.status(404).send(envelope('NOT_FOUND', 'Not found'));
  if (err.code === 'FST_ERR_BAD_URL') return reply.status(400).send(envelope('BAD_REQUEST', 'Malformed URL'));
  request.log.error({ err }, 'router error');
  return reply.status(500).send(envelope('INTERNAL', 'Internal server error'));
}

/** One error handler for the whole API: the envelope of DESIGN §2, never a stack trace. */
async function errorsPlugin(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (hasZodFastifySchemaValidationErrors(err)) {
      const details = err.validation.map((v) => ({
        path: v.instancePath.replace(/^\//, '').replaceAll('/', '.'),
        message: v.message ?? 'Invalid value',
      }));
      const first = details[0];
      // A malformed id in the path names nothing that exists.
      if (err.validationContext === 'params') {
        return reply.status(404).send(envelope('NOT_FOUND', first?.message ?? 'Not found'));
      }
      const where = err.validationContext === 'body' ? '' : ` (${err.validationContext})`;
      return reply
        .status(400)
        .send(envelope('VALIDATION_ERROR', first ? `${first.message}${where}` : 'Invalid request', details));
    }
    if (err instanceof AppError) {
      if (err.statusCode >= 500) request.log.error({ err }, 'service error');
      return reply.status(err.statusCode).headers(err.headers).send(envelope(err.code, err.message));
    }
    if (isResponseSerializationError(err)) {
      request.log.error({ err, issues: err.cause?.issues }, 'response did not match its schema');
      return reply.status(500).send(envelope('INTERNAL', 'Internal server error'));
    }
    const known = err.code ? FASTIFY_CODES[err.code] : undefined;
    if (known) return reply.status(known.status).send(envelope(known.code, known.message));
    if (err.statusCode === 429) {
      return reply.status(429).send(envelope('RATE_LIMITED', err.message || 'Too many requests'));
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      return reply.status(err.statusCode).send(envelope(err.code ?? 'BAD_REQUEST', err.message));
    }
    request.log.error({ err }, 'unhandled error');
    return reply.status(500).send(envelope('INTERNAL', 'Internal server error'));
  });

  app.setNotFoundHandler((request, reply) => {
    // A browser navigation to any unknown path gets the web app, which renders NotFound itself.
    if (prefersHtml(request) && sendWebApp(reply)) return reply;
    return reply
      .status(404)
      .send(envelope('NOT_FOUND', `Route ${request.method} ${request.url.split('?')[0]} not found`));
  });
}

export default fp(errorsPlugin, { name: 'errors' });
