import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  changePasswordBody,
  disableTwoFaBody,
  emailBody,
  emailCodeBody,
  enableTwoFaBody,
  enableTwoFaResponse,
  errorResponses,
  loginBody,
  loginResponse,
  messageResponse,
  okSchema,
  refreshBody,
  registerBody,
  sessionIdParams,
  sessionListResponse,
  sessionTokensSchema,
  userSchema,
  verifyTwoFaResponse,
} from '@kairos/contract';
import { currentUser } from '../plugins/auth';

const ctx = (request: FastifyRequest) => ({ ip: request.ip, userAgent: request.headers['user-agent'] });
// Coarse per-IP flood guard on top of the per-account failure counters of the auth service.
const flood = { rateLimit: { max: 60, timeWindow: '1 minute' } };
const tags = ['auth'];

const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const auth = app.services.auth;
  // While the admin seat is free, the operator's console (only) says how to take it.
  app.addHook('onReady', () => auth.announceAdminSetup(app.log));

  app.post(
    '/auth/register',
    {
      config: flood,
      schema: {
        tags,
        summary: 'Creates an account; answers the same for an address that has one (its owner is mailed)',
        body: registerBody,
        response: { 201: messageResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      await auth.register(request.body);
      return reply
        .status(201)
        .send({ success: true as const, message: 'Account created. Log in to continue.' });
    },
  );

  app.post(
    '/auth/login',
    { config: flood, schema: { tags, body: loginBody, response: { 200: loginResponse, ...errorResponses } } },
    async (request) => {
      const result = await auth.login(request.body, ctx(request));
      if ('requires2FA' in result)
        return { success: true as const, results: result, message: '2FA code required' };
      return { success: true as const, results: result };
    },
  );

  app.post(
    '/auth/logout',
    {
      onRequest: [app.authenticate],
      schema: { tags, response: { 200: messageResponse, ...errorResponses } },
    },
    async (request) => {
      await auth.logout(currentUser(request));
      return { success: true as const, message: 'Logged out' };
    },
  );

  app.get(
    '/auth/sessions',
    {
      onRequest: [app.authenticate],
      schema: {
        tags,
        summary: "The user's live sign-ins (one per device), the caller's marked current",
        response: { 200: sessionListResponse, ...errorResponses },
      },
    },
    async (request) => ({ success: true as const, results: await auth.listSessions(currentUser(request)) }),
  );

  app.delete(
    '/auth/sessions/:id',
    {
      onRequest: [app.authenticate],
      schema: {
        tags,
        summary: "Ends one of the user's sign-ins (its whole refresh family); the caller's own is a logout",
        params: sessionIdParams,
        response: { 200: messageResponse, ...errorResponses },
      },
    },
    async (request) => {
      await auth.revokeSessionOf(currentUser(request), request.params.id);
      return { success: true as const, message: 'Session revoked' };
    },
  );

  app.post(
    '/auth/refresh',
    {
      config: flood,
      schema: {
        tags,
        body: refreshBody,
        response: { 200: okSchema(sessionTokensSchema), ...errorResponses },
      },
    },
    async (request) => ({
      success: true as const,
      results: await auth.refresh(request.body.refreshToken, ctx(request)),
    }),
  );

  app.post(
    '/auth/enable-2fa',
    {
      onRequest: [app.authenticate],
      config: flood,
      schema: { tags, body: enableTwoFaBody, response: { 200: enableTwoFaResponse, ...errorResponses } },
    },
    async (request) => {
      const enrolment = await auth.enableTwoFa(currentUser(request), request.body, ctx(request));
      return { success: true as const, results: enrolment, secret: enrolment.secret };
    },
  );

  app.post(
    '/auth/verify-2fa',
    {
      onRequest: [app.authenticate],
      config: flood,
      schema: {
        tags,
        body: emailCodeBody,
        response: { 200: verifyTwoFaResponse, ...errorResponses },
      },
    },
    async (request) => ({
      success: true as const,
      results: await auth.verifyTwoFa(currentUser(request), request.body, ctx(request)),
    }),
  );

  app.post(
    '/auth/disable-2fa',
    {
      onRequest: [app.authenticate],
      config: flood,
      schema: {
        tags,
        body: disableTwoFaBody,
        response: { 200: okSchema(z.object({ user: userSchema })), ...errorResponses },
      },
    },
    async (request) => ({
      success: true as const,
      results: { user: await auth.disableTwoFa(currentUser(request), request.body, ctx(request)) },
    }),
  );

  app.post(
    '/auth/forgot-pass',
    {
      config: flood,
      schema: { tags, body: emailBody, response: { 200: messageResponse, ...errorResponses } },
    },
    async (request) => {
      await auth.forgotPassword(request.body.email, ctx(request));
      return {
        success: true as const,
        message: 'If an account exists for this email, a reset link is on its way.',
      };
    },
  );

  app.post(
    '/auth/change-pass',
    {
      onRequest: [app.optionalAuth],
      config: flood,
      schema: { tags, body: changePasswordBody, response: { 200: messageResponse, ...errorResponses } },
    },
    async (request) => {
      const b = request.body;
      await auth.changePassword(
        {
          email: b.email,
          password: b.password,
          token: b.token,
          currentPassword: b.currentPassword ?? b.current_password,
        },
        request.user,
        ctx(request),
      );
      return { success: true as const, message: 'Password changed' };
    },
  );
};

export default authRoutes;
