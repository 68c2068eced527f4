import { execFileSync } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../support/app';
import { mailsTo } from '../support/mail';
import { bearer, GOOD_PASSWORD, registerUser, totpCode, uniqueEmail } from '../support/users';

let t: TestApp;
const ADMIN_EMAIL = 'boss@example.com';

beforeAll(async () => {
  t = await createTestApp({ KAIROS_ADMIN_EMAIL: ADMIN_EMAIL });
});
afterAll(() => t.close());
afterEach(() => {
  vi.useRealTimers();
});

const post = (url: string, payload: unknown, headers: Record<string, string> = {}, ip = '10.0.0.1') =>
  t.app.inject({ method: 'POST', url, payload: payload as object, headers, remoteAddress: ip });

describe('registration', () => {
  it('creates an account the user then signs in to', async () => {
    const email = uniqueEmail();
    const res = await post('/auth/register', {
      email,
      password: GOOD_PASSWORD,
      confirm_password: GOOD_PASSWORD,
    });
    expect(res.statusCode).toBe(201);
    // No session yet (issue 20: the answer is the same for an address that already has an account).
    expect(res.json()).toEqual({ success: true, message: 'Account created. Log in to continue.' });
    const login = await post('/auth/login', { email, password: GOOD_PASSWORD });
    const { results } = login.json();
    expect(results.user).toMatchObject({
      email,
      role: 'user',
      isAdmin: false,
      useTwoFa: false,
      accountStatus: 'active',
    });
    expect(Object.keys(results.user).sort()).toEqual(
      [
        'accountStatus',
        'createdAt',
        'displayName',
        'email',
        'id',
        'isAdmin',
        'role',
        'updatedAt',
        'useTwoFa',
      ].sort(),
    );
    expect(results.apiToken.length).toBeGreaterThanOrEqual(40);
    expect(results.refreshToken).not.toBe(results.apiToken);
    const me = await t.app.inject({ method: 'GET', url: '/user/profile', headers: bearer(results.apiToken) });
    expect(me.json().results.email).toBe(email);
  });

  it.each([
    [
      { email: 'not-an-email', password: GOOD_PASSWORD, confirm_password: GOOD_PASSWORD },
      'Please enter a valid email address',
    ],
    [
      { email: uniqueEmail(), password: 'short', confirm_password: 'short' },
      'Password must be at least 8 characters',
    ],
    [
      { email: uniqueEmail(), password: GOOD_PASSWORD, confirm_password: 'something-else' },
      'Passwords must match',
    ],
    [{ password: GOOD_PASSWORD, confirm_password: GOOD_PASSWORD }, 'This field is required'],
    [
      { email: uniqueEmail(), password: 'password123', confirm_password: 'password123' },
      'This password is too common. Please choose another one.',
    ],
  ])('refuses %j with the spec message', async (payload, message) => {
    const res = await post('/auth/register', payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, message });
  });

  it('makes no second account on the same email, whatever its case', async () => {
    const s = await registerUser(t.app);
    const res = await post('/auth/register', {
      email: s.email.toUpperCase(),
      password: 'another-long-passphrase',
      confirm_password: 'another-long-passphrase',
    });
    expect(res.statusCode).toBe(201);
    const { rows } = await t.db.pool.query(`SELECT count(*)::int AS n FROM users WHERE email = $1`, [
      s.email,
    ]);
    expect(rows[0].n).toBe(1);
  });

  it('makes KAIROS_ADMIN_EMAIL an admin, and nobody else', async () => {
    const admin = await registerUser(t.app, ADMIN_EMAIL);
    expect(admin.user).toMatchObject({ role: 'admin', isAdmin: true });
    const user = await registerUser(t.app);
    expect(user.user.role).toBe('user');
  });
});

/** Past the growing delay a client waits after its `failures` (the progressive delays below). */
function waitOutClientDelay(failures: number) {
  vi.setSystemTime(Date.now() + 2 ** failures * 1000);
}

