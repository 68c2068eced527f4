import { apiError } from '@kairos/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ForbiddenError, UnauthorizedError } from '../lib/errors';
import type { AuthedUser } from '../modules/auth/auth-service';

declare module 'fastify' {
  interface FastifyRequest {
    user?: AuthedUser;
  }
  interface FastifyInstance {
    authenticate: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    optionalAuth: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    requireAdmin: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
}

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const [scheme, token] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && token ? token.trim() : undefined;
}

/** Every protected route runs `authenticate`; admin routes add `requireAdmin` (checked on the server, always). */
async function authPlugin(app: FastifyInstance) {
  app.decorateRequest('user', undefined);
  app.addHook('onClose', async () => app.services.sessionCache.close());

  // A write by a signed-in user drops their cached bots list before the answer goes out (read your writes,
  // whatever it changed); an admin's may touch anyone's (shared strategies, trade control): all are dropped.
  app.addHook('onSend', async (request) => {
    if (request.method === 'GET' || request.method === 'HEAD' || !request.user) return;
    if (request.user.role === 'admin') app.services.botsListCache.clear();
    else app.services.botsListCache.invalidate(request.user.id);
  });

  app.decorate('optionalAuth', async (request: FastifyRequest) => {
    const token = bearerToken(request);
    if (token) request.user = await app.services.auth.authenticate(token);
  });

  app.decorate('authenticate', async (request: FastifyRequest) => {
    const token = bearerToken(request);
    if (!token)
      throw new UnauthorizedError(...apiError('UNAUTHORIZED', { variant: 'authenticationRequired' }));
    const user = await app.services.auth.authenticate(token);
    if (!user) throw new UnauthorizedError(...apiError('INVALID_TOKEN'));
    request.user = user;
    // Issue 20: each signed-in user has a budget of requests per minute (429 with Retry-After past it).
    app.services.quotas.spend(user, request.method);
  });

  app.decorate('requireAdmin', async (request: FastifyRequest, reply: FastifyReply) => {
    if (!request.user) await app.authenticate(request, reply);
    if (request.user?.role !== 'admin')
      throw new ForbiddenError(...apiError('FORBIDDEN', { variant: 'adminRequired' }));
  });
}

export default fp(authPlugin, { name: 'auth' });

/** The signed-in user of a route that ran `authenticate`. */
export function currentUser(request: FastifyRequest): AuthedUser {
  if (!request.user) throw new UnauthorizedError(...apiError('UNAUTHORIZED'));
  return request.user;
}
