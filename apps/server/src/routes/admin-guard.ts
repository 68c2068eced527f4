import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AdminActor } from '../modules/audit/audit-service';
import { currentUser } from '../plugins/auth';
import { prefersHtml, sendWebApp } from '../plugins/web-app';

/**
 * Every admin route: signed in (401) and admin (403), checked on the server whatever the UI shows.
 * A refused attempt to change something is written to the audit log with who tried, once per user, route
 * and minute (a script knocking in a loop does not fill the log).
 */
export function guardAdminRoutes(app: FastifyInstance) {
  app.addHook('onRequest', async (request, reply) => {
    // A browser navigating to an admin screen (`/admin/alerts`) gets the web app, which has its own guard:
    // this plugin's hooks run before the web app's Accept rule, which is registered after the routes.
    if (prefersHtml(request) && sendWebApp(reply)) return reply;
    await app.requireAdmin(request, reply);
  });
  app.addHook('onResponse', async (request, reply) => {
    if (reply.statusCode !== 403 || request.method === 'GET' || !request.user) return;
    await app.services.audit.recordForbidden(
      request.user,
      `${request.method} ${request.routeOptions.url ?? request.url.split('?')[0]}`,
    );
  });
}

/** The signed-in admin, as the audit log names them. */
export function adminActor(request: FastifyRequest): AdminActor {
  const user = currentUser(request);
  return { id: user.id, email: user.email };
}
