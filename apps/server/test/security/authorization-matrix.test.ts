import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import type { Session } from '../support/users';
import { PUBLIC_OPERATIONS, recipes, type PreparedCall, type Recipe } from './authorization-recipes';
import { callApi, buildWorld, type Reply } from './world';

/**
 * Every operation of the OpenAPI document × anonymous / owner / another user / admin (spec §6, DESIGN §2):
 * anonymous 401, admin routes 403 to users, another user's ids 404 — and nothing of the owner's in any
 * answer that is not the owner's. Operations come from `/api/docs/json`, so a new route is in the matrix
 * the day it is added; one the matrix cannot call fails until it gets a recipe.
 */
const world = await buildWorld();
const { t } = world;
afterAll(() => t.close());

const doc = (await callApi(t, undefined, 'GET', '/api/docs/json')).json() as {
  paths: Record<string, Record<string, unknown>>;
};
const operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
  Object.keys(ops).map((method) => ({
    key: `${method.toUpperCase()} ${path}`,
    method: method.toUpperCase(),
    path,
  })),
);
const protectedOperations = operations.filter((o) => !PUBLIC_OPERATIONS.has(o.key));

function urlOf(path: string, call: PreparedCall): string {
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = call.path?.[name];
    if (value === undefined) throw new Error(`the recipe gives no value for {${name}} in ${path}`);
    return encodeURIComponent(value);
  });
  const query = new URLSearchParams(call.query ?? {}).toString();
  return query ? `${filled}?${query}` : filled;
}

let origin: string | undefined;
/** Server-Sent Events never end: read the status and the first bytes over real HTTP, then hang up. */
async function openStream(who: Session | undefined, url: string): Promise<Reply> {
  if (!origin) {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  }
  const abort = new AbortController();
  const res = await fetch(`${origin}${url}`, {
    headers: { accept: 'application/json', ...(who ? { authorization: `Bearer ${who.apiToken}` } : {}) },
    signal: abort.signal,
  });
  let body: string;
  if (res.headers.get('content-type')?.startsWith('text/event-stream')) {
    const reader = res.body!.getReader();
    const first = await reader.read();
    body = new TextDecoder().decode(first.value);
    abort.abort();
  } else {
    body = await res.text();
  }
  return {
    status: res.status,
    body,
    headers: Object.fromEntries(res.headers),
    json: () => JSON.parse(body),
  };
}

function send(recipe: Recipe, method: string, url: string, who: Session | undefined, call: PreparedCall) {
  if (recipe.stream) return openStream(who, url);
  return callApi(t, who, method as 'GET', url, call.body);
}

function expectEnvelope(reply: Reply, status: number, label: string) {
  expect(reply.status, `${label}: ${reply.body}`).toBe(status);
  if (status >= 400) {
    expect(reply.json(), label).toMatchObject({
      success: false,
      error: expect.any(String),
      message: expect.any(String),
    });
  }
}

/** Nothing that names the owner (ids, email, tokens, secrets) in an answer to anyone else. */
function expectNothingOfTheOwner(reply: Reply, label: string) {
  for (const secret of world.ownerSecrets()) {
    expect(reply.body.includes(secret), `${label} answer contains the owner's ${secret}: ${reply.body}`).toBe(
      false,
    );
  }
}

