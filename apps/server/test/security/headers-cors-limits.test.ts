import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app';
import { GOOD_PASSWORD, registerUser, totpCode, uniqueEmail, type Session } from '../support/users';
import { callApi, type Reply } from './world';

/** Security headers on every kind of answer, CORS only for configured origins, auth rate limits. */
const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'kairos-sec-web-'));
fs.writeFileSync(
  path.join(webDist, 'index.html'),
  '<!doctype html><html><body><div id="root"></div></body></html>',
);

let t: TestApp;
let alice: Session;
beforeAll(async () => {
  t = await createTestApp({}, { webDist });
  alice = await registerUser(t.app);
});
afterAll(async () => {
  await t.close();
  fs.rmSync(webDist, { recursive: true, force: true });
});

/** The API docs page (Swagger UI's own static CSP) may be framed by its own origin; nothing else may. */
function expectSecurityHeaders(reply: Reply, label: string, frameAncestors = /frame-ancestors 'none'/) {
  const h = reply.headers;
  const csp = String(h['content-security-policy'] ?? '');
  expect(csp, label).toContain("default-src 'self'");
  expect(csp, label).toMatch(frameAncestors);
  expect(csp, label).toContain("object-src 'none'");
  expect(csp, label).toContain("base-uri 'self'");
  expect(csp, label).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
  expect(h['x-content-type-options'], label).toBe('nosniff');
  expect(['DENY', 'SAMEORIGIN'], label).toContain(h['x-frame-options']);
  expect(h['referrer-policy'], label).toBe('no-referrer');
  expect(String(h['strict-transport-security']), label).toMatch(/max-age=\d+/);
  expect(h['x-powered-by'], label).toBeUndefined();
  expect(h['server'], label).toBeUndefined();
}

describe('security headers', () => {
  it('are on API answers, errors and the web app alike', async () => {
    const answers: Array<[string, Reply]> = [
      ['API success', await callApi(t, alice, 'GET', '/api/bots')],
      ['401', await callApi(t, undefined, 'GET', '/api/bots')],
      ['400', await callApi(t, alice, 'POST', '/api/strategies', { nickname: 1 })],
      ['unknown route', await callApi(t, alice, 'GET', '/api/nothing-here')],
      ['health', await callApi(t, undefined, 'GET', '/healthz')],
      ['web app', await callApi(t, undefined, 'GET', '/dashboard', undefined, { accept: 'text/html' })],
    ];
    for (const [label, reply] of answers) expectSecurityHeaders(reply, label);
    for (const url of ['/api/docs/json', '/api/docs']) {
      const docs = await callApi(t, undefined, 'GET', url, undefined, { accept: 'text/html' });
      expect(docs.status, url).toBeLessThan(400);
      expectSecurityHeaders(docs, url, /frame-ancestors '(none|self)'/);
    }
  });

  it('answers router-level refusals with the envelope, never echoing the path', async () => {
    const long = await callApi(t, alice, 'GET', `/api/bots/${'x'.repeat(300)}`);
    expect(long.status).toBe(404);
    expect(long.json()).toEqual({
      success: false,
      error: 'NOT_FOUND',
      message: 'Not found',
      params: { variant: 'nothing' },
    });
    const malformed = await callApi(t, alice, 'GET', '/api/bots/%E0%A4%A');
    expect(malformed.status).toBe(400);
    expect(malformed.json()).toEqual({
      success: false,
      error: 'BAD_REQUEST',
      message: 'Malformed URL',
      params: { variant: 'malformedUrl' },
    });
  });
});