describe('login, logout and refresh', () => {
  it('logs in with the right password only', async () => {
    const s = await registerUser(t.app);
    const wrong = await post('/auth/login', { email: s.email, password: 'wrong-password-1' }, {}, '10.0.1.1');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().message).toBe('Invalid email or password');
    const unknown = await post(
      '/auth/login',
      { email: uniqueEmail(), password: 'wrong-password-1' },
      {},
      '10.0.1.1',
    );
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().message).toBe(wrong.json().message);
    const ok = await post('/auth/login', { email: s.email, password: GOOD_PASSWORD }, {}, '10.0.1.1');
    expect(ok.statusCode).toBe(200);
    expect(ok.json().results.user.email).toBe(s.email);
  });

  it('makes the token useless after logout', async () => {
    const s = await registerUser(t.app);
    const out = await post('/auth/logout', {}, bearer(s.apiToken));
    expect(out.statusCode).toBe(200);
    const after = await t.app.inject({ method: 'GET', url: '/user/profile', headers: bearer(s.apiToken) });
    expect(after.statusCode).toBe(401);
    expect(after.json()).toMatchObject({ success: false, error: 'INVALID_TOKEN' });
  });

  it('rotates refresh tokens and revokes the family when an old one is replayed', async () => {
    const s = await registerUser(t.app);
    const r1 = await post('/auth/refresh', { refreshToken: s.refreshToken });
    expect(r1.statusCode).toBe(200);
    const second = r1.json().results;
    expect(second.refreshToken).not.toBe(s.refreshToken);
    // The old access token was replaced; the new one works.
    expect(
      (await t.app.inject({ method: 'GET', url: '/user/profile', headers: bearer(second.apiToken) }))
        .statusCode,
    ).toBe(200);

    // A thief replays the first refresh token: refused, and the legitimate chain dies too.
    const stolen = await post('/auth/refresh', { refreshToken: s.refreshToken });
    expect(stolen.statusCode).toBe(401);
    expect(stolen.json().error).toBe('REFRESH_REUSED');
    expect(
      (await t.app.inject({ method: 'GET', url: '/user/profile', headers: bearer(second.apiToken) }))
        .statusCode,
    ).toBe(401);
    expect((await post('/auth/refresh', { refreshToken: second.refreshToken })).statusCode).toBe(401);
  });

  it('needs a refresh token to refresh', async () => {
    const res = await post('/auth/refresh', {});
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('No refresh token available');
  });

  it('answers the 11th wrong password in a row with 429 and Retry-After', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const s = await registerUser(t.app);
    for (let i = 0; i < 10; i += 1) {
      waitOutClientDelay(i);
      const res = await post(
        '/auth/login',
        { email: s.email, password: `wrong-password-${i}` },
        {},
        '10.0.2.1',
      );
      expect(res.statusCode).toBe(401);
    }
    const blocked = await post('/auth/login', { email: s.email, password: GOOD_PASSWORD }, {}, '10.0.2.2');
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(blocked.json()).toMatchObject({ success: false, error: 'RATE_LIMITED' });
  });

  it('does not lock the owner out from an address they signed in from, whoever runs up the account', async () => {
    const s = await registerUser(t.app);
    const owner = '10.0.12.1';
    expect(
      (await post('/auth/login', { email: s.email, password: GOOD_PASSWORD }, {}, owner)).statusCode,
    ).toBe(200);
    // Someone else, from ten addresses, ten wrong passwords: the account-wide count is full.
    for (let i = 0; i < 10; i += 1) {
      const res = await post('/auth/login', { email: s.email, password: `guess-${i}` }, {}, `10.0.13.${i}`);
      expect(res.statusCode).toBe(401);
    }
    // A stranger's next guess, even the right password, is held back...
    expect(
      (await post('/auth/login', { email: s.email, password: GOOD_PASSWORD }, {}, '10.0.13.99')).statusCode,
    ).toBe(429);
    // ...the owner, from their own address, signs in, and can still ask for a reset link.
    expect(
      (await post('/auth/login', { email: s.email, password: GOOD_PASSWORD }, {}, owner)).statusCode,
    ).toBe(200);
    for (let i = 0; i < 10; i += 1) await post('/auth/forgot-pass', { email: s.email }, {}, `10.0.14.${i}`);
    expect((await post('/auth/forgot-pass', { email: s.email }, {}, owner)).statusCode).toBe(200);
    expect((await post('/auth/forgot-pass', { email: s.email }, {}, '10.0.14.99')).statusCode).toBe(429);
  });

  it('holds a known address to its own failures on the account', async () => {
    const s = await registerUser(t.app);
    const owner = '10.0.15.1';
    await post('/auth/login', { email: s.email, password: GOOD_PASSWORD }, {}, owner);
    vi.useFakeTimers({ toFake: ['Date'] });
    for (let i = 0; i < 10; i += 1) {
      waitOutClientDelay(i);
      expect(
        (await post('/auth/login', { email: s.email, password: `typo-${i}` }, {}, owner)).statusCode,
      ).toBe(401);
    }
    expect(
      (await post('/auth/login', { email: s.email, password: GOOD_PASSWORD }, {}, owner)).statusCode,
    ).toBe(429);
  });

  it('counts failures per client address whatever X-Forwarded-For claims (no proxy trusted by default)', async () => {
    let last = 0;
    for (let i = 0; i < 51; i += 1) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/auth/login',
        payload: { email: uniqueEmail('spray'), password: 'wrong-password-x' },
        headers: { 'x-forwarded-for': `198.51.100.${i}` },
        remoteAddress: '10.9.9.9',
      });
      last = res.statusCode;
    }
    expect(last).toBe(429);
  });

  it('refuses a suspended account', async () => {
    const s = await registerUser(t.app);
    await t.db.pool.query(`UPDATE users SET account_status = 'suspended' WHERE email = $1`, [s.email]);
    const res = await post('/auth/login', { email: s.email, password: GOOD_PASSWORD }, {}, '10.0.3.1');
    expect(res.statusCode).toBe(403);
    expect(
      (await t.app.inject({ method: 'GET', url: '/user/profile', headers: bearer(s.apiToken) })).statusCode,
    ).toBe(401);
  });
});

