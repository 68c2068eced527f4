import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createTestApp, type TestApp } from '../support/app';

const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'kairos-web-'));
const themeScript = "document.documentElement.dataset.theme='dark'";
fs.writeFileSync(
  path.join(webDist, 'index.html'),
  `<!doctype html><html><head><script>${themeScript}</script></head><body><div id="root"></div></body></html>`,
);
fs.mkdirSync(path.join(webDist, 'assets'));
const assetSource = 'console.log("Kairos");\n'.repeat(200);
fs.writeFileSync(path.join(webDist, 'assets', 'app-abc123.js'), assetSource);
// What the web build writes beside each asset (apps/web/vite-plugins.ts): brotli and gzip.
fs.writeFileSync(path.join(webDist, 'assets', 'app-abc123.js.br'), zlib.brotliCompressSync(assetSource));
fs.writeFileSync(path.join(webDist, 'assets', 'app-abc123.js.gz'), zlib.gzipSync(assetSource));
fs.writeFileSync(path.join(webDist, 'build.json'), '{"buildId":"b1"}');

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({}, { webDist });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(webDist, { recursive: true, force: true });
});

describe('health and docs', () => {
  it('reports a reachable, migrated database', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.status).toBe('ok');
    expect(body.database.reachable).toBe(true);
    expect(body.migrations.upToDate).toBe(true);
    expect(body.migrations.applied).toBeGreaterThan(0);
    expect(body.worker).toHaveProperty('ageSeconds');
  });

  it('serves the OpenAPI document generated from the contract', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.paths['/healthz'].get.responses['200']).toBeDefined();
  });

  it('tags every response with a request id, honouring a sane incoming one', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-request-id': 'trace-12345678' },
    });
    expect(res.headers['x-request-id']).toBe('trace-12345678');
    const other = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(other.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('error envelope', () => {
  it('answers an unknown API path with a 404 envelope', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/nothing-here',
      headers: { accept: 'application/json' },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      success: false,
      error: 'NOT_FOUND',
      message: 'Route GET /api/nothing-here not found',
      params: { variant: 'route', method: 'GET', path: '/api/nothing-here' },
    });
  });

  it('never leaks a stack trace', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/healthz' });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toMatch(/at .*\.ts:\d+/);
  });
});

describe('request parsing errors', () => {
  let t2: TestApp;
  beforeAll(async () => {
    t2 = await createTestApp({}, { webDist: null });
  });
  afterAll(() => t2.close());

  it('maps malformed JSON, oversized bodies, validation and crashes to envelopes', async () => {
    // A throwaway Fastify built the same way, with probe routes, so the shared plugins are what answer.
    const { buildApp } = await import('../../src/app');
    const app = await buildApp({ config: t2.config, db: t2.db, webDist: null });
    app.after(() => {
      app.withTypeProvider<ZodTypeProvider>().post(
        '/probe',
        {
          schema: {
            body: z.object({ email: z.email('Please enter a valid email address'), n: z.number() }),
          },
        },
        async () => ({ success: true, results: 'ok' }),
      );
      app.get('/boom', async () => {
        throw new Error('secret internals at /work/main/src/x.ts:12');
      });
    });
    await app.ready();

    const malformed = await app.inject({
      method: 'POST',
      url: '/probe',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ success: false, error: 'MALFORMED_JSON' });

    const big = await app.inject({
      method: 'POST',
      url: '/probe',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'a@b.co', n: 1, pad: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(big.statusCode).toBe(413);
    expect(big.json()).toMatchObject({ success: false, error: 'PAYLOAD_TOO_LARGE' });

    const invalid = await app.inject({ method: 'POST', url: '/probe', payload: { email: 'nope', n: 'x' } });
    expect(invalid.statusCode).toBe(400);
    const body = invalid.json();
    expect(body).toMatchObject({
      success: false,
      error: 'VALIDATION_ERROR',
      message: 'Please enter a valid email address',
    });
    expect(body.details.map((d: { path: string }) => d.path).sort()).toEqual(['email', 'n']);

    const ok = await app.inject({ method: 'POST', url: '/probe', payload: { email: 'a@b.co', n: 1 } });
    expect(ok.json()).toEqual({ success: true, results: 'ok' });

    const boom = await app.inject({ method: 'GET', url: '/boom' });
    expect(boom.statusCode).toBe(500);
    expect(boom.json()).toEqual({ success: false, error: 'INTERNAL', message: 'Internal server error' });
    expect(boom.body).not.toContain('secret internals');
    await app.close();
  });
});

describe('web app and the Accept rule', () => {
  it('gives a browser navigation the web app, even on a path the API also uses', async () => {
    for (const url of ['/', '/dashboard', '/portfolio', '/admin/alerts?status=dead', '/no/such/page']) {
      const res = await t.app.inject({
        method: 'GET',
        url,
        headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
      });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.body).toContain('<div id="root">');
    }
  });

  it('gives API clients the API on the same paths', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/no/such/page',
      headers: { accept: 'application/json' },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().success).toBe(false);
    const health = await t.app.inject({ method: 'GET', url: '/healthz', headers: { accept: 'text/html' } });
    expect(health.json().status).toBe('ok');
  });

  it('serves hashed assets with a long cache and allows only the known inline script', async () => {
    const asset = await t.app.inject({
      method: 'GET',
      url: '/assets/app-abc123.js',
      headers: { accept: '*/*' },
    });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    const page = await t.app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' } });
    const csp = String(page.headers['content-security-policy']);
    const { createHash } = await import('node:crypto');
    const hash = createHash('sha256').update(themeScript).digest('base64');
    expect(csp).toContain(`'sha256-${hash}'`);
    expect(csp).not.toContain("'unsafe-inline' 'self'");
    expect(page.headers['x-content-type-options']).toBe('nosniff');
  });

  /** A GET of a built file as a browser asks for it: Accept, and the encodings it takes (none when omitted). */
  const fetchFile = (url: string, accept: string, encoding?: string) =>
    t.app.inject({
      method: 'GET',
      url,
      headers: { accept, ...(encoding === undefined ? {} : { 'accept-encoding': encoding }) },
    });

  it('serves a hashed asset pre-compressed (brotli, then gzip) with the immutable cache', async () => {
    const br = await fetchFile('/assets/app-abc123.js', '*/*', 'gzip, deflate, br');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['content-type']).toContain('javascript');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(assetSource);

    const gzip = await fetchFile('/assets/app-abc123.js', '*/*', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toBe(assetSource);

    const plain = await fetchFile('/assets/app-abc123.js', '*/*');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(assetSource);
    expect(plain.headers['cache-control']).toContain('immutable');
  });

  it('revalidates index.html and the build id on every load', async () => {
    const page = await fetchFile('/', 'text/html', 'br');
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('no-cache');
    const index = await fetchFile('/index.html', 'text/html');
    expect(index.headers['cache-control']).toBe('no-cache');
    const build = await fetchFile('/build.json', 'application/json', 'br');
    expect(build.statusCode).toBe(200);
    expect(build.headers['cache-control']).toBe('no-cache');
    expect(build.json()).toEqual({ buildId: 'b1' });
  });
});
