import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../support/app';
import { mailsTo as mailsOf } from '../support/mail';
import { bearer, GOOD_PASSWORD, registerUser, totpCode, uniqueEmail } from '../support/users';

// Issue 20: the account items — 2FA behind the password with recovery codes, a real breached-password list.
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
afterEach(() => {
  vi.useRealTimers();
});

let lastIp = 0;
/** Each call from its own address, so the per-address counters of one test never hold back another. */
const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url,
    payload: payload as object,
    headers,
    remoteAddress: `10.20.${Math.floor(++lastIp / 250)}.${lastIp % 250}`,
  });
const profileStatus = async (token: string) =>
  (await t.app.inject({ method: 'GET', url: '/user/profile', headers: bearer(token) })).statusCode;

const mailsTo = (email: string) => mailsOf(t, email);

/** A user with 2FA switched on at `start`: their secret, recovery codes and the token verify-2fa gave. */
async function withTwoFa(start: number) {
  const s = await registerUser(t.app);
  const enable = await post(
    '/auth/enable-2fa',
    { email: s.email, password: GOOD_PASSWORD },
    bearer(s.apiToken),
  );
  expect(enable.statusCode).toBe(200);
  const secret: string = enable.json().results.secret;
  const verify = await post(
    '/auth/verify-2fa',
    { email: s.email, code: totpCode(secret, start) },
    bearer(s.apiToken),
  );
  expect(verify.statusCode).toBe(200);
  const results = verify.json().results;
  return { ...s, secret, codes: results.recoveryCodes as string[], token: results.apiToken as string };
}

describe('2FA needs the password, and gives recovery codes', () => {
  it('refuses to start enrolment without the current password, or with a wrong one', async () => {
    const s = await registerUser(t.app);
    const missing = await post('/auth/enable-2fa', { email: s.email }, bearer(s.apiToken));
    expect(missing.statusCode).toBe(400);
    const wrong = await post(
      '/auth/enable-2fa',
      { email: s.email, password: 'not-my-password' },
      bearer(s.apiToken),
    );
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ success: false, error: 'INVALID_CREDENTIALS' });
  });

  it('shows ten one-time recovery codes once, stores only their hashes, ends the other sessions and mails', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = Date.UTC(2026, 10, 22, 12, 0, 0);
    vi.setSystemTime(start);
    const s = await registerUser(t.app);
    const elsewhere = (await post('/auth/login', { email: s.email, password: GOOD_PASSWORD })).json().results
      .apiToken as string;
    const enable = await post(
      '/auth/enable-2fa',
      { email: s.email, password: GOOD_PASSWORD },
      bearer(s.apiToken),
    );
    const secret = enable.json().results.secret;
    const verify = await post(
      '/auth/verify-2fa',
      { email: s.email, code: totpCode(secret, start) },
      bearer(s.apiToken),
    );
    expect(verify.statusCode).toBe(200);
    const codes: string[] = verify.json().results.recoveryCodes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z0-9]{5}-[a-z0-9]{5}$/);

    // Only hashes are kept.
    const { rows } = await t.db.pool.query(
      `SELECT code_hash FROM recovery_codes rc JOIN users u ON u.id = rc.user_id WHERE u.email = $1`,
      [s.email],
    );
    expect(rows).toHaveLength(10);
    const stored = JSON.stringify(rows);
    for (const code of codes) {
      expect(stored).not.toContain(code);
      expect(stored).not.toContain(code.replace('-', ''));
    }

    // Enabling ends every other sign-in; the enrolling device goes on with the token verify gave.
    expect(await profileStatus(elsewhere)).toBe(401);
    expect(await profileStatus(verify.json().results.apiToken)).toBe(200);

    const mails = await mailsTo(s.email);
    expect(mails.at(-1)!.subject).toMatch(/two-factor authentication was turned on/i);
  });

  it('lets a recovery code stand in for a TOTP code at login, once, and mails the owner', async () => {
    const start = Date.UTC(2026, 10, 23, 12, 0, 0);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(start);
    const s = await withTwoFa(start);
    const [first, second] = s.codes as [string, string];

    const wrongPassword = await post('/auth/login', {
      email: s.email,
      password: 'not-it-at-all',
      code: first,
    });
    expect(wrongPassword.statusCode).toBe(401);
    const forged = await post('/auth/login', {
      email: s.email,
      password: GOOD_PASSWORD,
      code: 'abcde-fghij',
    });
    expect(forged.statusCode).toBe(401);
    expect(forged.json().error).toBe('INVALID_2FA_CODE');

    const used = await post('/auth/login', { email: s.email, password: GOOD_PASSWORD, code: first });
    expect(used.statusCode).toBe(200);
    expect(used.json().results.apiToken).toBeTruthy();
    const mails = await mailsTo(s.email);
    expect(mails.at(-1)!.subject).toMatch(/recovery code was used/i);
    expect(mails.at(-1)!.text).toContain('9');

    const again = await post('/auth/login', { email: s.email, password: GOOD_PASSWORD, code: first });
    expect(again.statusCode).toBe(401);
    // Typed without its dash and in capitals, another code works.
    const typed = await post('/auth/login', {
      email: s.email,
      password: GOOD_PASSWORD,
      code: second.replace('-', '').toUpperCase(),
    });
    expect(typed.statusCode).toBe(200);
  });

  it('needs the password to disable, mails the owner, and voids the recovery codes', async () => {
    const start = Date.UTC(2026, 10, 24, 12, 0, 0);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(start);
    const s = await withTwoFa(start);
    vi.setSystemTime(start + 30_000);
    const code = totpCode(s.secret);
    const missing = await post('/auth/disable-2fa', { email: s.email, code }, bearer(s.token));
    expect(missing.statusCode).toBe(400);
    const wrong = await post(
      '/auth/disable-2fa',
      { email: s.email, code, password: 'not-my-password' },
      bearer(s.token),
    );
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error).toBe('INVALID_CREDENTIALS');
    const ok = await post(
      '/auth/disable-2fa',
      { email: s.email, code, password: GOOD_PASSWORD },
      bearer(s.token),
    );
    expect(ok.statusCode).toBe(200);
    expect(ok.json().results.user.useTwoFa).toBe(false);
    expect((await mailsTo(s.email)).at(-1)!.subject).toMatch(/two-factor authentication was turned off/i);
    const { rows } = await t.db.pool.query(
      `SELECT count(*)::int AS n FROM recovery_codes rc JOIN users u ON u.id = rc.user_id WHERE u.email = $1`,
      [s.email],
    );
    expect(rows[0].n).toBe(0);
  });

  it('keeps 2FA through a password reset', async () => {
    const start = Date.now();
    const s = await withTwoFa(start);
    await post('/auth/forgot-pass', { email: s.email });
    const mail = (await mailsTo(s.email)).find((m) => /reset/i.test(m.subject))!;
    const token = new URL(mail.text.match(/https?:\/\/\S+/)![0]).searchParams.get('token')!;
    const np = 'a-fresh-reset-passphrase';
    expect(
      (await post('/auth/change-pass', { email: s.email, password: np, confirm_password: np, token }))
        .statusCode,
    ).toBe(200);
    const login = await post('/auth/login', { email: s.email, password: np });
    expect(login.json().results).toEqual({ requires2FA: true });
  });
});

