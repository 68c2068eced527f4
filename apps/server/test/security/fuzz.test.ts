import { DEFAULT_USER_QUOTAS } from '@kairos/contract';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { Session } from '../support/users';
import { bearer } from '../support/users';
import { PUBLIC_OPERATIONS, recipes, type PreparedCall } from './authorization-recipes';
import {
  bodyText,
  hostileValue,
  queryString,
  type JsonSchema,
  type QueryParameter,
} from './schema-arbitraries';
import { buildWorld, callApi, type Reply } from './world';

/**
 * Schema-driven fuzzing (fast-check) of every body and query in the OpenAPI document, sent by a signed-in
 * user (the admin on /admin routes) to real resources: never a 5xx, always the error envelope for a 4xx,
 * never a stack trace, and no prototype pollution in the server process.
 */
const CASES_PER_OPERATION = Number(process.env.KAIROS_FUZZ_CASES ?? 40);

const world = await buildWorld();
const { t } = world;
afterAll(() => t.close());

type Operation = {
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  parameters?: Array<QueryParameter & { in: string }>;
};
const doc = (await callApi(t, undefined, 'GET', '/api/docs/json')).json() as {
  paths: Record<string, Record<string, Operation>>;
};
const fuzzable = Object.entries(doc.paths)
  .flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({
      key: `${method.toUpperCase()} ${path}`,
      method: method.toUpperCase() as 'GET',
      path,
      body: op.requestBody?.content['application/json']?.schema,
      query: (op.parameters ?? []).filter((p) => p.in === 'query'),
    })),
  )
  .filter((o) => o.body || o.query.length > 0 || o.path.includes('{'));

