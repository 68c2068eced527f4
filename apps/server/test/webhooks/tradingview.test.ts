import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app';
import { postStrategy } from '../support/engine';
import { registerUser, type Session } from '../support/users';

let t: TestApp;
let admin: Session;

beforeAll(async () => {
  t = await createTestApp({ KAIROS_ADMIN_EMAIL: 'ops@example.com' });
  admin = await registerUser(t.app, 'ops@example.com');
});
afterAll(() => t.close());

describe('TradingView webhooks', () => {
  let strategy: { id: string; strategyKey: string; webhookSecret: string };
  beforeAll(async () => {
    strategy = (
      await postStrategy(t.app, admin, {
        nickname: 'Signals',
        tradeCurrency: 'ETH',
        timeFrame: '5m',
        maxLagSeconds: 60,
      })
    ).json().results;
  });

  const alertCount = async () =>
    Number(
      (await t.db.pool.query('SELECT count(*) FROM alerts WHERE strategy_id = $1', [strategy.id])).rows[0]
        .count,
    );

  it('queues an authenticated signal and ignores its duplicate with the same 200', async () => {
    const body = {
      strategyKey: strategy.strategyKey,
      secret: strategy.webhookSecret,
      action: 'buy',
      symbol: 'BINANCE:ETHUSDT',
      price: 2500.5,
      id: 'tv-1',
    };
    const first = await t.app.inject({ method: 'POST', url: '/webhooks/tradingview', payload: body });
    expect(first.statusCode).toBe(200);
    expect(first.json().results).toMatchObject({ status: 'queued', duplicate: false });
    const second = await t.app.inject({ method: 'POST', url: '/webhooks/tradingview', payload: body });
    expect(second.statusCode).toBe(200);
    expect(second.json().results).toMatchObject({ alertId: first.json().results.alertId, duplicate: true });

    const { rows } = await t.db.pool.query(
      'SELECT action, symbol, price, payload FROM alerts WHERE id = $1',
      [first.json().results.alertId],
    );
    expect(rows[0]).toMatchObject({ action: 'long', symbol: 'ETH/USDT' });
    expect(Number(rows[0].price)).toBe(2500.5);
    expect(JSON.stringify(rows[0].payload)).not.toContain(strategy.webhookSecret);
    const events = await t.db.pool.query('SELECT to_status, actor FROM alert_events WHERE alert_id = $1', [
      first.json().results.alertId,
    ]);
    expect(events.rows).toEqual([{ to_status: 'queued', actor: 'webhook' }]);
  });

  it("accepts TradingView's text/plain body on the strategy's own URL", async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/webhooks/${strategy.strategyKey}`,
      headers: { 'content-type': 'text/plain; charset=utf-8' },
      payload: JSON.stringify({ secret: strategy.webhookSecret, action: 'exit', id: 'tv-2' }),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().results.duplicate).toBe(false);
    const garbage = await t.app.inject({
      method: 'POST',
      url: `/webhooks/${strategy.strategyKey}`,
      headers: { 'content-type': 'text/plain' },
      payload: 'long now please',
    });
    expect(garbage.statusCode).toBe(400);
    expect(garbage.json()).toMatchObject({ success: false, error: 'MALFORMED_JSON' });
  });

  it('refuses a wrong secret or unknown strategy with 401 and records nothing', async () => {
    const before = await alertCount();
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/webhooks/tradingview',
      payload: { strategyKey: strategy.strategyKey, secret: 'guess', action: 'long' },
    });
    expect(wrong.statusCode).toBe(401);
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/webhooks/no-such-key',
      payload: { secret: strategy.webhookSecret, action: 'long' },
    });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().message).toBe(wrong.json().message);
    expect(await alertCount()).toBe(before);
  });

  it('refuses stale signals', async () => {
    const before = await alertCount();
    const stale = await t.app.inject({
      method: 'POST',
      url: '/webhooks/tradingview',
      payload: {
        strategyKey: strategy.strategyKey,
        secret: strategy.webhookSecret,
        action: 'long',
        timestamp: Date.now() - 5 * 60_000,
      },
    });
    expect(stale.statusCode).toBe(422);
    expect(stale.json()).toMatchObject({ error: 'STALE_SIGNAL' });
    const fresh = await t.app.inject({
      method: 'POST',
      url: '/webhooks/tradingview',
      payload: {
        strategyKey: strategy.strategyKey,
        secret: strategy.webhookSecret,
        action: 'short',
        timestamp: new Date().toISOString(),
      },
    });
    expect(fresh.statusCode).toBe(200);
    expect(await alertCount()).toBe(before + 1);
  });

  it('refuses a price too large to store, recording nothing', async () => {
    const before = await alertCount();
    for (const price of [1e308, '1' + '0'.repeat(30)]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/webhooks/tradingview',
        payload: { strategyKey: strategy.strategyKey, secret: strategy.webhookSecret, action: 'long', price },
      });
      expect(res.statusCode, String(price)).toBe(400);
      expect(res.json()).toMatchObject({ success: false, message: 'price must be a positive number' });
    }
    expect(await alertCount()).toBe(before);
  });

  it('refuses an unknown action', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/webhooks/tradingview',
      payload: { strategyKey: strategy.strategyKey, secret: strategy.webhookSecret, action: 'moon' },
    });
    expect(res.statusCode).toBe(400);
  });
});
