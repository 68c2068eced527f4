import type { AddressInfo } from 'node:net';
import { DEFAULT_USER_QUOTAS } from '@kairos/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, auditRows, call, createStrategy } from '../admin/admin-fixtures';
import { createTestApp, type TestApp } from '../support/app';
import { createPaperAccount } from '../support/engine';
import { bearer, registerUser, type Session } from '../support/users';

/**
 * Issue 20's quotas: a per-user request budget on the authenticated API (writes tighter than reads), caps on
 * what one user may hold (strategies, trading accounts, bots, open event streams) that the operator sets, and
 * forbidden admin attempts audited once per user, route and minute.
 */
let t: TestApp;
let admin: Session;

beforeAll(async () => {
  t = await createTestApp({ KAIROS_ADMIN_EMAIL: ADMIN_EMAIL }, { keepQuotas: true });
  admin = await registerUser(t.app, ADMIN_EMAIL);
});
afterAll(() => t.close());

describe('per-user request budget', () => {
  let budget: TestApp;
  beforeAll(async () => {
    budget = await createTestApp(
      { KAIROS_USER_READ_LIMIT: '8', KAIROS_USER_WRITE_LIMIT: '6' },
      { keepQuotas: true },
    );
  });
  afterAll(() => budget.close());

  it('answers 429 with Retry-After past a user’s reads, and leaves other users alone', async () => {
    const alice = await registerUser(budget.app);
    const bob = await registerUser(budget.app);
    for (let i = 0; i < 8; i += 1) expect((await call(budget, alice, 'GET', '/api/bots')).status).toBe(200);
    const res = await budget.app.inject({
      method: 'GET',
      url: '/api/bots',
      headers: { accept: 'application/json', ...bearer(alice.apiToken) },
    });
    expect(res.statusCode).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(res.json()).toMatchObject({
      success: false,
      error: 'RATE_LIMITED',
      params: { variant: 'userBudget' },
    });
    expect(res.json().message).toMatch(/Too many requests from your account/);
    expect((await call(budget, bob, 'GET', '/api/bots')).status).toBe(200);
  });

  it('gives writes a tighter budget of their own', async () => {
    const carol = await registerUser(budget.app);
    const writes = [];
    for (let i = 0; i < 7; i += 1)
      writes.push((await call(budget, carol, 'PUT', '/user/settings', { theme: 'dark' })).status);
    expect(writes.slice(0, 6).every((s) => s === 200)).toBe(true);
    expect(writes[6]).toBe(429);
    // Reads still have room.
    expect((await call(budget, carol, 'GET', '/api/bots')).status).toBe(200);
  });
});

const TIGHT = { maxStrategies: 2, maxTradingAccounts: 1, maxBots: 1, maxEventStreams: 1 };
const setCaps = (caps: Record<string, number>) => call(t, admin, 'PUT', '/admin/settings/quotas', caps);

describe('caps per user, set by the operator', () => {
  it('starts from generous defaults that the admin reads and sets', async () => {
    const read = await call(t, admin, 'GET', '/admin/settings/quotas');
    expect(read.status).toBe(200);
    expect(read.body.results).toEqual({
      maxStrategies: 50,
      maxTradingAccounts: 20,
      maxBots: 200,
      maxEventStreams: 10,
    });

    expect((await setCaps({ ...TIGHT, maxStrategies: 0 })).status).toBe(400);

    const set = await setCaps(TIGHT);
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.results).toEqual(TIGHT);
    expect((await call(t, admin, 'GET', '/admin/settings/quotas')).body.results).toEqual(TIGHT);
    expect((await auditRows(t, 'settings.quotas')).at(-1)).toMatchObject({ outcome: 'ok', details: TIGHT });
  });

  it('refuses a create past a cap with 409 QUOTA_REACHED, never a 500', async () => {
    await setCaps(TIGHT);
    const dave = await registerUser(t.app);
    const first = await createStrategy(t, dave, { nickname: 'One' });
    await createStrategy(t, dave, { nickname: 'Two' });
    const third = await call(t, dave, 'POST', '/api/strategies', {
      nickname: 'Three',
      tradeCurrency: 'BTC',
      timeFrame: '1h',
    });
    expect(third.status).toBe(409);
    expect(third.body).toEqual({
      success: false,
      error: 'QUOTA_REACHED',
      message: 'You have reached the limit of 2 strategies. Ask your administrator to raise it.',
      params: { variant: 'strategies', max: 2 },
    });

    const account = await createPaperAccount(t.app, dave);
    const secondAccount = await call(t, dave, 'POST', '/api/trading-accounts', {
      nickname: 'Paper 2',
      exchange: 'paper',
    });
    expect(secondAccount.status).toBe(409);
    expect(secondAccount.body.params).toEqual({ variant: 'tradingAccounts', max: 1 });

    const bot = { strategyId: first.id, tradingAccountId: account.id, fixedAmount: 50 };
    expect((await call(t, dave, 'POST', '/api/bots', { ...bot, nickname: 'a' })).status).toBe(201);
    const secondBot = await call(t, dave, 'POST', '/api/bots', { ...bot, nickname: 'b' });
    expect(secondBot.status).toBe(409);
    expect(secondBot.body.params).toEqual({ variant: 'bots', max: 1 });

    // The operator is not capped by the caps they set.
    await createStrategy(t, admin, { nickname: 'A1' });
    await createStrategy(t, admin, { nickname: 'A2' });
    await createStrategy(t, admin, { nickname: 'A3' });
  });

  it('caps the event streams a user holds open: a new one ends the oldest', async () => {
    await setCaps({ ...DEFAULT_USER_QUOTAS, maxEventStreams: 1 });
    const erin = await registerUser(t.app);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const first = await fetch(`${base}/api/events`, { headers: bearer(erin.apiToken) });
    expect(first.status).toBe(200);
    const firstBody = first.body!.getReader();
    // A reload, a new tab: the new page gets its stream and the old one ends (at most one open at once).
    const second = new AbortController();
    const next = await fetch(`${base}/api/events`, { signal: second.signal, headers: bearer(erin.apiToken) });
    expect(next.status).toBe(200);
    for (;;) {
      const { done } = await firstBody.read();
      if (done) break;
    }
    second.abort();
  });
});

describe('forbidden admin attempts', () => {
  it('are audited once per user, route and minute', async () => {
    const mallory = await registerUser(t.app);
    for (let i = 0; i < 3; i += 1) {
      expect(
        (await call(t, mallory, 'POST', '/admin/billing/monthly/process', { year: 2026, month: 1 })).status,
      ).toBe(403);
    }
    expect((await call(t, mallory, 'PUT', '/admin/settings/quotas', { maxBots: 5 })).status).toBe(403);
    // Written once the answer has gone (onResponse).
    const targets = async () =>
      (await auditRows(t, 'admin.forbidden'))
        .filter((r) => r.actor === `user:${mallory.user.id}`)
        .map((r) => r.target)
        .sort();
    await expect.poll(targets).toHaveLength(2);
    expect(await targets()).toEqual(['POST /admin/billing/monthly/process', 'PUT /admin/settings/quotas']);
  });
});
