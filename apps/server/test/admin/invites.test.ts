import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app';
import {
  GOOD_PASSWORD,
  registerUser,
  TEST_ADMIN_SETUP_TOKEN,
  uniqueEmail,
  type Session,
} from '../support/users';
import { ADMIN_EMAIL, auditRows, call } from './admin-fixtures';

/**
 * Issue 20: the operator can close self-registration (`KAIROS_REGISTRATION=invite`). Then only someone holding
 * an admin's invite link registers — one person per link, before it expires (7 days unless the admin says
 * otherwise), never after the admin revoked it — while the first admin still takes the seat with the setup token.
 */
let t: TestApp;
let admin: Session;

beforeAll(async () => {
  t = await createTestApp({
    KAIROS_ADMIN_EMAIL: ADMIN_EMAIL,
    KAIROS_REGISTRATION: 'invite',
    KAIROS_PUBLIC_URL: 'https://kairos.example',
  });
  // The first admin's path keeps working while registration is closed.
  admin = await registerUser(t.app, ADMIN_EMAIL);
});
afterAll(() => t.close());

const register = (email: string, extra: Record<string, unknown> = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/auth/register',
    payload: { email, password: GOOD_PASSWORD, confirm_password: GOOD_PASSWORD, ...extra },
  });
const login = (email: string) =>
  t.app.inject({ method: 'POST', url: '/auth/login', payload: { email, password: GOOD_PASSWORD } });

async function createInvite(body: Record<string, unknown> = {}) {
  const res = await call(t, admin, 'POST', '/admin/invites', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const invite = res.body.results as { id: string; link: string; status: string; expiresAt: string };
  return { ...invite, token: new URL(invite.link).searchParams.get('invite')! };
}

describe('closed registration', () => {
  it('refuses to register without an invite, saying registration is by invitation', async () => {
    const email = uniqueEmail();
    const res = await register(email);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: 'REGISTRATION_CLOSED' });
    expect(res.json().message).toMatch(/invitation/);
    expect((await login(email)).statusCode).toBe(401);
  });

  it('registers one person with an invite link, once', async () => {
    const invite = await createInvite({ note: 'for Ada' });
    expect(invite.link).toMatch(/^https:\/\/kairos\.example\/register\?invite=/);
    expect(invite.status).toBe('pending');
    const ada = uniqueEmail('ada');
    expect((await register(ada, { inviteToken: invite.token })).statusCode).toBe(201);
    expect((await login(ada)).statusCode).toBe(200);

    const again = await register(uniqueEmail('eve'), { inviteToken: invite.token });
    expect(again.statusCode).toBe(403);
    expect(again.json().error).toBe('INVITE_INVALID');

    const listed = await call(t, admin, 'GET', '/admin/invites');
    expect(listed.status).toBe(200);
    const row = (listed.body.results as Record<string, unknown>[]).find((i) => i.id === invite.id);
    expect(row).toMatchObject({
      status: 'used',
      note: 'for Ada',
      usedByEmail: ada,
      createdByEmail: ADMIN_EMAIL,
    });
    // The token is handed over once, at creation: the list never carries it.
    expect(JSON.stringify(listed.body)).not.toContain(invite.token);
  });

  it('refuses a made-up, revoked or expired invite alike', async () => {
    expect((await register(uniqueEmail(), { inviteToken: 'kinv_made-up' })).json().error).toBe(
      'INVITE_INVALID',
    );

    const revoked = await createInvite();
    const del = await call(t, admin, 'DELETE', `/admin/invites/${revoked.id}`);
    expect(del.status).toBe(200);
    expect(del.body.results.status).toBe('revoked');
    expect((await register(uniqueEmail(), { inviteToken: revoked.token })).json().error).toBe(
      'INVITE_INVALID',
    );
    // Revoking it again, or a used one, is refused with why.
    const twice = await call(t, admin, 'DELETE', `/admin/invites/${revoked.id}`);
    expect([twice.status, twice.body.error]).toEqual([409, 'INVITE_NOT_PENDING']);

    const expired = await createInvite({ expiresInDays: 1 });
    await t.db.pool.query(`UPDATE invites SET expires_at = now() - interval '1 second' WHERE id = $1`, [
      expired.id,
    ]);
    expect((await register(uniqueEmail(), { inviteToken: expired.token })).json().error).toBe(
      'INVITE_INVALID',
    );
    const listed = await call(t, admin, 'GET', '/admin/invites');
    expect(
      (listed.body.results as { id: string; status: string }[]).find((i) => i.id === expired.id)?.status,
    ).toBe('expired');
  });

  it('expires an invite after 7 days unless the admin chose otherwise', async () => {
    const week = await createInvite();
    const days = (Date.parse(week.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);
    const two = await createInvite({ expiresInDays: 2 });
    expect((Date.parse(two.expiresAt) - Date.now()) / 86_400_000).toBeCloseTo(2, 2);
    const tooLong = await call(t, admin, 'POST', '/admin/invites', { expiresInDays: 365 });
    expect([tooLong.status, tooLong.body.error]).toEqual([400, 'VALIDATION_ERROR']);
  });

  it('keeps an invite used on an address that has an account, and answers as for a new one', async () => {
    const invite = await createInvite();
    const taken = await register(ADMIN_EMAIL, { inviteToken: invite.token });
    expect(taken.statusCode).toBe(201);
    // Nothing was created, so the link still lets its invitee in.
    const bob = uniqueEmail('bob');
    expect((await register(bob, { inviteToken: invite.token })).statusCode).toBe(201);
    expect((await login(bob)).statusCode).toBe(200);
  });

  it('audits who made and revoked each invite, and who used one', async () => {
    const invite = await createInvite({ note: 'audited' });
    await call(t, admin, 'DELETE', `/admin/invites/${invite.id}`);
    const made = (await auditRows(t, 'invite.create')).find((r) => r.target === `invite:${invite.id}`);
    expect(made).toMatchObject({ actor: expect.stringContaining(admin.user.id as string), outcome: 'ok' });
    expect(made?.details).toMatchObject({ note: 'audited' });
    expect(JSON.stringify(made)).not.toContain(invite.token);
    const revoked = (await auditRows(t, 'invite.revoke')).find((r) => r.target === `invite:${invite.id}`);
    expect(revoked?.outcome).toBe('ok');
    expect((await auditRows(t, 'invite.use')).length).toBeGreaterThanOrEqual(1);
  });

  it('is for admins only', async () => {
    const someone = await registerAfterInvite();
    expect(someone.user.role).toBe('user');
    expect((await call(t, someone, 'GET', '/admin/invites')).status).toBe(403);
    expect((await call(t, someone, 'POST', '/admin/invites', {})).status).toBe(403);
    expect((await call(t, undefined, 'GET', '/admin/invites')).status).toBe(401);
  });
});

