import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { IdempotencyRequest } from '../modules/idempotency/idempotency-repo';
import { parseIdempotencyKey, requestHash } from '../modules/idempotency/idempotency-service';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set when this request claimed its Idempotency-Key: its answer is kept for the key's repeats. */
    idempotency?: IdempotencyRequest;
  }
}

const MUTATIONS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * `Idempotency-Key` on every signed-in user's write (issue 21: a double click created two live bots).
 * The first request with a key runs and its answer is kept (not a 5xx); a repeat with the same method, path
 * and body gets that answer without running, waits a moment for it while the first is still running (then
 * 409 IDEMPOTENCY_IN_FLIGHT), and a repeat of another request is refused (422 IDEMPOTENCY_KEY_REUSED).
 * Runs once the route has authenticated (`onRequest`) and parsed the body, before validation. Without the
 * header nothing changes. The session routes (`/auth/*`) are left out: their bodies carry passwords and
 * their answers tokens, and none of them creates anything twice.
 */
async function idempotencyPlugin(app: FastifyInstance) {
  app.decorateRequest('idempotency', undefined);

  app.addHook('preValidation', async (request, reply) => {
    const header = request.headers['idempotency-key'];
    if (header === undefined || !request.user || !MUTATIONS.has(request.method)) return;
    if (request.url.startsWith('/auth/')) return;
    const start = await app.services.idempotency.begin({
      userId: request.user.id,
      key: parseIdempotencyKey(header),
      method: request.method,
      path: request.url,
      requestHash: requestHash(request.body),
    });
    if (start.kind === 'run') {
      request.idempotency = start.request;
      return;
    }
    return reply
      .status(start.statusCode)
      .header('idempotent-replayed', 'true')
      .type('application/json; charset=utf-8')
      .send(start.body);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const claimed = request.idempotency;
    if (!claimed) return payload;
    request.idempotency = undefined;
    try {
      await app.services.idempotency.finish(
        claimed,
        reply.statusCode,
        typeof payload === 'string' ? payload : undefined,
      );
    } catch (err) {
      // The answer goes out anyway: the work is done. Its key stays in flight until abandoned.
      request.log.error({ err }, 'idempotency key not stored');
    }
    return payload;
  });
}

export default fp(idempotencyPlugin, { name: 'idempotency', dependencies: ['auth'] });
