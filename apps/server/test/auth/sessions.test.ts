import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app';
import { bearer, GOOD_PASSWORD, registerUser, type Session } from '../support/users';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function login(email: string, userAgent: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/auth/login',
    headers: { 'user-agent': userAgent },
    payload: { email, password: GOOD_PASSWORD },
  });
  expect(res.statusCode, res.body).toBe(200);
  const { results } = res.json();
  return {
    email,
    apiToken: results.apiToken,
    refreshToken: results.refreshToken,
    user: results.user,
  } as Session;
}

const refresh = (refreshToken: string, userAgent = 'KairosPhone/1.0') =>
  t.app.inject({
    method: 'POST',
    url: '/auth/refresh',
    headers: { 'user-agent': userAgent },
    payload: { refreshToken },
  });

const listSessions = (who: Session) =>
  t.app.inject({ method: 'GET', url: '/auth/sessions', headers: bearer(who.apiToken) });

const revoke = (who: Session, id: string) =>
  t.app.inject({ method: 'DELETE', url: `/auth/sessions/${id}`, headers: bearer(who.apiToken) });

/** Moves a user's session families' first sign-in back by `days`. */
async function ageFamilies(userId: unknown, days: number) {
  await t.db.pool.query(
    `UPDATE sessions SET family_started_at = family_started_at - make_interval(days => $2) WHERE user_id = $1`,
    [userId, days],
  );
}

describe('absolute session-family lifetime (30 days)', () => {
  it('refuses a refresh once the family is 30 days old, however recently it was refreshed', async () => {
    const u = await registerUser(t.app);
    await ageFamilies(u.user.id, 31);
    const res = await refresh(u.refreshToken);
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe('REFRESH_EXPIRED');
  });

  it("carries the family's first sign-in onto every rotated session", async () => {
    const u = await registerUser(t.app);
    await ageFamilies(u.user.id, 10);
    const before = await t.db.pool.query(`SELECT family_started_at FROM sessions WHERE user_id = $1`, [
      u.user.id,
    ]);
    const first = await refresh(u.refreshToken);
    expect(first.statusCode).toBe(200);
    const second = await refresh(first.json().results.refreshToken);
    expect(second.statusCode).toBe(200);
    const { rows } = await t.db.pool.query(
      `SELECT DISTINCT family_started_at FROM sessions WHERE user_id = $1`,
      [u.user.id],
    );
    expect(rows).toEqual(before.rows);

    // Twenty more days: the family is past 30 days and its newest refresh token is refused.
    await ageFamilies(u.user.id, 20);
    const third = await refresh(second.json().results.refreshToken);
    expect(third.statusCode).toBe(401);
    expect(third.json().error).toBe('REFRESH_EXPIRED');
  });
});

describe('GET /auth/sessions', () => {
  it("lists the user's live sign-ins, marks the caller's, and none of anyone else's", async () => {
    const alice = await registerUser(t.app);
    const phone = await login(alice.email, 'KairosPhone/1.0');
    const refreshed = await refresh(phone.refreshToken);
    const phoneNow = { ...phone, apiToken: refreshed.json().results.apiToken };
    const stale = await login(alice.email, 'Old laptop');
    // A sign-in past its family's 30 days is not live any more, whatever its refresh token says.
    await t.db.pool.query(
      `UPDATE sessions SET family_started_at = now() - interval '31 days' WHERE user_id = $1 AND user_agent = $2`,
      [stale.user.id, 'Old laptop'],
    );
    const bob = await registerUser(t.app);

    const res = await listSessions(alice);
    expect(res.statusCode, res.body).toBe(200);
    const list = res.json().results as Array<Record<string, unknown>>;
    expect(list).toHaveLength(2);
    const mine = list.find((s) => s.current)!;
    const other = list.find((s) => !s.current)!;
    expect(list.filter((s) => s.current)).toHaveLength(1);
    expect(other).toMatchObject({ userAgent: 'KairosPhone/1.0', ip: expect.any(String) });
    expect(typeof other.createdAt).toBe('string');
    expect(typeof other.lastUsedAt).toBe('string');
    expect(Date.parse(other.lastUsedAt as string)).toBeGreaterThanOrEqual(
      Date.parse(other.createdAt as string),
    );
    expect(mine.id).not.toBe(other.id);
    expect(JSON.stringify(list)).not.toContain(alice.apiToken);

    // The phone sees itself as current, after its refresh too.
    const fromPhone = (await listSessions(phoneNow)).json().results as Array<Record<string, unknown>>;
    expect(fromPhone.find((s) => s.current)!.id).toBe(other.id);

    // Bob sees only his own.
    const bobs = (await listSessions(bob)).json().results as Array<Record<string, unknown>>;
    expect(bobs).toHaveLength(1);
    expect(bobs.map((s) => s.id)).not.toContain(other.id);
    expect((await t.app.inject({ method: 'GET', url: '/auth/sessions' })).statusCode).toBe(401);
  });
});

describe('DELETE /auth/sessions/{id}', () => {
  it("revokes that sign-in's whole family; another user's session is not found", async () => {
    const alice = await registerUser(t.app);
    const phone = await login(alice.email, 'KairosPhone/1.0');
    const refreshed = (await refresh(phone.refreshToken)).json().results;
    const bob = await registerUser(t.app);
    const phoneId = (
      (await listSessions(alice)).json().results as Array<{ id: string; current: boolean }>
    ).find((s) => !s.current)!.id;

    const stranger = await revoke(bob, phoneId);
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json()).toMatchObject({ error: 'NOT_FOUND', params: { variant: 'session' } });
    expect((await listSessions(alice)).json().results).toHaveLength(2);

    const res = await revoke(alice, phoneId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().success).toBe(true);
    // The phone's access token and its refresh token are both dead.
    expect((await listSessions({ ...phone, apiToken: refreshed.apiToken })).statusCode).toBe(401);
    expect((await refresh(refreshed.refreshToken)).statusCode).toBe(401);
    const left = (await listSessions(alice)).json().results as Array<{ current: boolean }>;
    expect(left).toEqual([expect.objectContaining({ current: true })]);
    // Gone: a second revoke finds nothing.
    expect((await revoke(alice, phoneId)).statusCode).toBe(404);
  });

  it("revoking the caller's own session is a logout", async () => {
    const u = await registerUser(t.app);
    const [me] = (await listSessions(u)).json().results as Array<{ id: string }>;
    expect((await revoke(u, me!.id)).statusCode).toBe(200);
    expect((await listSessions(u)).statusCode).toBe(401);
    expect((await refresh(u.refreshToken)).statusCode).toBe(401);
  });

  it('answers 404 for an id that is not a session id', async () => {
    const u = await registerUser(t.app);
    expect((await revoke(u, 'not-a-uuid')).statusCode).toBe(404);
  });
});
