import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app';
import { postStrategy } from '../support/engine';
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

describe('strategies', () => {
  it('offers admin strategies to everyone and keeps the webhook secret to the owner', async () => {
    const res = await postStrategy(t.app, admin, {
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
    const res = await postStrategy(t.app, alice, {
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
    const dup = await postStrategy(t.app, bob, {
      nickname: 'copy',
      strategyKey: 'alice-eth',
      tradeCurrency: 'ETH',
      timeFrame: '15m',
    });
    expect(dup.statusCode).toBe(409);
  });

  it('changes only what an update sends: a rename keeps the ladder, the status and the limits', async () => {
    const created = await postStrategy(t.app, alice, {
      nickname: 'Laddered',
      tradeCurrency: 'ETH',
      stableCoin: 'USDC',
      timeFrame: '4h',
      status: 'paused',
      takeProfits: [
        { percent: '2', sizePercent: '50' },
        { percent: '4', sizePercent: '50' },
      ],
      breakEvenAfterTp1: false,
      maxLagSeconds: 60,
      priceTolerancePercent: 0.5,
      stopLimitOffsetPercent: 1.5,
    });
    expect(created.statusCode, created.body).toBe(201);
    const before = created.json().results;
    const renamed = await t.app.inject({
      method: 'PUT',
      url: `/api/strategies/${before.id}`,
      headers: bearer(alice.apiToken),
      payload: { nickname: 'Renamed' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const after = renamed.json().results;
    expect(after).toMatchObject({
      nickname: 'Renamed',
      stableCoin: 'USDC',
      status: 'paused',
      takeProfits: before.takeProfits,
      breakEvenAfterTp1: false,
      maxLagSeconds: 60,
      priceTolerancePercent: 0.5,
      stopLimitOffsetPercent: 1.5,
    });
    expect(after.takeProfits).toHaveLength(2);
  });

  it('rotates the webhook secret on request', async () => {
    const s = (
      await postStrategy(t.app, alice, { nickname: 'Rotate me', tradeCurrency: 'SOL', timeFrame: '4h' })
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
    const res = await postStrategy(t.app, alice, { nickname: '', tradeCurrency: 'BTC', timeFrame: '7m' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('This field is required');
    const tooMuch = await postStrategy(t.app, alice, {
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
      await postStrategy(t.app, alice, { nickname: 'Bounds', tradeCurrency: 'BTC', timeFrame: '1h' })
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
