import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/** The built web app (apps/web/dist), found from this file in source and in the bundle alike. */
export function findWebDist(): string | undefined {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i += 1) {
    const candidate = path.join(dir, 'apps', 'web', 'dist');
    if (fs.existsSync(path.join(candidate, 'index.html'))) return candidate;
    const sibling = path.join(dir, 'web', 'dist');
    if (fs.existsSync(path.join(sibling, 'index.html'))) return sibling;
    dir = path.dirname(dir);
  }
  return undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    webIndexHtml: string | undefined;
  }
}

/** Paths that are always API (or docs), even for a browser navigation. */
const NEVER_HTML = /^\/(api\/docs|healthz|webhooks)(\/|$|\?)/;

/**
 * DESIGN §2: a GET whose Accept header prefers text/html is a browser navigation and
 * gets index.html; everything else is the API. The web client always sends application/json.
 */
export function prefersHtml(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  if (NEVER_HTML.test(request.url)) return false;
  const accept = request.headers.accept ?? '';
  const weight = (type: string) => {
    for (const part of accept.split(',')) {
      const [media, ...params] = part.trim().split(';');
      if (media?.trim().toLowerCase() !== type) continue;
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return q ? Number(q.slice(2)) || 0 : 1;
    }
    return -1;
  };
  const html = weight('text/html');
  return html > 0 && html >= weight('application/json');
}

export function sendWebApp(reply: FastifyReply): boolean {
  const html = reply.server.webIndexHtml;
  if (html === undefined) return false;
  void reply.status(200).type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(html);
  return true;
}

/** SHA-256 sources for the inline scripts of index.html (the pre-paint theme script), for the CSP. */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const match of html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)) {
    const body = match[1] ?? '';
    if (body.trim()) hashes.push(`'sha256-${createHash('sha256').update(body).digest('base64')}'`);
  }
  return hashes;
}

export function readWebIndex(dist: string | undefined): string | undefined {
  return dist ? fs.readFileSync(path.join(dist, 'index.html'), 'utf8') : undefined;
}

async function webAppPlugin(app: FastifyInstance, opts: { dist: string | undefined }) {
  app.decorate('webIndexHtml', readWebIndex(opts.dist));
  if (!opts.dist) {
    app.log.warn('web app not built (apps/web/dist missing): serving the API only');
    return;
  }
  // Navigations to UI routes that share a path with an API call are answered before routing.
  app.addHook('onRequest', async (request, reply) => {
    if (!prefersHtml(request)) return;
    const pathname = request.url.split('?')[0] ?? '/';
    if (pathname.startsWith('/assets/') || path.extname(pathname)) return; // a real file
    sendWebApp(reply);
    return reply;
  });
  await app.register(fastifyStatic, {
    root: opts.dist,
    prefix: '/',
    wildcard: false,
    index: false,
    // The web build writes `<file>.br` and `<file>.gz` beside each asset (apps/web/vite-plugins.ts): the
    // best one the Accept-Encoding allows is sent, with `Vary: Accept-Encoding`; a file without them goes as is.
    preCompressed: true,
    setHeaders(res, filePath) {
      // Hashed build assets never change; everything else is revalidated.
      res.header(
        'cache-control',
        filePath.includes(`${path.sep}assets${path.sep}`)
          ? 'public, max-age=31536000, immutable'
          : 'no-cache',
      );
    },
  });
}

export default fp(webAppPlugin, { name: 'web-app' });