describe('two-factor authentication', () => {
  it('enrols, demands a code at login, refuses replays, and disables', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = Date.UTC(2026, 10, 21, 12, 0, 0);
    vi.setSystemTime(start);
    const s = await registerUser(t.app);

    const other = await registerUser(t.app);
    const notMine = await post(
      '/auth/enable-2fa',
      { email: other.email, password: GOOD_PASSWORD },
      bearer(s.apiToken),
    );
    expect(notMine.statusCode).toBe(403);

    const enable = await post(
      '/auth/enable-2fa',
      { email: s.email, password: GOOD_PASSWORD },
      bearer(s.apiToken),
    );
    expect(enable.statusCode).toBe(200);
    const { secret, qrCode, otpauthUrl } = enable.json().results;
    expect(enable.json().secret).toBe(secret);
    expect(qrCode).toMatch(/^data:image\/png;base64,/);
    expect(otpauthUrl).toContain('otpauth://totp/');

    const badVerify = await post('/auth/verify-2fa', { email: s.email, code: '000000' }, bearer(s.apiToken));
    expect(badVerify.statusCode).toBe(401);
    const verify = await post(
      '/auth/verify-2fa',
      { email: s.email, code: totpCode(secret, start) },
      bearer(s.apiToken),
    );
    expect(verify.statusCode).toBe(200);
    expect(verify.json().results.user.useTwoFa).toBe(true);
    const token = verify.json().results.apiToken;

    const noCode = await post('/auth/login', { email: s.email, password: GOOD_PASSWORD }, {}, '10.0.4.1');
    expect(noCode.statusCode).toBe(200);
    expect(noCode.json()).toMatchObject({
      success: true,
      results: { requires2FA: true },
      message: '2FA code required',
    });
    expect(JSON.stringify(noCode.json())).not.toContain('apiToken');
    const blank = await post(
      '/auth/login',
      { email: s.email, password: GOOD_PASSWORD, code: '   ' },
      {},
      '10.0.4.1',
    );
    expect(blank.json().results).toEqual({ requires2FA: true });

    // The code used to enrol cannot be used again.
    const replay = await post(
      '/auth/login',
      { email: s.email, password: GOOD_PASSWORD, code: totpCode(secret, start) },
      {},
      '10.0.4.1',
    );
    expect(replay.statusCode).toBe(401);

    vi.setSystemTime(start + 30_000);
    const withCode = await post(
      '/auth/login',
      { email: s.email, password: GOOD_PASSWORD, code: ` ${totpCode(secret)} ` },
      {},
      '10.0.4.1',
    );
    expect(withCode.statusCode).toBe(200);
    expect(withCode.json().results.apiToken).toBeTruthy();
    const again = await post(
      '/auth/login',
      { email: s.email, password: GOOD_PASSWORD, code: totpCode(secret) },
      {},
      '10.0.4.1',
    );
    expect(again.statusCode).toBe(401);

    vi.setSystemTime(start + 60_000);
    const disable = await post(
      '/auth/disable-2fa',
      { email: s.email, code: totpCode(secret), password: GOOD_PASSWORD },
      bearer(token),
    );
    expect(disable.statusCode).toBe(200);
    expect(disable.json().results.user.useTwoFa).toBe(false);
    // Disabling revokes the other sessions (the one opened by the code login) but keeps this one.
    const otherSession = withCode.json().results.apiToken;
    expect(
      (await t.app.inject({ method: 'GET', url: '/user/profile', headers: bearer(otherSession) })).statusCode,
    ).toBe(401);
    expect(
      (await t.app.inject({ method: 'GET', url: '/user/profile', headers: bearer(token) })).statusCode,
    ).toBe(200);
    const plain = await post('/auth/login', { email: s.email, password: GOOD_PASSWORD }, {}, '10.0.4.2');
    expect(plain.json().results.apiToken).toBeTruthy();
  });

  it('asks for a 6-digit code', async () => {
    const s = await registerUser(t.app);
    const res = await post('/auth/verify-2fa', { email: s.email, code: '12ab' }, bearer(s.apiToken));
    expect(res.statusCode).toBe(400);
  });

  it('needs a session', async () => {
    const res = await post('/auth/enable-2fa', { email: uniqueEmail() });
    expect(res.statusCode).toBe(401);
  });
});

