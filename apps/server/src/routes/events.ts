import { apiError } from '@kairos/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { UnauthorizedError } from '../lib/errors';
import type { LiveEvent, Subscriber } from '../modules/events/event-hub';
import { bearerToken } from '../plugins/auth';

const HEARTBEAT_MS = 15_000;

/**
 * `GET /api/events`: Server-Sent Events for the signed-in user. EventSource cannot send headers,
 * so the token may also come as `?token=`. Resume with the `Last-Event-ID` header.
 */
const eventRoutes: FastifyPluginAsyncZod = async (app) => {
  const hub = app.services.events;
  const open = new Set<() => void>();

  app.addHook('preClose', async () => {
    for (const end of open) end();
    await hub.close();
  });

  app.get(
    '/api/events',
    {
      schema: {
        tags: ['live updates'],
        summary: 'Server-Sent Events: trade, order, bot, balance (and alert for admins) changes',
        querystring: z.object({
          token: z.string().max(200).optional(),
          lastEventId: z.string().max(64).optional(),
        }),
      },
    },
    async (request, reply) => {
      const query = request.query;
      const token = bearerToken(request) ?? query.token;
      const user = token ? await app.services.auth.authenticate(token) : undefined;
      if (!user)
        throw new UnauthorizedError(...apiError('UNAUTHORIZED', { variant: 'authenticationRequired' }));
      await hub.ensureListening();

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
        open.delete(end);
        if (!res.writableEnded) res.end();
      };
      open.add(end);
      request.raw.on('close', end);
    },
  );
};

export default eventRoutes;
