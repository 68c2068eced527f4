import { beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../testing/fetch-mock';
import { ApiError, api, tradeApi, unwrapPage, unwrapResults } from './api-client';
import { setNavigator } from './navigation';
import { SESSION_STORAGE_KEYS, useSession } from './session-store';

const navigate = vi.fn();

beforeEach(() => {
  navigate.mockReset();
  setNavigator(navigate);
});

describe('API client (spec §7, §8)', () => {
  it('sends JSON and asks for JSON, without Authorization when there is no token', async () => {
    const { requests } = mockFetch();
    await api.post('/auth/login', { email: 'a@b.co', password: 'x' });
    expect(requests[0]).toMatchObject({
      url: '/auth/login',
      method: 'POST',
      body: { email: 'a@b.co', password: 'x' },
    });
    expect(requests[0]?.headers['content-type']).toBe('application/json');
    expect(requests[0]?.headers.accept).toBe('application/json');
    expect(requests[0]?.headers.authorization).toBeUndefined();
  });

  it('sends a JSON body with DELETE too, since the content type says JSON', async () => {
    const { requests } = mockFetch();
    await api.delete('/api/bots/b1');
    expect(requests[0]).toMatchObject({ method: 'DELETE', body: {} });
    expect(requests[0]?.headers['content-type']).toBe('application/json');
  });

  it('sends the Bearer token when one exists', async () => {
    const { requests } = mockFetch();
    useSession.getState().setToken('tok_123');
    await api.get('/api/bots');
    await tradeApi.put('/push-to-take-profit', { tradeId: 't1' });
    expect(requests.map((request) => request.headers.authorization)).toEqual([
      'Bearer tok_123',
      'Bearer tok_123',
    ]);
  });

  it('adds query parameters and skips the empty ones', async () => {
    const { requests } = mockFetch();
    await api.get('/admin/alerts', {
      params: { page: 2, pageSize: 25, status: undefined, strategyKey: '', active: false },
    });
    expect(requests[0]?.url).toBe('/admin/alerts?page=2&pageSize=25&active=false');
  });

  it.each([
    ['at the top level', { success: true, apiToken: 'tok_top' }, 'tok_top'],
    ['inside results', { success: true, results: { apiToken: 'tok_inner', user: {} } }, 'tok_inner'],
  ])('saves an apiToken found %s', async (_where, body, token) => {
    mockFetch(() => ({ body }));
    await api.post('/auth/verify-2fa', { email: 'a@b.co', code: '123456' });
    expect(useSession.getState().token).toBe(token);
    expect(window.localStorage.getItem(SESSION_STORAGE_KEYS.token)).toBe(token);
  });

  describe('on 401', () => {
    beforeEach(() => {
      useSession
        .getState()
        .setSession({ user: { id: '1', email: 'ada@example.com' }, token: 'tok', refreshToken: 'ref' });
      window.localStorage.setItem('theme', 'light');
      window.sessionStorage.setItem('draft', 'x');
      window.history.replaceState(null, '', '/bots?page=2');
    });

    it('raises the message, clears the session and all storage, and sends the user to Login', async () => {
      mockFetch(() => ({
        status: 401,
        body: { success: false, error: 'UNAUTHORIZED', message: 'Session expired' },
      }));
      const error = await api.get('/api/bots').catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ message: 'Session expired', status: 401 });
      expect(useSession.getState()).toMatchObject({
        token: null,
        user: null,
        refreshToken: null,
        isAuthenticated: false,
      });
      expect(window.localStorage.length).toBe(0);
      expect(window.sessionStorage.length).toBe(0);
      expect(navigate).toHaveBeenCalledWith('/login?redirect=%2Fbots%3Fpage%3D2');
    });

    it("falls back to the body's error, then to 'Unauthorized'", async () => {
      mockFetch(() => ({ status: 401, body: { error: 'TOKEN_REVOKED' } }));
      await expect(api.get('/api/bots')).rejects.toThrow('TOKEN_REVOKED');
      mockFetch(() => ({ status: 401 }));
      await expect(api.get('/api/bots')).rejects.toThrow('Unauthorized');
    });

    it('keeps the session when a typed password or code is refused (credentialCheck)', async () => {
      mockFetch(() => ({
        status: 401,
        body: { success: false, error: 'INVALID_2FA_CODE', message: 'Invalid 2FA code' },
      }));
      await expect(
        api.post('/auth/disable-2fa', { code: '000000' }, { credentialCheck: true }),
      ).rejects.toMatchObject({ message: 'Invalid 2FA code', status: 401, code: 'INVALID_2FA_CODE' });
      expect(useSession.getState().token).toBe('tok');
      expect(window.localStorage.getItem('theme')).toBe('light');
      expect(navigate).not.toHaveBeenCalled();
    });

    it('still ends a revoked session on a credential check', async () => {
      mockFetch(() => ({
        status: 401,
        body: {
          success: false,
          error: 'INVALID_TOKEN',
          message: 'Session expired or revoked. Please log in again.',
        },
      }));
      await expect(api.post('/auth/disable-2fa', {}, { credentialCheck: true })).rejects.toThrow(
        'Session expired or revoked',
      );
      expect(useSession.getState().token).toBeNull();
      expect(navigate).toHaveBeenCalledWith('/login?redirect=%2Fbots%3Fpage%3D2');
    });

    it('does not navigate when the user is already on Login', async () => {
      window.history.replaceState(null, '', '/login?redirect=%2Fbots');
      mockFetch(() => ({ status: 401, body: { message: 'Invalid email or password' } }));
      await expect(api.post('/auth/login', {})).rejects.toThrow('Invalid email or password');
      expect(navigate).not.toHaveBeenCalled();
    });
  });

  it("raises the body's message for other errors", async () => {
    mockFetch(() => ({
      status: 422,
      body: { success: false, error: 'DOMAIN_RULE', message: 'Allocation exceeds 100%' },
    }));
    await expect(api.post('/api/bots', {})).rejects.toMatchObject({
      message: 'Allocation exceeds 100%',
      status: 422,
      code: 'DOMAIN_RULE',
    });
  });

  it("raises 'HTTP error! status: {code}' when the body has no message", async () => {
    mockFetch(() => ({ status: 500, body: { success: false, error: 'INTERNAL' } }));
    await expect(api.get('/api/bots')).rejects.toThrow('HTTP error! status: 500');
    mockFetch(() => ({ status: 502 }));
    await expect(api.get('/api/bots')).rejects.toThrow('HTTP error! status: 502');
  });

  it('reads how long a rate limit lasts from Retry-After', async () => {
    mockFetch(() => ({
      status: 429,
      headers: { 'Retry-After': '840' },
      body: {
        success: false,
        error: 'TOO_MANY_REQUESTS',
        message: 'Too many failed attempts. Try again later.',
      },
    }));
    await expect(api.post('/auth/login', {})).rejects.toMatchObject({ status: 429, retryAfterSeconds: 840 });
  });

  it('keeps the session on errors other than 401', async () => {
    useSession.getState().setToken('tok');
    mockFetch(() => ({ status: 403, body: { message: 'Forbidden' } }));
    await expect(api.get('/admin/alerts')).rejects.toThrow('Forbidden');
    expect(useSession.getState().token).toBe('tok');
    expect(navigate).not.toHaveBeenCalled();
  });
});

describe('response envelopes (DESIGN §2)', () => {
  it('reads results and raises on success: false', () => {
    expect(unwrapResults({ success: true, results: [1, 2] })).toEqual([1, 2]);
    expect(() => unwrapResults({ success: false, results: null, message: 'Failed to load bots' })).toThrow(
      'Failed to load bots',
    );
    expect(unwrapResults({ plain: true })).toEqual({ plain: true });
  });

  it('reads paged lists with their totals', () => {
    expect(
      unwrapPage(
        { success: true, results: ['a'], total: 51, page: 2, pageSize: 50 },
        { page: 1, pageSize: 50 },
      ),
    ).toEqual({
      items: ['a'],
      total: 51,
      page: 2,
      pageSize: 50,
    });
  });
});