describe('password reset and change', () => {
  async function latestMailTo(email: string): Promise<string> {
    return (await mailsTo(t, email)).at(-1)?.text ?? '';
  }

  it('answers forgot-pass the same for known and unknown emails, and mails a working link', async () => {
    const s = await registerUser(t.app);
    const known = await post('/auth/forgot-pass', { email: s.email }, {}, '10.0.5.1');
    const unknown = await post('/auth/forgot-pass', { email: uniqueEmail() }, {}, '10.0.5.1');
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.json()).toEqual(unknown.json());

    const mail = await latestMailTo(s.email);
    const link = new URL(mail.match(/https?:\/\/\S+/)![0]);
    expect(link.pathname).toBe('/reset-password');
    const token = link.searchParams.get('token')!;

    const newPassword = 'a-brand-new-passphrase';
    const bad = await post('/auth/change-pass', {
      email: s.email,
      password: newPassword,
      confirm_password: newPassword,
      token: 'krp_forged',
    });
    expect(bad.statusCode).toBe(401);
    const changed = await post('/auth/change-pass', {
      email: s.email,
      password: newPassword,
      confirm_password: newPassword,
      token,
    });
    expect(changed.statusCode).toBe(200);
    // A reset signs every session out, and the link works once.
    expect(
      (await t.app.inject({ method: 'GET', url: '/user/profile', headers: bearer(s.apiToken) })).statusCode,
    ).toBe(401);
    const reuse = await post('/auth/change-pass', {
      email: s.email,
      password: 'yet-another-passphrase',
      confirm_password: 'yet-another-passphrase',
      token,
    });
    expect(reuse.statusCode).toBe(401);
    expect(
      (await post('/auth/login', { email: s.email, password: newPassword }, {}, '10.0.5.2')).statusCode,
    ).toBe(200);
  });

  it('builds the link from the public URL, never from the Host a client sends', async () => {
    const s = await registerUser(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth/forgot-pass',
      headers: { host: 'attacker.example', 'x-forwarded-host': 'attacker.example' },
      payload: { email: s.email },
      remoteAddress: '10.0.5.9',
    });
    expect(res.statusCode).toBe(200);
    const mail = await latestMailTo(s.email);
    expect(mail).not.toContain('attacker.example');
    expect(new URL(mail.match(/https?:\/\/\S+/)![0]).origin).toBe(t.config.publicUrl);
  });

  it('lets no older reset link work once the password was reset or changed', async () => {
    const s = await registerUser(t.app);
    const tokenOf = async () =>
      new URL((await latestMailTo(s.email)).match(/https?:\/\/\S+/)![0]).searchParams.get('token')!;
    await post('/auth/forgot-pass', { email: s.email }, {}, '10.0.5.3');
    const first = await tokenOf();
    await post('/auth/forgot-pass', { email: s.email }, {}, '10.0.5.3');
    const second = await tokenOf();
    expect(second).not.toBe(first);
    const reset = (token: string, password: string) =>
      post('/auth/change-pass', { email: s.email, password, confirm_password: password, token });
    expect((await reset(second, 'the-second-link-passphrase')).statusCode).toBe(200);
    // The first link, still within its hour, no longer works.
    expect((await reset(first, 'the-first-link-passphrase')).statusCode).toBe(401);

    // The same after a signed-in change of password.
    const signedIn = (
      await post('/auth/login', { email: s.email, password: 'the-second-link-passphrase' }, {}, '10.0.5.4')
    ).json().results.apiToken;
    await post('/auth/forgot-pass', { email: s.email }, {}, '10.0.5.3');
    const third = await tokenOf();
    const changed = await post(
      '/auth/change-pass',
      {
        email: s.email,
        password: 'a-changed-long-passphrase',
        confirm_password: 'a-changed-long-passphrase',
        currentPassword: 'the-second-link-passphrase',
      },
      bearer(signedIn),
    );
    expect(changed.statusCode).toBe(200);
    expect((await reset(third, 'the-third-link-passphrase')).statusCode).toBe(401);
  });

  it('changes the password of a signed-in user who knows the current one', async () => {
    const s = await registerUser(t.app);
    const second = (
      await post('/auth/login', { email: s.email, password: GOOD_PASSWORD }, {}, '10.0.6.1')
    ).json().results.apiToken;
    const np = 'my-next-long-passphrase';
    const anonymous = await post('/auth/change-pass', {
      email: s.email,
      password: np,
      confirm_password: np,
      currentPassword: GOOD_PASSWORD,
    });
    expect(anonymous.statusCode).toBe(401);
    const wrong = await post(
      '/auth/change-pass',
      { email: s.email, password: np, confirm_password: np, currentPassword: 'not-my-password' },
      bearer(s.apiToken),
    );
    expect(wrong.statusCode).toBe(401);
    const noProof = await post(
      '/auth/change-pass',
      { email: s.email, password: np, confirm_password: np },
      bearer(s.apiToken),
    );
    expect(noProof.statusCode).toBe(400);
    const ok = await post(
      '/auth/change-pass',
      { email: s.email, password: np, confirm_password: np, currentPassword: GOOD_PASSWORD },
      bearer(s.apiToken),
    );
    expect(ok.statusCode).toBe(200);
    expect(
      (await t.app.inject({ method: 'GET', url: '/user/profile', headers: bearer(second) })).statusCode,
    ).toBe(401);
    expect(
      (await t.app.inject({ method: 'GET', url: '/user/profile', headers: bearer(s.apiToken) })).statusCode,
    ).toBe(200);
    expect(
      (await post('/auth/login', { email: s.email, password: GOOD_PASSWORD }, {}, '10.0.6.2')).statusCode,
    ).toBe(401);
    expect((await post('/auth/login', { email: s.email, password: np }, {}, '10.0.6.2')).statusCode).toBe(
      200,
    );
  });
});

