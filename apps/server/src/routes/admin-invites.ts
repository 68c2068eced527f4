import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  errorResponses,
  inviteCreateBody,
  inviteCreatedSchema,
  inviteIdParams,
  inviteSchema,
  invitesQuery,
  skipTakeSchema,
} from '@kairos/contract';
import { adminActor, guardAdminRoutes } from './admin-guard';

/** Invite links (issue 20): with registration closed, the admin lets people in one link at a time. */
const adminInvitesRoutes: FastifyPluginAsyncZod = async (app) => {
  guardAdminRoutes(app);
  const invites = app.services.admin.invites;
  const tags = ['admin: invites'];

  app.get(
    '/admin/invites',
    {
      schema: {
        tags,
        summary: 'Invite links, newest first, with their status (never their token)',
        querystring: invitesQuery,
        response: { 200: skipTakeSchema(inviteSchema), ...errorResponses },
      },
    },
    async (request) => ({ success: true as const, ...(await invites.list(request.query)) }),
  );

  app.post(
    '/admin/invites',
    {
      schema: {
        tags,
        summary: 'Makes a single-use invite link (7 days unless said); the link is shown this once; audited',
        body: inviteCreateBody,
        response: {
          201: z.object({ success: z.literal(true), results: inviteCreatedSchema }),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const results = await invites.create(adminActor(request), request.body);
      return reply.status(201).send({ success: true as const, results });
    },
  );

  app.delete(
    '/admin/invites/:id',
    {
      schema: {
        tags,
        summary: 'Revokes a pending invite: its link no longer works; audited',
        params: inviteIdParams,
        response: { 200: z.object({ success: z.literal(true), results: inviteSchema }), ...errorResponses },
      },
    },
    async (request) => ({
      success: true as const,
      results: await invites.revoke(adminActor(request), request.params.id),
    }),
  );
};

export default adminInvitesRoutes;