describe('CORS', () => {
  const preflight = (app: TestApp, origin: string) =>
    app.app.inject({
      method: 'OPTIONS',
      url: '/api/bots',
      headers: {
        origin,
        'access-control-request-method': 'PUT',
        'access-control-request-headers': 'authorization,content-type',
      },
    });

  it('allows no foreign origin when KAIROS_CORS_ORIGINS is unset', async () => {
    const res = await callApi(t, alice, 'GET', '/api/bots', undefined, { origin: 'https://evil.example' });
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    const pre = await preflight(t, 'https://evil.example');
    expect(pre.headers['access-control-allow-origin']).toBeUndefined();
    expect(pre.headers['access-control-allow-methods']).toBeUndefined();
  });

  describe('with configured origins', () => {
    let c: TestApp;
    let bob: Session;
    beforeAll(async () => {
      c = await createTestApp({ KAIROS_CORS_ORIGINS: 'https://app.example.com, https://admin.example.com' });
      bob = await registerUser(c.app);
    });
    afterAll(() => c.close());

    it('allows exactly those origins, without credentials', async () => {
      for (const origin of ['https://app.example.com', 'https://admin.example.com']) {
        const res = await callApi(c, bob, 'GET', '/api/bots', undefined, { origin });
        expect(res.headers['access-control-allow-origin']).toBe(origin);
        expect(String(res.headers['vary'])).toMatch(/origin/i);
        expect(res.headers['access-control-allow-credentials']).toBeUndefined();
        const pre = await preflight(c, origin);
        expect(pre.statusCode).toBe(204);
        expect(pre.headers['access-control-allow-origin']).toBe(origin);
        expect(String(pre.headers['access-control-allow-methods'])).toContain('PUT');
      }
    });

    it('refuses look-alike and foreign origins', async () => {
      for (const origin of [
        'https://evil.example',
        'https://app.example.com.evil.example',
        'https://evil-app.example.com',
        'http://app.example.com',
        'null',
      ]) {
        const res = await callApi(c, bob, 'GET', '/api/bots', undefined, { origin });
        expect(res.headers['access-control-allow-origin'], origin).toBeUndefined();
        const pre = await preflight(c, origin);
        expect(pre.headers['access-control-allow-origin'], origin).toBeUndefined();
      }
    });
  });
});

describe('rate limits on auth', () => {
  const post = (url: string, payload: unknown, ip: string, who?: Session) =>
    t.app.inject({
      method: 'POST',
      url,
      payload: payload as Record<string, unknown>,
      remoteAddress: ip,
      headers: { accept: 'application/json', ...(who ? { authorization: `Bearer ${who.apiToken}` } : {}) },
    });

  function expectLimited(res: Awaited<ReturnType<typeof post>>, label: string) {
    expect(res.statusCode, `${label}: ${res.body}`).toBe(429);
    expect(res.json(), label).toMatchObject({ success: false, error: 'RATE_LIMITED' });
    expect(Number(res.headers['retry-after']), label).toBeGreaterThan(0);
  }

  it('limits any flood of auth calls from one address, with Retry-After', async () => {
    let last;
    for (let i = 0; i < 61; i += 1) last = await post('/auth/login', { email: 'not-an-email' }, '10.9.0.1');
    expectLimited(last!, 'login flood');
    // Another address is not affected.
    expect((await post('/auth/login', { email: 'not-an-email' }, '10.9.0.2')).statusCode).toBe(400);
  });

  it('limits wrong 2FA codes per account', async () => {
    const u = await registerUser(t.app, uniqueEmail('totp'));
    const enable = await post('/auth/enable-2fa', { email: u.email, password: GOOD_PASSWORD }, '10.9.1.1', u);
    const secret = enable.json().results.secret as string;
    const wrong = totpCode(secret, Date.now() + 10 * 60_000);
    for (let i = 0; i < 10; i += 1) {
      const r = await post('/auth/verify-2fa', { email: u.email, code: wrong }, `10.9.1.${10 + i}`, u);
      expect(r.statusCode).toBe(401);
    }
    expectLimited(await post('/auth/verify-2fa', { email: u.email, code: wrong }, '10.9.1.99', u), '2FA');
  });

  it('limits forgot-password per account, answering the same for unknown emails', async () => {
    const known = await registerUser(t.app, uniqueEmail('forgot'));
    for (const email of [known.email, uniqueEmail('nobody')]) {
      for (let i = 0; i < 10; i += 1) {
        expect((await post('/auth/forgot-pass', { email }, `10.9.2.${i}`)).statusCode).toBe(200);
      }
      expectLimited(await post('/auth/forgot-pass', { email }, '10.9.2.200'), `forgot ${email}`);
    }
  });

  it('limits wrong current passwords on change-pass', async () => {
    const u = await registerUser(t.app, uniqueEmail('change'));
    const body = {
      email: u.email,
      password: 'another-long-passphrase',
      confirm_password: 'another-long-passphrase',
      currentPassword: 'not-my-password',
    };
    for (let i = 0; i < 10; i += 1) {
      expect((await post('/auth/change-pass', body, `10.9.3.${i}`, u)).statusCode).toBe(401);
    }
    expectLimited(await post('/auth/change-pass', body, '10.9.3.200', u), 'change-pass');
  });
});