describe('profile and settings', () => {
  it('keeps each user to their own profile and preferences', async () => {
    const a = await registerUser(t.app);
    const b = await registerUser(t.app);
    const defaults = await t.app.inject({
      method: 'GET',
      url: '/user/settings',
      headers: bearer(a.apiToken),
    });
    expect(defaults.json().results).toEqual({
      theme: 'dark',
      language: 'en-US',
      currency: 'USD',
      timezone: 'UTC',
      notifications: {
        email: true,
        push: true,
        sms: false,
        tradingAlerts: true,
        priceAlerts: true,
        newsAlerts: false,
      },
    });
    const put = await t.app.inject({
      method: 'PUT',
      url: '/user/settings',
      headers: bearer(a.apiToken),
      payload: { language: 'fr-FR', currency: 'EUR', timezone: 'Europe/Paris', notifications: { sms: true } },
    });
    expect(put.statusCode).toBe(200);
    expect(put.json().results).toMatchObject({
      language: 'fr-FR',
      currency: 'EUR',
      timezone: 'Europe/Paris',
      notifications: { sms: true, email: true },
    });
    const bSettings = await t.app.inject({
      method: 'GET',
      url: '/user/settings',
      headers: bearer(b.apiToken),
    });
    expect(bSettings.json().results.language).toBe('en-US');

    const badTz = await t.app.inject({
      method: 'PUT',
      url: '/user/settings',
      headers: bearer(a.apiToken),
      payload: { timezone: 'Mars/Olympus' },
    });
    expect(badTz.statusCode).toBe(400);
    const badTheme = await t.app.inject({
      method: 'PUT',
      url: '/user/settings',
      headers: bearer(a.apiToken),
      payload: { theme: 'neon' },
    });
    expect(badTheme.statusCode).toBe(400);

    const profile = await t.app.inject({
      method: 'PUT',
      url: '/user/profile',
      headers: bearer(b.apiToken),
      payload: { displayName: 'Bea' },
    });
    expect(profile.json().results).toMatchObject({ email: b.email, displayName: 'Bea' });
    const aProfile = await t.app.inject({ method: 'GET', url: '/user/profile', headers: bearer(a.apiToken) });
    expect(aProfile.json().results.email).toBe(a.email);
    expect(aProfile.json().results.displayName).toBeNull();
    expect((await t.app.inject({ method: 'GET', url: '/user/settings' })).statusCode).toBe(401);
  });
});

