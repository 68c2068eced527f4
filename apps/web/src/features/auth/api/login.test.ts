import { describe, expect, it } from 'vitest';
import { useSession } from '../../../lib/session-store';
import { mockFetch } from '../../../testing/fetch-mock';
import { LOGIN_MESSAGES, login, loginRequestBody, readLoginResponse } from './login';

const user = { id: 'u1', email: 'ada@example.com', role: 'user', useTwoFa: false };

describe('login request (spec §5, §7)', () => {
  it('trims the 2FA code and sends it only when non-empty', () => {
    expect(loginRequestBody({ email: 'a@b.co', password: 'pw', code: ' 123456 ' })).toEqual({
      email: 'a@b.co',
      password: 'pw',
      code: '123456',
    });
    expect(loginRequestBody({ email: 'a@b.co', password: 'pw', code: '   ' })).toEqual({
      email: 'a@b.co',
      password: 'pw',
    });
    expect(loginRequestBody({ email: 'a@b.co', password: 'pw' })).toEqual({
      email: 'a@b.co',
      password: 'pw',
    });
  });
});

describe('login response (spec §4, §8)', () => {
  it('reads user and tokens inside results', () => {
    expect(
      readLoginResponse({ success: true, results: { user, apiToken: 'tok', refreshToken: 'ref' } }, false),
    ).toEqual({ status: 'authenticated', user, token: 'tok', refreshToken: 'ref' });
  });

  it('accepts apiToken and user at the top level', () => {
    expect(readLoginResponse({ success: true, user, apiToken: 'tok' }, false)).toEqual({
      status: 'authenticated',
      user,
      token: 'tok',
      refreshToken: null,
    });
  });

  it.each([
    ['the requires2FA flag', { success: true, results: { requires2FA: true } }, false],
    ['a message mentioning 2FA', { success: true, message: '2FA code required' }, false],
    ['a refusal mentioning 2fa', { success: false, message: 'Invalid 2fa code' }, true],
    [
      'a 2FA user and no code sent',
      { success: true, results: { user: { ...user, useTwoFa: true }, apiToken: 'tok' } },
      false,
    ],
  ])('asks for the 2FA code on %s', (_case, body, codeSent) => {
    expect(readLoginResponse(body, codeSent)).toEqual({ status: 'two-factor-required' });
  });

  it('logs a 2FA user in once the code was sent', () => {
    const body = { success: true, results: { user: { ...user, useTwoFa: true }, apiToken: 'tok' } };
    expect(readLoginResponse(body, true).status).toBe('authenticated');
  });

  it.each([
    ['not an object', 'ok'],
    ['without a token', { success: true, results: { user } }],
    ['without a user', { success: true, results: { apiToken: 'tok' } }],
  ])("fails with 'Login failed: malformed response' when the body is %s", (_case, body) => {
    expect(() => readLoginResponse(body, false)).toThrow(LOGIN_MESSAGES.malformed);
  });

  it("fails with the server's message, or 'Login failed'", () => {
    expect(() => readLoginResponse({ success: false, message: 'Account suspended' }, false)).toThrow(
      'Account suspended',
    );
    expect(() => readLoginResponse({ success: false }, false)).toThrow('Login failed');
  });
});

describe('login()', () => {
  it('stores the user, the api token and the refresh token on success', async () => {
    mockFetch(() => ({ body: { success: true, results: { user, apiToken: 'tok', refreshToken: 'ref' } } }));
    await expect(login({ email: 'ada@example.com', password: 'pw' })).resolves.toMatchObject({
      status: 'authenticated',
    });
    expect(useSession.getState()).toMatchObject({
      token: 'tok',
      refreshToken: 'ref',
      isAuthenticated: true,
      user: { email: 'ada@example.com', username: 'ada' },
    });
  });

  it('enters the two-factor step without authenticating', async () => {
    mockFetch(() => ({
      body: { success: true, results: { requires2FA: true }, message: '2FA code required' },
    }));
    await expect(login({ email: 'ada@example.com', password: 'pw' })).resolves.toEqual({
      status: 'two-factor-required',
    });
    expect(useSession.getState()).toMatchObject({
      isTwoFactorRequired: true,
      isAuthenticated: false,
      token: null,
    });
  });

  it('treats an error status asking for the 2FA code as the two-factor step', async () => {
    mockFetch(() => ({
      status: 401,
      body: { success: false, error: 'TWO_FACTOR_REQUIRED', message: '2FA code required' },
    }));
    await expect(login({ email: 'ada@example.com', password: 'pw' })).resolves.toEqual({
      status: 'two-factor-required',
    });
  });

  it('keeps the code step and says why when the code is refused', async () => {
    window.history.replaceState(null, '', '/login');
    window.localStorage.setItem('theme', 'light');
    mockFetch(() => ({
      status: 401,
      body: { success: false, error: 'INVALID_2FA_CODE', message: 'Invalid 2FA code' },
    }));
    await expect(login({ email: 'ada@example.com', password: 'pw', code: '000000' })).rejects.toThrow(
      'Invalid 2FA code',
    );
    expect(useSession.getState()).toMatchObject({ isTwoFactorRequired: true, isAuthenticated: false });
    // A refused password or code is not a session ending: the visitor's preferences stay.
    expect(window.localStorage.getItem('theme')).toBe('light');
  });

  it("raises the server's message for wrong credentials", async () => {
    window.history.replaceState(null, '', '/login');
    mockFetch(() => ({
      status: 401,
      body: { success: false, error: 'INVALID_CREDENTIALS', message: 'Invalid email or password' },
    }));
    await expect(login({ email: 'ada@example.com', password: 'bad' })).rejects.toThrow(
      'Invalid email or password',
    );
  });
});
