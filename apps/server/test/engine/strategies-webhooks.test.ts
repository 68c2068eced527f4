import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app';
import { bearer, registerUser, type Session } from '../support/users';

let t: TestApp;
let admin: Session;
let alice: Session;
let bob: Session;

beforeAll(async () => {
  t = await createTestApp({ KAIROS_ADMIN_EMAIL: 'ops@example.com' });
  admin = await registerUser(t.app, 'ops@example.com');
  alice = await registerUser(t.app);
  bob = await registerUser(t.app);
});
afterAll(() => t.close());

const createStrategy = async (s: Session, body: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/api/strategies', headers: bearer(s.apiToken), payload: body });

describe('strategies', () => {
  it('offers admin strategies to everyone and keeps the webhook secret to the owner', async () => {
    const res = await createStrategy(admin, {
      nickname: 'BTC trend',
      tradeCurrency: 'btc',
      timeFrame: '1h',
      takeProfits: [
        { percent: 1, sizePercent: 50 },
        { percent: '2.5', sizePercent: '50' },
      ],
      stopLossPercent: 3,
    });
    expect(res.statusCode).toBe(201);
    const s = res.json().results;
    expect(s).toMatchObject({
      nickname: 'BTC trend',
      tradeCurrency: 'BTC',
      stableCoin: 'USDT',
      isPublic: true,
      isOwner: true,
    });
    expect(s.takeProfits).toEqual([
      { role: 'tp1', percent: '1', sizePercent: '50' },
      { role: 'tp2', percent: '2.5', sizePercent: '50' },
    ]);
    expect(s.webhookSecret.length).toBeGreaterThanOrEqual(24);
    expect(s.webhookUrl).toMatch(new RegExp(`/webhooks/${s.strategyKey}$`));

    const seenByAlice = (
      await t.app.inject({ method: 'GET', url: '/api/strategies', headers: bearer(alice.apiToken) })
    ).json().results;
    const shared = seenByAlice.find((x: { id: string }) => x.id === s.id);
    expect(shared).toMatchObject({ isPublic: true, isOwner: false });
    expect(shared).not.toHaveProperty('webhookSecret');
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/strategies/${s.id}`,
      headers: bearer(alice.apiToken),
      payload: { nickname: 'mine now' },
    });
    expect(put.statusCode).toBe(403);
  });

  it("keeps a user's own strategies private", async () => {
    const res = await createStrategy(alice, {
      nickname: 'Alice ETH',
      strategyKey: 'alice-eth',
      tradeCurrency: 'ETH',
      timeFrame: '15m',
    });
    expect(res.statusCode).toBe(201);
    const id = res.json().results.id;
    expect(res.json().results.isPublic).toBe(false);
    const bobList = (
      await t.app.inject({ method: 'GET', url: '/api/strategies', headers: bearer(bob.apiToken) })
    ).json().results;
    expect(bobList.map((x: { id: string }) => x.id)).not.toContain(id);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/strategies/${id}`, headers: bearer(bob.apiToken) }))
        .statusCode,
    ).toBe(404);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/strategies/${id}`, headers: bearer(bob.apiToken) }))
        .statusCode,
    ).toBe(404);
    const dup = await createStrategy(bob, {
      nickname: 'copy',
      strategyKey: 'alice-eth',
      tradeCurrency: 'ETH',
      timeFrame: '15m',
    });
    expect(dup.statusCode).toBe(409);
  });

  it('rotates the webhook secret on request', async () => {
    const s = (
      await createStrategy(alice, { nickname: 'Rotate me', tradeCurrency: 'SOL', timeFrame: '4h' })
    ).json().results;
    const rotated = await t.app.inject({
      method: 'PUT',
      url: `/api/strategies/${s.id}`,
      headers: bearer(alice.apiToken),
      payload: { rotateWebhookSecret: true },
    });
    expect(rotated.statusCode).toBe(200);
    expect(rotated.json().results.webhookSecret).not.toBe(s.webhookSecret);
    const old = await t.app.inject({
      method: 'POST',
      url: '/webhooks/tradingview',
      payload: { strategyKey: s.strategyKey, secret: s.webhookSecret, action: 'long' },
    });
    expect(old.statusCode).toBe(401);
  });

  it('validates input with clear messages', async () => {
    const res = await createStrategy(alice, { nickname: '', tradeCurrency: 'BTC', timeFrame: '7m' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('This field is required');
    const tooMuch = await createStrategy(alice, {
      nickname: 'x',
      tradeCurrency: 'BTC',
      timeFrame: '1h',
      takeProfits: [
        { percent: 1, sizePercent: 80 },
        { percent: 2, sizePercent: 30 },
      ],
    });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().message).toBe('Take-profit sizes add up to more than 100%');
  });

  it('refuses a figure too large to store, and stores a tiny one as typed, written out', async () => {
    const s = (
      await createStrategy(alice, { nickname: 'Bounds', tradeCurrency: 'BTC', timeFrame: '1h' })
    ).json().results;
    const update = (payload: object) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/strategies/${s.id}`,
        headers: bearer(alice.apiToken),
        payload,
      });
    for (const stopLossPercent of [1e308, 1e21, '1' + '0'.repeat(24)]) {
      const res = await update({ stopLossPercent });
      expect(res.statusCode, String(stopLossPercent)).toBe(400);
      expect(res.json().message).toBe('Please enter a valid amount');
    }
    const tiny = await update({ stopLossPercent: 1e-7, takeProfits: [{ percent: 2.5e-3, sizePercent: 50 }] });
    expect(tiny.statusCode).toBe(200);
    expect(Number(tiny.json().results.stopLossPercent)).toBe(1e-7);
    expect(Number(tiny.json().results.takeProfits[0].percent)).toBe(0.0025);
  });
});