describe('settings saved at the same time', () => {
  it('keeps both of two concurrent partial updates', async () => {
    const s = await registerUser(t.app);
    const put = (payload: object) =>
      t.app.inject({ method: 'PUT', url: '/user/settings', headers: bearer(s.apiToken), payload });
    await Promise.all([
      put({ theme: 'light' }),
      put({ language: 'fr-FR' }),
      put({ notifications: { sms: true } }),
      put({ notifications: { email: false } }),
    ]);
    const after = (
      await t.app.inject({ method: 'GET', url: '/user/settings', headers: bearer(s.apiToken) })
    ).json().results;
    expect(after).toMatchObject({
      theme: 'light',
      language: 'fr-FR',
      notifications: { sms: true, email: false, push: true },
    });
  });
});

describe('secrets at rest', () => {
  it('keeps no password, TOTP secret or token in clear in a database dump', async () => {
    const password = 'dump-check-passphrase-42';
    const s = await registerUser(t.app, uniqueEmail('dump'), password);
    const enable = await post('/auth/enable-2fa', { email: s.email, password }, bearer(s.apiToken));
    const { secret } = enable.json().results;
    const verified = await post(
      '/auth/verify-2fa',
      { email: s.email, code: totpCode(secret) },
      bearer(s.apiToken),
    );
    const { apiToken, refreshToken, recoveryCodes } = verified.json().results;
    await post('/auth/forgot-pass', { email: s.email }, {}, '10.0.7.1');

    let dump: string;
    try {
      dump = execFileSync('pg_dump', ['--data-only', t.db.url], {
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
        stdio: ['ignore', 'pipe', 'ignore'],
      });
    } catch {
      // No pg_dump binary here: dump every table's rows as text instead.
      const { rows: tables } = await t.db.pool.query(
        `SELECT tablename FROM pg_tables WHERE schemaname = 'public'`,
      );
      const parts: string[] = [];
      for (const { tablename } of tables) {
        const { rows } = await t.db.pool.query(`SELECT * FROM "${tablename}"`);
        parts.push(JSON.stringify(rows));
      }
      dump = parts.join('\n');
    }
    expect(dump).toContain(s.email);
    const codes = (recoveryCodes as string[]).flatMap((c) => [c, c.replace('-', '')]);
    expect(codes).toHaveLength(20);
    for (const clear of [
      password,
      secret,
      apiToken,
      refreshToken,
      s.apiToken,
      s.refreshToken,
      'krp_',
      ...codes,
    ]) {
      expect(dump).not.toContain(clear);
    }
  });
});

