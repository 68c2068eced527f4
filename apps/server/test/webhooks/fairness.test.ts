import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, createStrategy } from '../admin/admin-fixtures';
import { createTestApp, type TestApp } from '../support/app';
import { registerUser, type Session } from '../support/users';

/**
 * One user cannot starve everyone's signals (issue 20, the review's High finding): a flooded strategy's
 * alerts are rate limited once authenticated, its queue is capped, and the worker's claim lets strategies
 * take turns, so another strategy's alert is claimed next whatever the backlog ahead of it.
 */
let t: TestApp;
let owner: Session;
let mallory: Session;
const PER_MINUTE = 8;
const QUEUE_CAP = 20;

beforeAll(async () => {
  t = await createTestApp({
    KAIROS_ADMIN_EMAIL: ADMIN_EMAIL,
    KAIROS_WEBHOOK_LIMIT: String(PER_MINUTE),
    KAIROS_WEBHOOK_QUEUE_CAP: String(QUEUE_CAP),
    KAIROS_WEBHOOK_ADDRESS_LIMIT: '40',
  });
  owner = await registerUser(t.app, ADMIN_EMAIL);
  mallory = await registerUser(t.app);
});
afterAll(() => t.close());

let seq = 0;
const alert = (
  s: { strategyKey: string; webhookSecret: string },
  secret = s.webhookSecret,
  remoteAddress = '10.0.20.1',
) =>
  t.app.inject({
    method: 'POST',
    url: `/webhooks/${s.strategyKey}`,
    payload: { secret, action: 'long', id: `signal-${(seq += 1)}` },
    remoteAddress,
  });

/** Queued alerts written straight to the queue (a backlog no worker has touched yet). */
async function backlog(strategyId: string, strategyKey: string, n: number, receivedAt: Date) {
  await t.db.pool.query(
    `INSERT INTO alerts (strategy_id, strategy_key, dedupe_key, action, symbol, payload, received_at)
     SELECT $1, $2, 'backlog-' || i, 'long', 'BTC/USDT', '{}'::jsonb, $3::timestamptz + i * interval '1 ms'
     FROM generate_series(1, $4) AS i`,
    [strategyId, strategyKey, receivedAt, n],
  );
}

describe('webhook fairness', () => {
  it("answers 429 with Retry-After past a strategy's own per-minute limit, and only for that strategy", async () => {
    const flooded = await createStrategy(t, mallory, { nickname: 'flood' });
    const other = await createStrategy(t, owner, { nickname: 'canary' });
    // Wrong secrets do not count against the strategy: a stranger knowing its key cannot use it up.
    for (let i = 0; i < PER_MINUTE + 2; i += 1)
      expect((await alert(flooded, 'not-the-secret')).statusCode).toBe(401);
    for (let i = 0; i < PER_MINUTE; i += 1) expect((await alert(flooded)).statusCode).toBe(200);
    const refused = await alert(flooded);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ success: false, error: 'RATE_LIMITED' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect((await alert(other)).statusCode).toBe(200);
  });

  it('answers 429 to an address past its own per-minute limit, whatever the strategy', async () => {
    const target = await createStrategy(t, owner, { nickname: 'probed' });
    for (let i = 0; i < 40; i += 1)
      expect((await alert(target, 'guessing', '10.0.21.1')).statusCode).toBe(401);
    const refused = await alert(target, 'guessing', '10.0.21.1');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ success: false, error: 'RATE_LIMITED' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Its owner, from another address, is not held back.
    expect((await alert(target)).statusCode).toBe(200);
  });

  it('takes no more alerts for a strategy whose queue is full, and says when to come back', async () => {
    const full = await createStrategy(t, mallory, { nickname: 'backlogged' });
    await backlog(full.id, full.strategyKey, QUEUE_CAP, new Date());
    const res = await alert(full);
    expect(res.statusCode).toBe(429);
    expect(res.json()).toMatchObject({ success: false, error: 'RATE_LIMITED' });
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    const { rows } = await t.db.pool.query(
      `SELECT count(*)::int AS n FROM alerts WHERE strategy_id = $1 AND status = 'queued'`,
      [full.id],
    );
    expect(rows[0].n).toBe(QUEUE_CAP);
  });

  it("claims another strategy's alert next, however long the backlog that arrived before it", async () => {
    // The earlier tests' alerts out of the way: the queue holds this test's strategies only.
    await t.db.pool.query(`UPDATE alerts SET status = 'dead' WHERE status = 'queued'`);
    const flood = await createStrategy(t, mallory, { nickname: 'flood 2' });
    const canary = await createStrategy(t, owner, { nickname: 'canary 2' });
    const start = new Date(Date.now() - 60_000);
    await backlog(flood.id, flood.strategyKey, 50, start);
    const canaryAlert = await alert(canary);
    expect(canaryAlert.statusCode).toBe(200);

    const claimed = await t.app.services.repos.alerts.claim('fairness-worker', 2, 30);
    expect(claimed.map((a) => a.strategyId).sort()).toEqual([flood.id, canary.id].sort());
    expect(claimed.find((a) => a.strategyId === flood.id)!.dedupeKey).toBe('backlog-1'); // in order within it
    const next = await t.app.services.repos.alerts.claim('fairness-worker', 3, 30);
    expect(next.map((a) => a.dedupeKey)).toEqual(['backlog-2', 'backlog-3', 'backlog-4']);
  });
});
