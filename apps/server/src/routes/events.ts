import { apiError, errorResponses, streamTicketResponse } from '@kairos/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { UnauthorizedError } from '../lib/errors';
import { createStreamWatch } from '../modules/auth/stream-watch';
import type { LiveEvent, Subscriber } from '../modules/events/event-hub';
import { bearerToken, currentUser } from '../plugins/auth';

const HEARTBEAT_MS = 15_000;

/**
 * `GET /api/events`: Server-Sent Events for the signed-in user. EventSource cannot send headers, so the
 * browser opens it with `?ticket=` from `POST /api/events/ticket` (single use, 30 s; issue 20: the access
 * token never travels in a URL); other clients may send the bearer header. Resume with the `Last-Event-ID`
 * header. A stream ends when its sign-in does (logout, a revoked session) or the user's role changes.
 */
const eventRoutes: FastifyPluginAsyncZod = async (app) => {
  const hub = app.services.events;
  const auth = app.services.auth;
  const watch = createStreamWatch({ cache: app.services.sessionCache, auth, log: app.log });
  const open = new Set<() => void>();

  app.addHook('preClose', async () => {
    for (const end of open) end();
    watch.close();
    await hub.close();
  });

  app.post(
    '/api/events/ticket',
    {
      onRequest: [app.authenticate],
      config: { rateLimit: { max: 60, timeWindow: '1 minute' } },
      schema: {
        tags: ['live updates'],
        summary: 'A single-use ticket (30 s) that opens one event stream: GET /api/events?ticket=',
        response: { 200: streamTicketResponse, ...errorResponses },
      },
    },
    async (request) => ({
      success: true as const,
      results: await auth.issueStreamTicket(currentUser(request)),
    }),
  );

  app.get(
    '/api/events',
    {
      schema: {
        tags: ['live updates'],
        summary: 'Server-Sent Events: trade, order, bot, balance (and alert for admins) changes',
        querystring: z.object({
          ticket: z.string().max(200).optional(),
          lastEventId: z.string().max(64).optional(),
        }),
      },
    },
    async (request, reply) => {
      const query = request.query;
      const token = bearerToken(request);
      if (!token && !query.ticket)
        throw new UnauthorizedError(...apiError('UNAUTHORIZED', { variant: 'authenticationRequired' }));
      const user = token ? await auth.authenticate(token) : await auth.redeemStreamTicket(query.ticket!);
      if (!user) throw new UnauthorizedError(...apiError('INVALID_TOKEN'));
      // Issue 20: a user holds at most the operator's number of streams open; a new one ends their oldest.
      // Ended to make room before it was set up: it ends as soon as it is (see below).
      let endedEarly = false;
      let endStream = () => {
        endedEarly = true;
      };
      const release = await app.services.quotas.openStream(user, () => endStream());
      try {
        await hub.ensureListening();
        await watch.ready();
      } catch (e) {
        release();
        throw e;
      }

      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      const write = (chunk: string) => {
        if (!res.writableEnded) res.write(chunk);
      };
      const subscriber: Subscriber = {
        userId: user.id,
        isAdmin: user.role === 'admin',
        send: (e: LiveEvent) =>
          write(
            `id: ${e.id}\nevent: ${e.type}\ndata: ${JSON.stringify({ type: e.type, id: e.entityId, ...(e.status ? { status: e.status } : {}) })}\n\n`,
          ),
      };
      const lastEventId = (request.headers['last-event-id'] as string | undefined) ?? query.lastEventId;
      write('retry: 3000\n\n');
      const mode = hub.subscribe(subscriber, lastEventId);
      write(`event: ${mode === 'resync' ? 'resync' : 'ready'}\ndata: {}\n\n`);
      const heartbeat = setInterval(() => write(': ping\n\n'), HEARTBEAT_MS);

      const end = () => {
        clearInterval(heartbeat);
        hub.unsubscribe(subscriber);
        release();
        unwatch();
        open.delete(end);
        if (!res.writableEnded) res.end();
      };
      endStream = end;
      const unwatch = watch.watch(user, end);
      open.add(end);
      request.raw.on('close', end);
      if (endedEarly) end();
    },
  );
};

export default eventRoutes;
