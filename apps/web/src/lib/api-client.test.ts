import { beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../testing/fetch-mock';
import { ApiError, api, newIdempotencyKey, tradeApi, unwrapPage, unwrapResults } from './api-client';
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

describe('Idempotency-Key (issue 21)', () => {
  it('sends a key with every write, a new one per call, and none with a read', async () => {
    const { requests } = mockFetch();
    await api.post('/api/bots', { nickname: 'A' });
    await api.post('/api/bots', { nickname: 'A' });
    await api.put('/api/bots/b1', { isActive: true });
    await api.delete('/api/bots/b1');
    await tradeApi.put('/push-to-take-profit', { tradeId: 't1' });
    await api.get('/api/bots');
    const keys = requests.map((request) => request.headers['idempotency-key']);
    expect(keys.slice(0, 5).every((key) => /^[0-9a-f-]{36}$/.test(key ?? ''))).toBe(true);
    expect(new Set(keys.slice(0, 5)).size).toBe(5);
    expect(keys[5]).toBeUndefined();
  });

  it('uses the key the caller gives for its action', async () => {
    const { requests } = mockFetch();
    await api.post('/api/bots', { nickname: 'A' }, { idempotencyKey: 'action-1' });
    expect(requests[0]?.headers['idempotency-key']).toBe('action-1');
  });

  it('sends a write again with the same key when its answer was lost, or its first send still runs', async () => {
    vi.useFakeTimers();
    try {
      let calls = 0;
      const keys: string[] = [];
      vi.stubGlobal(
        'fetch',
        vi.fn(async (_url: string, init: RequestInit) => {
          keys.push((init.headers as Record<string, string>)['Idempotency-Key']!);
          calls += 1;
          if (calls === 1) throw new TypeError('Failed to fetch');
          if (calls === 2)
            return new Response(JSON.stringify({ success: false, error: 'IDEMPOTENCY_IN_FLIGHT' }), {
              status: 409,
            });
          return new Response(JSON.stringify({ success: true, results: { id: 'b1' } }), { status: 201 });
        }),
      );
      const created = api.post<{ results: { id: string } }>('/api/bots', { nickname: 'A' });
      await vi.runAllTimersAsync();
      await expect(created).resolves.toMatchObject({ results: { id: 'b1' } });
      expect(keys).toHaveLength(3);
      expect(new Set(keys).size).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('gives up after its resends, and never resends a read or a session call', async () => {
    vi.useFakeTimers();
    try {
      const fetchMock = vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      });
      vi.stubGlobal('fetch', fetchMock);
      const write = api.post('/api/bots', {}).catch((error: unknown) => error);
      await vi.runAllTimersAsync();
      expect(await write).toBeInstanceOf(TypeError);
      expect(fetchMock).toHaveBeenCalledTimes(3);
      fetchMock.mockClear();
      const read = api.get('/api/bots').catch((error: unknown) => error);
      const refresh = api.post('/auth/refresh', { refreshToken: 'r' }).catch((error: unknown) => error);
      await vi.runAllTimersAsync();
      expect(await read).toBeInstanceOf(TypeError);
      expect(await refresh).toBeInstanceOf(TypeError);
      expect(fetchMock).toHaveBeenCalledTimes(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('makes a UUID without crypto.randomUUID (a server on plain HTTP)', () => {
    const randomUUID = crypto.randomUUID;
    try {
      Object.defineProperty(crypto, 'randomUUID', { value: undefined, configurable: true });
      expect(newIdempotencyKey()).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
    } finally {
      Object.defineProperty(crypto, 'randomUUID', { value: randomUUID, configurable: true });
    }
  });
});
