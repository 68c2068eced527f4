import { describe, expect, it } from 'vitest';
import { SESSION_STORAGE_KEYS, useSession } from '../../../lib/session-store';
import { mockFetch } from '../../../testing/fetch-mock';
import { NO_REFRESH_TOKEN, refreshSession } from './refresh-session';

const backendUser = {
  id: 7,
  email: 'grace.hopper@example.com',
  role: 'user',
  useTwoFa: true,
  accountStatus: 'active',
};

describe('refresh', () => {
  it("fails with 'No refresh token available' without a refresh token", async () => {
    const { fetchMock } = mockFetch();
    await expect(refreshSession()).rejects.toThrow(NO_REFRESH_TOKEN);
    expect(NO_REFRESH_TOKEN).toBe('No refresh token available');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('stores the new api token and the rotated refresh token', async () => {
    const { requests } = mockFetch(() => ({
      body: { success: true, results: { apiToken: 'tok_2', refreshToken: 'ref_2' } },
    }));
    useSession.getState().setSession({ user: backendUser, token: 'tok_1', refreshToken: 'ref_1' });
    await expect(refreshSession()).resolves.toBe('tok_2');
    expect(requests[0]).toMatchObject({ path: '/auth/refresh', body: { refreshToken: 'ref_1' } });
    expect(window.localStorage.getItem(SESSION_STORAGE_KEYS.refreshToken)).toBe('ref_2');
  });
});