describe('authorization matrix over /api/docs/json', () => {
  it('reads a document with every route in it', () => {
    expect(operations.length).toBeGreaterThan(60);
    expect(operations.map((o) => o.key)).toContain('GET /api/bots/{id}');
  });

  it('has no recipe for an operation the API no longer has', () => {
    const known = new Set(operations.map((o) => o.key));
    expect(Object.keys(recipes).filter((k) => !known.has(k))).toEqual([]);
    expect([...PUBLIC_OPERATIONS].filter((k) => !known.has(k))).toEqual([]);
  });

  it.each(protectedOperations.map((o) => [o.key, o] as const))('%s', async (key, op) => {
    const recipe = recipes[key];
    if (!recipe) {
      expect.fail(
        `${key} is not in the authorization matrix: add a recipe to test/security/authorization-recipes.ts ` +
          '(who may call it, and what it needs to succeed)',
      );
    }
    const call = await recipe.prepare(world);
    const url = urlOf(op.path, call);
    const owner = call.owner ?? world.owner;
    const as = async (who: Session) => (recipe.endsSession ? world.fresh.session(who) : who);

    // Nobody signed in, or a token that was never issued: 401, whatever the route.
    const anonymous = await send(recipe, op.method, url, undefined, call);
    expectEnvelope(anonymous, 401, 'anonymous');
    expectNothingOfTheOwner(anonymous, 'anonymous');
    const forged = { ...owner, apiToken: `kat_${randomBytes(24).toString('base64url')}` };
    const forgedReply = await send(recipe, op.method, url, forged, call);
    expectEnvelope(forgedReply, 401, 'forged token');

    if (recipe.access === 'admin') {
      for (const [label, who] of [
        ['owner', owner],
        ['other user', world.other],
      ] as const) {
        const refused = await send(recipe, op.method, url, await as(who), call);
        expectEnvelope(refused, 403, label);
        expect(refused.json().error).toBe('FORBIDDEN');
      }
      const asAdmin = await send(recipe, op.method, url, await as(world.admin), call);
      expectEnvelope(asAdmin, recipe.expect, 'admin');
      expect(asAdmin.json().success, asAdmin.body).toBe(true);
      return;
    }

    // Another user — and an admin, who is just another user outside /admin — on the owner's call.
    const otherStatus = recipe.other?.status ?? (recipe.access === 'owned' ? 404 : recipe.expect);
    for (const [label, who] of [
      ['other user', world.other],
      ['admin', world.admin],
    ] as const) {
      const reply = await send(recipe, op.method, url, await as(who), call);
      expectEnvelope(reply, otherStatus, label);
      expectNothingOfTheOwner(reply, label);
    }

    // Last, the owner (calls that consume their resource come after everyone else tried it).
    const mine = await send(recipe, op.method, url, await as(owner), call);
    expectEnvelope(mine, recipe.expect, 'owner');
    if (!recipe.stream) expect(mine.json().success, mine.body).toBe(true);
  });
});

describe('webhooks: the strategy secret is the only key', () => {
  const alertsOf = async (strategyId: string) =>
    Number(
      (await t.db.pool.query('SELECT count(*) AS n FROM alerts WHERE strategy_id = $1', [strategyId])).rows[0]
        .n,
    );
  const hook = (url: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    callApi(t, undefined, 'POST', url, body, headers);

  it("refuses another strategy's secret, a session token and no secret, and records nothing", async () => {
    const mine = world.ownerData;
    const theirs = world.otherData;
    const before = await alertsOf(mine.strategyId);
    const attempts = [
      // Another user's (valid) secret against the owner's strategy key, in the body and in the path.
      hook('/webhooks/tradingview', {
        strategyKey: mine.strategyKey,
        secret: theirs.webhookSecret,
        action: 'long',
      }),
      hook(`/webhooks/${mine.strategyKey}`, { secret: theirs.webhookSecret, action: 'long' }),
      // The key in the path wins over the body's: the other strategy's key and secret in the body do not help.
      hook(`/webhooks/${mine.strategyKey}`, {
        strategyKey: theirs.strategyKey,
        secret: theirs.webhookSecret,
        action: 'long',
      }),
      // The owner's session token is not a webhook secret.
      hook(
        `/webhooks/${mine.strategyKey}`,
        { secret: world.owner.apiToken, action: 'long' },
        { authorization: `Bearer ${world.owner.apiToken}` },
      ),
      // A secret that is a prefix of the real one.
      hook(`/webhooks/${mine.strategyKey}`, { secret: mine.webhookSecret.slice(0, -1), action: 'long' }),
    ];
    for (const reply of await Promise.all(attempts)) {
      expectEnvelope(reply, 401, 'webhook');
      expect(reply.json().error).toBe('INVALID_WEBHOOK_SECRET');
      expectNothingOfTheOwner(reply, 'webhook');
    }
    const missing = await hook(`/webhooks/${mine.strategyKey}`, { action: 'long' });
    expectEnvelope(missing, 400, 'webhook without a secret');
    expectNothingOfTheOwner(missing, 'webhook without a secret');
    expect(await alertsOf(mine.strategyId)).toBe(before);
  });

  it("takes the owner's secret on either route", async () => {
    const mine = world.ownerData;
    for (const url of ['/webhooks/tradingview', `/webhooks/${mine.strategyKey}`]) {
      const reply = await hook(url, {
        strategyKey: mine.strategyKey,
        secret: mine.webhookSecret,
        action: 'exit',
        id: `route-${url.length}`,
      });
      expectEnvelope(reply, 200, url);
      world.remember(reply.json().results.alertId);
    }
  });
});