/** Issue 20: throttling by account and client together, with progressive delays. */
const login = (email: string, password: string, ip: string) =>
  post('/auth/login', { email, password }, {}, ip);

describe('login throttling with progressive delays', () => {
  it('makes a client wait longer after each wrong password on an account, and only that client', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    let now = Date.UTC(2026, 10, 24, 9, 0, 0);
    vi.setSystemTime(now);
    const s = await registerUser(t.app);
    const owner = '10.20.0.1';
    const attacker = '10.20.0.66';
    expect((await login(s.email, GOOD_PASSWORD, owner)).statusCode).toBe(200);

    // Three free tries, then each failure makes the next attempt wait: 1 s, 2 s, 4 s, 8 s…
    for (let i = 0; i < 3; i += 1)
      expect((await login(s.email, `guess-${i}`, attacker)).statusCode).toBe(401);
    const waits: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      // Held back, even with the right password, until the delay is over; a refused try adds nothing.
      const held = await login(s.email, GOOD_PASSWORD, attacker);
      expect(held.statusCode).toBe(429);
      expect(held.json()).toMatchObject({ error: 'RATE_LIMITED', params: { variant: 'failedAttempts' } });
      const wait = Number(held.headers['retry-after']);
      waits.push(wait);
      now += wait * 1000 - 1;
      vi.setSystemTime(now);
      expect((await login(s.email, `guess-again-${i}`, attacker)).statusCode).toBe(429);
      now += 1;
      vi.setSystemTime(now);
      expect((await login(s.email, `guess-again-${i}`, attacker)).statusCode).toBe(401);
    }
    expect(waits).toEqual([1, 2, 4, 8]);

    // The owner, from their device or a new one, signs in at once: the delays belong to the guessing client.
    expect((await login(s.email, GOOD_PASSWORD, owner)).statusCode).toBe(200);
    expect((await login(s.email, GOOD_PASSWORD, '10.20.0.2')).statusCode).toBe(200);
  });

  it('cannot be used by an attacker from other addresses to lock the owner out of a known device', async () => {
    const s = await registerUser(t.app);
    const owner = '10.21.0.1';
    expect((await login(s.email, GOOD_PASSWORD, owner)).statusCode).toBe(200);
    // Forty guesses from twenty addresses: refused (401, then 429 once the account-wide count is full).
    for (let a = 0; a < 20; a += 1)
      for (let i = 0; i < 2; i += 1)
        expect([401, 429]).toContain((await login(s.email, `guess-${a}-${i}`, `10.21.1.${a}`)).statusCode);
    expect((await login(s.email, GOOD_PASSWORD, '10.21.1.99')).statusCode).toBe(429);
    expect((await login(s.email, GOOD_PASSWORD, owner)).statusCode).toBe(200);
  });

  it('never counts forgot-password against login', async () => {
    const s = await registerUser(t.app);
    const ip = '10.22.0.1';
    for (let i = 0; i < 12; i += 1) await post('/auth/forgot-pass', { email: s.email }, {}, ip);
    expect((await login(s.email, GOOD_PASSWORD, ip)).statusCode).toBe(200);
  });
});
