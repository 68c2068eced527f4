import { describe, expect, it } from 'vitest';
import { SESSION_STORAGE_KEYS, useSession } from '../../../lib/session-store';
import { mockFetch } from '../../../testing/fetch-mock';
import { logout } from './logout';

const backendUser = {
  id: 7,
  email: 'grace.hopper@example.com',
  role: 'user',
  useTwoFa: true,
  accountStatus: 'active',
};

describe('logout', () => {
  it('calls POST /auth/logout, then clears the session and all storage', async () => {
    const { requests } = mockFetch(() => ({ body: { success: true, results: null } }));
    useSession.getState().setSession({ user: backendUser, token: 'tok', refreshToken: 'ref' });
    window.sessionStorage.setItem('anything', '1');
    await logout();
    expect(requests.map((request) => `${request.method} ${request.path}`)).toEqual(['POST /auth/logout']);
    expect(requests[0]?.headers.authorization).toBe('Bearer tok');
    expect(useSession.getState().isAuthenticated).toBe(false);
    expect(window.localStorage.length + window.sessionStorage.length).toBe(0);
  });

  it('still logs out locally when the server cannot be reached', async () => {
    mockFetch(() => ({ status: 503 }));
    useSession.getState().setSession({ user: backendUser, token: 'tok' });
    await logout();
    expect(useSession.getState().token).toBeNull();
    expect(window.localStorage.getItem(SESSION_STORAGE_KEYS.token)).toBeNull();
  });
});