/** A plain user, registered through an invite as registration is closed. */
async function registerAfterInvite(): Promise<Session> {
  const invite = await createInvite();
  const email = uniqueEmail('plain');
  expect((await register(email, { inviteToken: invite.token })).statusCode).toBe(201);
  const res = await login(email);
  const { results } = res.json();
  return { email, apiToken: results.apiToken, refreshToken: results.refreshToken, user: results.user };
}

describe('open registration (the default)', () => {
  it('lets anyone register, an invite or none', async () => {
    const open = await createTestApp({ KAIROS_ADMIN_EMAIL: ADMIN_EMAIL });
    try {
      const opsAdmin = await registerUser(open.app, ADMIN_EMAIL);
      expect(opsAdmin.user.role).toBe('admin');
      const res = await open.app.inject({
        method: 'POST',
        url: '/auth/register',
        payload: { email: uniqueEmail(), password: GOOD_PASSWORD, confirm_password: GOOD_PASSWORD },
      });
      expect(res.statusCode).toBe(201);
      // An invite that no longer works does not stand in the way when registration is open.
      const stale = await open.app.inject({
        method: 'POST',
        url: '/auth/register',
        payload: {
          email: uniqueEmail(),
          password: GOOD_PASSWORD,
          confirm_password: GOOD_PASSWORD,
          inviteToken: 'kinv_stale',
          setupToken: TEST_ADMIN_SETUP_TOKEN,
        },
      });
      expect(stale.statusCode).toBe(201);
      // A working one is still used up, so the admin sees who came through it.
      const made = await open.app.inject({
        method: 'POST',
        url: '/admin/invites',
        headers: { authorization: `Bearer ${opsAdmin.apiToken}` },
        payload: {},
      });
      const { id, link } = made.json().results as { id: string; link: string };
      const carol = uniqueEmail('carol');
      const viaLink = await open.app.inject({
        method: 'POST',
        url: '/auth/register',
        payload: {
          email: carol,
          password: GOOD_PASSWORD,
          confirm_password: GOOD_PASSWORD,
          inviteToken: new URL(link).searchParams.get('invite'),
        },
      });
      expect(viaLink.statusCode).toBe(201);
      const listed = await open.app.inject({
        method: 'GET',
        url: '/admin/invites',
        headers: { authorization: `Bearer ${opsAdmin.apiToken}` },
      });
      expect((listed.json().results as { id: string }[]).find((i) => i.id === id)).toMatchObject({
        status: 'used',
        usedByEmail: carol,
      });
    } finally {
      await open.close();
    }
  });
});
