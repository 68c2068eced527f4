import { DEFAULT_PREFERENCES } from '@kairos/contract';
import { describe, expect, it } from 'vitest';
import { SESSION_STORAGE_KEYS, endSession, restoreSession, toSessionUser, useSession } from './session-store';

const backendUser = {
  id: 7,
  email: 'grace.hopper@example.com',
  role: 'user',
  useTwoFa: true,
  accountStatus: 'active',
};

describe('session store (spec §3, §4, §9)', () => {
  it('persists the token, refresh token and user under their keys', () => {
    useSession.getState().setSession({ user: backendUser, token: 'tok', refreshToken: 'ref' });
    expect(window.localStorage.getItem(SESSION_STORAGE_KEYS.token)).toBe('tok');
    expect(window.localStorage.getItem(SESSION_STORAGE_KEYS.refreshToken)).toBe('ref');
    expect(JSON.parse(window.localStorage.getItem(SESSION_STORAGE_KEYS.user) ?? '{}')).toMatchObject({
      id: '7',
      email: 'grace.hopper@example.com',
    });
    expect(useSession.getState()).toMatchObject({
      isAuthenticated: true,
      isTwoFactorRequired: false,
      twoFactorSecret: null,
    });
  });

  it('restores a stored session', () => {
    window.localStorage.setItem(SESSION_STORAGE_KEYS.token, 'tok_saved');
    window.localStorage.setItem(SESSION_STORAGE_KEYS.refreshToken, 'ref_saved');
    window.localStorage.setItem(SESSION_STORAGE_KEYS.user, JSON.stringify(backendUser));
    restoreSession();
    expect(useSession.getState()).toMatchObject({
      token: 'tok_saved',
      refreshToken: 'ref_saved',
      isAuthenticated: true,
      user: { username: 'grace.hopper' },
    });
  });

  it('ignores a corrupt stored user', () => {
    window.localStorage.setItem(SESSION_STORAGE_KEYS.token, 'tok_saved');
    window.localStorage.setItem(SESSION_STORAGE_KEYS.user, '{not json');
    restoreSession();
    expect(useSession.getState()).toMatchObject({ token: 'tok_saved', user: null });
  });

  it('derives the username from the email and the role from role or isAdmin', () => {
    expect(toSessionUser(backendUser)).toMatchObject({ username: 'grace.hopper', role: 'user', id: '7' });
    expect(toSessionUser({ ...backendUser, role: 'admin' })?.role).toBe('admin');
    expect(toSessionUser({ id: '1', email: 'root@example.com', isAdmin: true })?.role).toBe('admin');
    expect(toSessionUser({ id: '1', email: 'x@example.com', role: 'user', isAdmin: false })?.role).toBe(
      'user',
    );
    expect(toSessionUser(null)).toBeNull();
  });

  it("gives a user the contract's default preferences (spec §3, dark as DESIGN §9 says)", () => {
    expect(DEFAULT_PREFERENCES).toEqual({
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
    expect(toSessionUser(backendUser)?.preferences).toEqual(DEFAULT_PREFERENCES);
    expect(
      toSessionUser({ ...backendUser, preferences: { currency: 'EUR', notifications: { sms: true } } })
        ?.preferences,
    ).toMatchObject({
      currency: 'EUR',
      theme: 'dark',
      notifications: { sms: true, email: true },
    });
  });

  it('tracks the two-factor step', () => {
    useSession.getState().requireTwoFactor('SECRET');
    expect(useSession.getState()).toMatchObject({ isTwoFactorRequired: true, twoFactorSecret: 'SECRET' });
    useSession.getState().clearTwoFactor();
    expect(useSession.getState()).toMatchObject({ isTwoFactorRequired: false, twoFactorSecret: null });
  });

  it('ends a session by clearing the token, the user and all browser storage', () => {
    useSession.getState().setSession({ user: backendUser, token: 'tok', refreshToken: 'ref' });
    window.localStorage.setItem('theme', 'light');
    window.sessionStorage.setItem('anything', '1');
    endSession();
    expect(useSession.getState()).toMatchObject({
      user: null,
      token: null,
      refreshToken: null,
      isAuthenticated: false,
    });
    expect(window.localStorage.length).toBe(0);
    expect(window.sessionStorage.length).toBe(0);
  });
});
