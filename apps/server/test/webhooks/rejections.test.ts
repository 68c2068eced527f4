import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, call, createStrategy } from '../admin/admin-fixtures';
import { createTestApp, type TestApp } from '../support/app';
import { registerUser, type Session } from '../support/users';

/**
 * Issue 21: a misconfigured TradingView alert is not invisible. Every refused webhook is counted per strategy
 * key and reason for the alerts console — never its secret or its body.
 */
let t: TestApp;
let admin: Session;
let owner: Session;

beforeAll(async () => {
  t = await createTestApp({ KAIROS_ADMIN_EMAIL: ADMIN_EMAIL });
  admin = await registerUser(t.app, ADMIN_EMAIL);
  owner = await registerUser(t.app, 'tv-owner@example.com');
});
afterAll(() => t.close());

const post = (url: string, payload: unknown, contentType = 'application/json') =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': contentType },
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });

describe('refused webhooks', () => {
  it('are counted per strategy key and reason, with the strategy they name, and no secret kept', async () => {
    const strategy = await createStrategy(t, owner, { nickname: 'Misconfigured' });
    for (let i = 0; i < 3; i++) {
      const res = await post(`/webhooks/${strategy.strategyKey}`, {
        action: 'long',
        secret: 'not-the-secret-42',
      });
      expect(res.statusCode).toBe(401);
    }
    expect((await post('/webhooks/no-such-strategy', { action: 'long', secret: 'x' })).statusCode).toBe(401);
    expect((await post(`/webhooks/${strategy.strategyKey}`, '{not json', 'text/plain')).statusCode).toBe(400);
    // An accepted one is not a refusal.
    const ok = await post(`/webhooks/${strategy.strategyKey}`, {
      action: 'long',
      secret: strategy.webhookSecret,
    });
    expect(ok.statusCode).toBe(200);

    await t.app.services.webhookRejections.flush();
    const res = await call(t, admin, 'GET', '/admin/alerts/rejections?hours=1');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const rows = res.body.results as {
      strategyKey: string;
      reason: string;
      count: number;
      strategyNickname: string | null;
    }[];
    expect(rows).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          strategyKey: strategy.strategyKey,
          reason: 'INVALID_WEBHOOK_SECRET',
          count: 3,
          strategyNickname: 'Misconfigured',
          ownerEmail: 'tv-owner@example.com',
          lastAddress: expect.any(String),
        }),
        expect.objectContaining({
          strategyKey: 'no-such-strategy',
          reason: 'INVALID_WEBHOOK_SECRET',
          count: 1,
          strategyId: null,
        }),
        expect.objectContaining({ strategyKey: strategy.strategyKey, reason: 'MALFORMED_JSON', count: 1 }),
      ]),
    );
    expect(rows).toHaveLength(3);
    const stored = JSON.stringify((await t.db.pool.query('SELECT * FROM webhook_rejections')).rows);
    expect(stored).not.toContain('not-the-secret-42');
  });

  it('are for admins only', async () => {
    expect((await call(t, owner, 'GET', '/admin/alerts/rejections')).status).toBe(403);
    expect((await call(t, admin, 'GET', '/admin/alerts/rejections?hours=999')).status).toBe(400);
  });
});
