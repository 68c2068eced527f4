import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  errorResponses,
  okSchema,
  preferencesSchema,
  preferencesUpdate,
  profileUpdate,
  userProfileSchema,
} from '@kairos/contract';
import { currentUser } from '../plugins/auth';

const tags = ['user'];

const userRoutes: FastifyPluginAsyncZod = async (app) => {
  const users = app.services.users;
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/user/profile',
    { schema: { tags, response: { 200: okSchema(userProfileSchema), ...errorResponses } } },
    async (request) => ({
      success: true as const,
      results: await users.profile(currentUser(request).id),
    }),
  );

  app.put(
    '/user/profile',
    {
      schema: {
        tags,
        body: profileUpdate,
        response: { 200: okSchema(userProfileSchema), ...errorResponses },
      },
    },
    async (request) => ({
      success: true as const,
      results: await users.updateProfile(currentUser(request).id, request.body),
    }),
  );

  app.get(
    '/user/settings',
    { schema: { tags, response: { 200: okSchema(preferencesSchema), ...errorResponses } } },
    async (request) => ({
      success: true as const,
      results: await users.settings(currentUser(request).id),
    }),
  );

  app.put(
    '/user/settings',
    {
      schema: {
        tags,
        body: preferencesUpdate,
        response: { 200: okSchema(preferencesSchema), ...errorResponses },
      },
    },
    async (request) => ({
      success: true as const,
      results: await users.updateSettings(currentUser(request).id, request.body),
    }),
  );
};

export default userRoutes;
