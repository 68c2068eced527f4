import { randomUUID } from 'node:crypto';
import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import fp from 'fastify-plugin';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { createServices, type AppDeps, type Services } from './composition';
import errors, { frameworkErrorHandler } from './plugins/errors';
import openapi from './plugins/openapi';
import textInput from './plugins/text-input';
import webApp, { findWebDist, inlineScriptHashes, readWebIndex } from './plugins/web-app';
import authRoutes from './routes/auth';
import dashboardRoutes from './routes/dashboard';
import portfolioRoutes from './routes/portfolio';
import eventRoutes from './routes/events';
import healthRoutes from './routes/health';
import userRoutes from './routes/user';
import strategyRoutes from './routes/strategies';
import webhookRoutes from './routes/webhooks';
import botRoutes from './routes/bots';
import accountRoutes from './routes/accounts';
import marketRoutes from './routes/market';
import tradeRoutes from './routes/trades';
import orderRoutes from './routes/orders';
import billingRoutes from './routes/billing';
import auth from './plugins/auth';
import idempotency from './plugins/idempotency';
import adminAlertRoutes from './routes/admin-alerts';
import adminTradeControlRoutes from './routes/admin-trade-control';
import adminBillingRoutes from './routes/admin-billing';
import adminAuditRoutes from './routes/admin-audit';
import adminOutboxRoutes from './routes/admin-outbox';
import adminSettingsRoutes from './routes/admin-settings';
import adminInvitesRoutes from './routes/admin-invites';

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
    deps: AppDeps;
  }
}

export type AppOptions = AppDeps & { webDist?: string | null; services?: Services };

/** The whole HTTP application as a plugin: external plugins → app plugins → routes. */
async function appPlugin(fastify: FastifyInstance, opts: AppOptions) {
  const webDist = opts.webDist === null ? undefined : (opts.webDist ?? findWebDist());
  const scriptHashes = inlineScriptHashes(readWebIndex(webDist) ?? '');

  fastify.decorate('deps', { config: opts.config, db: opts.db });
  fastify.decorate('services', opts.services ?? createServices(opts, fastify.log));

  // external
  await fastify.register(errors);
  await fastify.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...scriptHashes],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  if (opts.config.corsOrigins.length > 0) {
    // The web client PUTs (bot toggle, push to take profit) and DELETEs across origins too.
    await fastify.register(cors, {
      origin: opts.config.corsOrigins,
      methods: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'],
      credentials: false,
    });
  }
  await fastify.register(rateLimit, { global: false });
  await fastify.register(textInput);
  await fastify.register(openapi);
  // Before any route: a browser navigation to a path shared with the API gets the web app.
  await fastify.register(webApp, { dist: webDist });
  // app
  await fastify.register(auth);
  await fastify.register(idempotency);

  // routes
  await fastify.register(healthRoutes);
  await fastify.register(authRoutes);
  await fastify.register(userRoutes);
  await fastify.register(strategyRoutes);
  await fastify.register(webhookRoutes);
  await fastify.register(botRoutes);
  await fastify.register(accountRoutes);
  await fastify.register(marketRoutes);
  await fastify.register(tradeRoutes);
  await fastify.register(orderRoutes);
  await fastify.register(billingRoutes);
  await fastify.register(adminAlertRoutes);
  await fastify.register(adminTradeControlRoutes);
  await fastify.register(adminBillingRoutes);
  await fastify.register(adminAuditRoutes);
  await fastify.register(adminOutboxRoutes);
  await fastify.register(adminSettingsRoutes);
  await fastify.register(adminInvitesRoutes);
  await fastify.register(dashboardRoutes);
  await fastify.register(portfolioRoutes);
  await fastify.register(eventRoutes);
}

// Not encapsulated: the error and not-found handlers and decorators apply to the whole server.
export const app = fp(appPlugin, { name: 'kairos-app' });

/** Query values that carry credentials (EventSource sends its stream ticket as `?ticket=`). */
const SECRET_QUERY = /([?&](?:token|ticket|refreshToken|secret|apiKey|apiSecret)=)[^&#]*/gi;

/** Fastify's request serializer, with credentials in the query string redacted from every log line. */
function requestForLog(request: FastifyRequest) {
  return {
    method: request.method,
    url: request.url.replace(SECRET_QUERY, '$1[redacted]'),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

export function serverOptions(config: AppDeps['config']): FastifyServerOptions {
  return {
    logger: {
      level: config.logLevel,
      serializers: { req: requestForLog },
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          'req.headers["x-mbx-apikey"]',
          '*.password',
          '*.apiSecret',
          '*.apiKey',
          '*.secret',
        ],
        censor: '[redacted]',
      },
    },
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && /^[\w-]{8,64}$/.test(incoming) ? incoming : randomUUID();
    },
    frameworkErrors: frameworkErrorHandler,
    bodyLimit: 1024 * 1024,
    forceCloseConnections: 'idle',
    return503OnClosing: true,
    trustProxy: config.trustProxy as FastifyServerOptions['trustProxy'],
  };
}

/** Builds the Fastify instance around the app plugin; tests use it with `inject`, server.ts listens. */
export async function buildApp(
  opts: AppOptions,
  overrides: FastifyServerOptions = {},
): Promise<FastifyInstance> {
  const fastify = Fastify({
    ...serverOptions(opts.config),
    ...overrides,
  }).withTypeProvider<ZodTypeProvider>();
  fastify.setValidatorCompiler(validatorCompiler);
  fastify.setSerializerCompiler(serializerCompiler);
  fastify.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  await fastify.register(app, opts);
  return fastify;
}
