import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app';
import { GOOD_PASSWORD } from '../support/users';

/**
 * The admin seat (issue 20): `KAIROS_ADMIN_EMAIL` alone grants nothing. Until an admin exists, registering
 * that email needs the setup token — the operator's `KAIROS_ADMIN_SETUP_TOKEN`, or one the server makes and
 * prints once in its log — and is refused without it; once an admin exists the token is void.
 */
const ADMIN = 'first-admin@example.com';
const TOKEN = 'kst_operator-chose-this-setup-token';
const apps: TestApp[] = [];
afterAll(() => Promise.all(apps.map((a) => a.close())));

async function start(env: Record<string, string>) {
  const lines: string[] = [];
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  const t = await createTestApp({ KAIROS_ADMIN_EMAIL: ADMIN, LOG_LEVEL: 'info', ...env }, { logStream });
  apps.push(t);
  return { t, lines };
}

function register(t: TestApp, email: string, setupToken?: string) {
  return t.app.inject({
    method: 'POST',
    url: '/auth/register',
    payload: {
      email,
      password: GOOD_PASSWORD,
      confirm_password: GOOD_PASSWORD,
      ...(setupToken !== undefined ? { setupToken } : {}),
    },
  });
}

/** The role an email registered with (registration opens no session: issue 20). */
async function roleOf(t: TestApp, email: string): Promise<string | undefined> {
  const { rows } = await t.db.pool.query(`SELECT role FROM users WHERE email = $1`, [email]);
  return rows[0]?.role;
}

describe('the first admin', () => {
  it('is refused without the setup token, or with a wrong one, and becomes admin with it', async () => {
    const { t, lines } = await start({ KAIROS_ADMIN_SETUP_TOKEN: TOKEN });
    for (const attempt of [undefined, '', 'kst_guess']) {
      const refused = await register(t, ADMIN, attempt);
      expect(refused.statusCode, refused.body).toBe(403);
      expect(refused.json().error).toBe('SETUP_TOKEN_INVALID');
    }
    const { rows } = await t.db.pool.query(`SELECT count(*)::int AS n FROM users WHERE email = $1`, [ADMIN]);
    expect(rows[0].n).toBe(0);

    // Other emails register as before, with or without a token in the body: never admin.
    const user = await register(t, 'someone@example.com', TOKEN);
    expect(user.statusCode).toBe(201);
    expect(await roleOf(t, 'someone@example.com')).toBe('user');

    const admin = await register(t, ADMIN, TOKEN);
    expect(admin.statusCode, admin.body).toBe(201);
    expect(await roleOf(t, ADMIN)).toBe('admin');
    // The operator chose the token: the log says it is pending, never what it is.
    expect(lines.join('\n')).not.toContain(TOKEN);
  });

  it('prints a token it made once in the log, and that token (only) opens the admin seat', async () => {
    const { t, lines } = await start({ KAIROS_ADMIN_SETUP_TOKEN: '' }); // the harness sets one: unset it
    const setupLines = lines.filter((l) => /setup token/i.test(l));
    expect(setupLines).toHaveLength(1);
    const token = /kst_[\w-]+/.exec(setupLines[0]!)?.[0];
    expect(token, setupLines[0]).toBeDefined();
    expect((await register(t, ADMIN, `${token}x`)).statusCode).toBe(403);
    const admin = await register(t, ADMIN, token);
    expect(admin.statusCode, admin.body).toBe(201);
    expect(await roleOf(t, ADMIN)).toBe('admin');
    // Nothing after start-up repeats it.
    expect(lines.filter((l) => l.includes(token!))).toHaveLength(1);
  });

  it('is void once an admin exists: the email then registers a plain user', async () => {
    const { t } = await start({ KAIROS_ADMIN_SETUP_TOKEN: TOKEN });
    expect((await register(t, 'early@example.com')).statusCode).toBe(201);
    await t.db.pool.query(`UPDATE users SET role = 'admin' WHERE email = $1`, ['early@example.com']);
    const late = await register(t, ADMIN, TOKEN);
    expect(late.statusCode, late.body).toBe(201);
    expect(await roleOf(t, ADMIN)).toBe('user');
  });
});