describe('TradingView webhooks', () => {
  let strategy: { id: string; strategyKey: string; webhookSecret: string };
  beforeAll(async () => {
    strategy = (
      await createStrategy(admin, {
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

describe('bots and their accounts', () => {
  it('toggles a bot without touching its other settings, and counts bots per account', async () => {
    const { createBot, createPaperAccount } = await import('../support/engine');
    const strategy = (
      await createStrategy(alice, { nickname: 'Toggle', tradeCurrency: 'BTC', timeFrame: '1h' })
    ).json().results;
    const account = await createPaperAccount(t.app, alice, { nickname: 'Toggle account' });
    const bot = await createBot(t.app, alice, {
      nickname: 'Keeper',
      strategy_id: strategy.id,
      trading_account_id: account.id,
      portfolio_percent: 10,
      monthly_goal_percent: 5,
    });
    const on = await t.app.inject({
      method: 'PUT',
      url: `/api/bots/${bot.id}`,
      headers: bearer(alice.apiToken),
      payload: { is_active: true },
    });
    expect(on.statusCode).toBe(200);
    expect(on.json().results).toMatchObject({
      nickname: 'Keeper',
      isActive: true,
      leveragePercent: '100',
      monthlyGoalPercent: '5',
    });
    const renamed = await t.app.inject({
      method: 'PUT',
      url: `/api/bots/${bot.id}`,
      headers: bearer(alice.apiToken),
      payload: { nickname: 'Renamed' },
    });
    expect(renamed.json().results).toMatchObject({ nickname: 'Renamed', isActive: true });
    const accounts = (
      await t.app.inject({ method: 'GET', url: '/api/trading-accounts', headers: bearer(alice.apiToken) })
    ).json().results;
    expect(accounts.find((a: { id: string }) => a.id === account.id).botCount).toBe(1);
  });

  it('keeps one active bot per pair on a futures account, and any number on a spot account', async () => {
    const { createPaperAccount } = await import('../support/engine');
    const strategy = (
      await createStrategy(bob, { nickname: 'One position', tradeCurrency: 'BTC', timeFrame: '1h' })
    ).json().results;
    const futures = await createPaperAccount(t.app, bob, { nickname: 'Bob futures', marketType: 'future' });
    const spot = await createPaperAccount(t.app, bob, { nickname: 'Bob spot' });
    const botOn = (account: { id: string }, nickname: string, extra: Record<string, unknown> = {}) =>
      t.app.inject({
        method: 'POST',
        url: '/api/bots',
        headers: bearer(bob.apiToken),
        payload: {
          nickname,
          strategyId: strategy.id,
          tradingAccountId: account.id,
          fixedAmount: 20,
          ...extra,
        },
      });
    const call = (method: 'POST' | 'PUT', url: string, payload: object = {}) =>
      t.app.inject({ method, url, headers: bearer(bob.apiToken), payload });
    const taken = {
      success: false,
      error: 'FUTURES_PAIR_TAKEN',
      message:
        'The bot "First" already trades BTC/USDT on this futures account, which holds one position per symbol: stop it first or use another account',
      params: { bot: 'First', pair: 'BTC/USDT' },
    };

    expect((await botOn(futures, 'First', { isActive: true })).statusCode).toBe(201);
    const second = await botOn(futures, 'Second', { isActive: true });
    expect(second.statusCode).toBe(409);
    expect(second.json()).toEqual(taken);

    // Saved paused it is accepted, but it cannot be switched on, by either door.
    const paused = (await botOn(futures, 'Second')).json().results;
    expect((await call('POST', `/bots/${paused.id}/start`)).json()).toEqual(taken);
    expect((await call('PUT', `/api/bots/${paused.id}`, { is_active: true })).json()).toEqual(taken);
    // Another pair on the same account is free; an active bot moved onto the taken pair is not.
    const eth = await botOn(futures, 'Ether', { isActive: true, tradeCurrency: 'ETH' });
    expect(eth.statusCode).toBe(201);
    expect(
      (await call('PUT', `/api/bots/${eth.json().results.id}`, { tradeCurrency: 'BTC' })).statusCode,
    ).toBe(409);

    const bots = (
      await t.app.inject({ method: 'GET', url: '/api/bots', headers: bearer(bob.apiToken) })
    ).json().results;
    const byName = (name: string) => bots.find((b: { nickname: string }) => b.nickname === name);
    expect(byName('Second').isActive).toBe(false);
    expect(byName('Ether').tradeCurrency).toBe('ETH');

    // Paused but still holding its position, the first keeps the pair; once out, the second may start.
    const first = byName('First');
    expect((await call('POST', `/bots/${first.id}/stop`, { closePosition: false })).statusCode).toBe(200);
    await t.db.pool.query(`UPDATE bots SET position = 'long' WHERE id = $1`, [first.id]);
    expect((await call('POST', `/bots/${paused.id}/start`)).json()).toEqual(taken);
    await t.db.pool.query(`UPDATE bots SET position = 'out' WHERE id = $1`, [first.id]);
    const started = await call('POST', `/bots/${paused.id}/start`);
    expect(started.statusCode).toBe(200);
    expect(started.json().results.isActive).toBe(true);

    // A spot account has no position to share: two active bots on one pair are fine.
    expect((await botOn(spot, 'Spot one', { isActive: true })).statusCode).toBe(201);
    expect((await botOn(spot, 'Spot two', { isActive: true })).statusCode).toBe(201);
  });

  it('refuses a paper starting balance out of range, and connects nothing', async () => {
    const list = async () =>
      (
        await t.app.inject({ method: 'GET', url: '/api/trading-accounts', headers: bearer(bob.apiToken) })
      ).json().results.length;
    const before = await list();
    for (const startingBalance of [1e13, '1' + '0'.repeat(30), 0, '-5']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/trading-accounts',
        headers: bearer(bob.apiToken),
        payload: { nickname: 'Too rich', exchange: 'paper', startingBalance },
      });
      expect(res.statusCode, String(startingBalance)).toBe(400);
      expect(res.json().message).toBe('Starting balance must be between 0 and 1,000,000,000,000');
    }
    expect(await list()).toBe(before);
  });
});