describe('breached passwords', () => {
  // In the 10,000 most common passwords of public breaches, and not in the short list Kairos shipped before.
  const BREACHED = ['qazwsxedc', 'jordan23', 'corvette', 'samantha'];
  const refusal = { success: false, message: 'This password is too common. Please choose another one.' };

  it.each(BREACHED)('refuses %s at registration', async (password) => {
    const res = await post('/auth/register', { email: uniqueEmail(), password, confirm_password: password });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject(refusal);
  });

  it('refuses them at a change and at a reset', async () => {
    const s = await registerUser(t.app);
    const change = await post(
      '/auth/change-pass',
      { email: s.email, password: 'corvette', confirm_password: 'corvette', currentPassword: GOOD_PASSWORD },
      bearer(s.apiToken),
    );
    expect(change.statusCode).toBe(400);
    expect(change.json()).toMatchObject(refusal);
    const reset = await post('/auth/change-pass', {
      email: s.email,
      password: 'jordan23',
      confirm_password: 'jordan23',
      token: 'krp_whatever',
    });
    expect(reset.statusCode).toBe(400);
    expect(reset.json()).toMatchObject(refusal);
  });
});

describe('registration does not tell whether an address has an account', () => {
  it('answers a taken address exactly as a new one, and mails the owner instead', async () => {
    const owner = await registerUser(t.app);
    const body = (email: string) => ({
      email,
      password: 'an-intruder-passphrase',
      confirm_password: 'an-intruder-passphrase',
    });
    const fresh = uniqueEmail();
    const created = await post('/auth/register', body(fresh));
    const taken = await post('/auth/register', body(owner.email.toUpperCase()));
    expect(created.statusCode).toBe(201);
    expect(taken.statusCode).toBe(201);
    expect(taken.json()).toEqual(created.json());
    expect(JSON.stringify(created.json())).not.toContain('apiToken');

    const mail = (await mailsTo(owner.email)).at(-1)!;
    expect(mail.subject).toMatch(/someone tried to register/i);
    expect(mail.text).toContain('/forgot-password');
    expect(await mailsTo(fresh)).toEqual([]);

    // The owner's password stands; the new account signs in with its own.
    expect((await post('/auth/login', { email: owner.email, password: GOOD_PASSWORD })).statusCode).toBe(200);
    expect(
      (await post('/auth/login', { email: owner.email, password: 'an-intruder-passphrase' })).statusCode,
    ).toBe(401);
    const login = await post('/auth/login', { email: fresh, password: 'an-intruder-passphrase' });
    expect(login.json().results.user).toMatchObject({ email: fresh, role: 'user' });
  });
});