const STACK_TRACE = /\bat [\w.<>]+ \(|\.[cm]?[jt]s:\d+:\d+|node_modules|\n\s+at /;

type Target = { values: Record<string, string>; who?: Session };

/** Path values and the session that reach the handler (the owner's real ids, as in the matrix). */
async function target(key: string): Promise<Target> {
  const recipe = recipes[key];
  let call: PreparedCall = {};
  let who: Session | undefined;
  if (recipe) {
    call = await recipe.prepare(world);
    // An event stream never ends: its query is fuzzed without a session (its ticket is in the query).
    who = recipe.stream ? undefined : recipe.access === 'admin' ? world.admin : (call.owner ?? world.owner);
  } else if (!PUBLIC_OPERATIONS.has(key)) {
    throw new Error(`${key}: no recipe in test/security/authorization-recipes.ts`);
  }
  return { values: { strategyKey: world.ownerData.strategyKey, ...call.path }, who };
}

/** The real value of each path parameter mostly; otherwise junk (a NUL, a huge id, another type…). */
function pathArbitrary(path: string, values: Record<string, string>): fc.Arbitrary<string> {
  const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const part = (name: string) =>
    fc.oneof(
      { arbitrary: fc.constant(values[name] ?? 'x'), weight: 4 },
      { arbitrary: fc.uuid(), weight: 1 },
      {
        arbitrary: hostileValue().map((v) =>
          (typeof v === 'string' ? v : (JSON.stringify(v) ?? 'x')).slice(0, 300),
        ),
        weight: 1,
      },
    );
  return fc
    .tuple(...names.map(part))
    .map((parts) =>
      path.replace(/\{(\w+)\}/g, (_, name: string) =>
        encodeURIComponent(parts[names.indexOf(name)]!.slice(0, 2_000) || 'x'),
      ),
    );
}

// Arranged before any fuzzing: a fuzzed call may retire a strategy or delete an account the next needs.
const targets = new Map<string, Target>();
for (const op of fuzzable) targets.set(op.key, await target(op.key));

let ip = 0;
/** Each case from its own address: the per-IP flood guards must not hide what validation does. */
const nextAddress = () => {
  ip += 1;
  return `10.${(ip >> 16) & 255}.${(ip >> 8) & 255}.${ip & 255}`;
};

describe('schema-driven fuzzing of every body and query', () => {
  it('finds operations to fuzz in the document', () => {
    expect(fuzzable.length).toBeGreaterThan(40);
  });

  it.each(fuzzable.map((o) => [o.key, o] as const))('%s', async (key, op) => {
    const { values, who } = targets.get(key)!;
    const input = fc.record({
      url: pathArbitrary(op.path, values),
      body: op.body ? bodyText(op.body) : fc.constant(undefined),
      query: op.query.length > 0 ? queryString(op.query) : fc.constant(''),
    });
    await fc.assert(
      fc.asyncProperty(input, async ({ url, body, query }) => {
        const res = await t.app.inject({
          method: op.method,
          url: query ? `${url}?${query}` : url,
          remoteAddress: nextAddress(),
          headers: {
            accept: 'application/json',
            ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
            ...(who ? bearer(who.apiToken) : {}),
          },
          ...(body !== undefined ? { payload: body } : {}),
        });
        const where = `${op.method} ${url.slice(0, 300)}?${query.slice(0, 300)} ${String(body).slice(0, 300)} → ${res.statusCode} ${res.body.slice(0, 300)}`;
        expect(res.statusCode, where).toBeLessThan(500);
        expect(res.body, where).not.toMatch(STACK_TRACE);
        const json = JSON.parse(res.body);
        if (res.statusCode >= 400) {
          expect(json, where).toEqual({
            success: false,
            error: expect.any(String),
            message: expect.any(String),
            ...(json.params ? { params: expect.any(Object) } : {}),
            ...(json.details ? { details: expect.any(Array) } : {}),
          });
        } else {
          expect(json.success, where).toBe(true);
        }
      }),
      { numRuns: CASES_PER_OPERATION },
    );
    // Fuzzed caps may be tiny (issue 20's quotas): the operations after this one create strategies, accounts
    // and bots of the owner's again.
    if (key === 'PUT /admin/settings/quotas')
      await callApi(t, world.admin, 'PUT', '/admin/settings/quotas', { ...DEFAULT_USER_QUOTAS });
    // Nothing a request sent leaked into the prototypes of this process (inject runs in it).
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });

  it('still serves the fuzzed user afterwards (no session or data was broken)', async () => {
    const res = await callApi(t, world.owner, 'GET', '/api/bots');
    expect(res.status).toBe(200);
  });
});

describe('inputs the fuzzer once found breaking the server', () => {
  const expect400 = (reply: Reply) => {
    expect(reply.status).toBe(400);
    expect(reply.json()).toMatchObject({ success: false, error: 'VALIDATION_ERROR' });
  };

  it('takes key fields on a paper account as nothing to rotate (was a 500)', async () => {
    const account = await world.fresh.account();
    const reply = await callApi(t, world.owner, 'PUT', `/api/trading-accounts/${account.id}`, {
      apiSecret: '!',
    });
    expect(reply.status, reply.body).toBe(200);
    expect(reply.json().results.apiKeyMask).toBeNull();
  });

  it('refuses the NUL character anywhere PostgreSQL would store it (was a 500)', async () => {
    const strategy = await world.fresh.strategy();
    expect400(
      await callApi(t, world.owner, 'PUT', `/api/strategies/${strategy.id}`, { nickname: 'a\u0000b' }),
    );
    expect400(await callApi(t, world.owner, 'PUT', '/user/profile', { displayName: '\u0000' }));
    expect400(
      await callApi(t, undefined, 'POST', `/webhooks/${world.ownerData.strategyKey}%00`, {
        secret: 'x',
        action: 'long',
      }),
    );
    // Still fine without it.
    expect(
      (await callApi(t, world.owner, 'PUT', `/api/strategies/${strategy.id}`, { nickname: 'a b' })).status,
    ).toBe(200);
  });
});
