import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app';
import {
  createBot,
  createPaperAccount,
  sendSignal,
  startTestAlertWorker,
  waitForAlert,
} from '../support/engine';
import { registerUser, type Session } from '../support/users';
import { ADMIN_EMAIL, auditRows, call, createStrategy } from './admin-fixtures';

let t: TestApp;
let admin: Session;
let alice: Session;
let btc: { id: string; strategyKey: string; webhookSecret: string };
let eth: { id: string; strategyKey: string; webhookSecret: string };
type AlertName = 'succeeded' | 'queued' | 'toKill' | 'race' | 'failed' | 'inProgress' | 'eth';
/** alert ids by what the story did with them */
const alert = {} as Record<AlertName, string>;

const list = (query = '') => call(t, admin, 'GET', `/admin/alerts${query}`);
const detail = async (id: string) => (await call(t, admin, 'GET', `/admin/alerts/${id}`)).body.results;
const markDead = (id: string, reason?: string) =>
  call(t, admin, 'POST', `/admin/alerts/${id}/dead`, reason === undefined ? {} : { reason });
const resume = (id: string) => call(t, admin, 'POST', `/admin/alerts/${id}/resume`, {});

beforeAll(async () => {
  t = await createTestApp({ KAIROS_ADMIN_EMAIL: ADMIN_EMAIL });
  admin = await registerUser(t.app, ADMIN_EMAIL);
  alice = await registerUser(t.app);
  btc = await createStrategy(t, admin, { nickname: 'BTC swing', strategyKey: 'btc-swing' });
  eth = await createStrategy(t, admin, {
    nickname: 'ETH swing',
    tradeCurrency: 'ETH',
    strategyKey: 'eth-swing',
  });
  const account = await createPaperAccount(t.app, alice);
  await createBot(t.app, alice, {
    nickname: 'Alice BTC',
    strategyId: btc.id,
    tradingAccountId: account.id,
    fixedAmount: 500,
    isActive: true,
  });

  // One alert the worker runs to the end, then alerts left in the queue (no worker running).
  const worker = startTestAlertWorker(t);
  alert.succeeded = (
    await sendSignal(t.app, btc, { action: 'long', symbol: 'BTCUSDT', id: 'a-long' })
  ).alertId;
  await waitForAlert(t, alert.succeeded);
  await worker.stop();
  for (const name of ['queued', 'toKill', 'race', 'failed', 'inProgress'] as const)
    alert[name] = (await sendSignal(t.app, btc, { action: 'exit', id: `a-${name}` })).alertId;
  alert.eth = (await sendSignal(t.app, eth, { action: 'long', id: 'e-1' })).alertId;
  // Arranged states a worker leaves behind mid-way: a failed attempt, an alert being worked on.
  await t.db.pool.query(
    `UPDATE alerts SET status = 'failed', attempts = 5, last_error = 'venue timeout' WHERE id = $1`,
    [alert.failed],
  );
  await t.db.pool.query(
    `UPDATE alerts SET status = 'in_progress', attempts = 1, locked_by = 'w1', locked_until = now() + interval '1 hour'
     WHERE id = $1`,
    [alert.inProgress],
  );
});
afterAll(async () => {
  await t.close();
});

describe('the alert list', () => {
  it('pages newest first with the default page size of 25 and per-bot outcome counts', async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, total: 7, page: 1, pageSize: 25 });
    expect(res.body.results[0].id).toBe(alert.eth);
    const done = res.body.results.find((a: { id: string }) => a.id === alert.succeeded);
    expect(done).toMatchObject({
      strategyKey: 'btc-swing',
      action: 'long',
      symbol: 'BTC/USDT',
      status: 'succeeded',
      attempts: 1,
      maxAttempts: 5,
      lastError: null,
      deadReason: null,
      outcomes: { total: 1, opened: 1, failed: 0 },
      canMarkDead: false,
      canResume: false,
    });
    expect(done.finishedAt).not.toBeNull();
    const page2 = await list('?page=2&pageSize=3');
    expect(page2.body).toMatchObject({ total: 7, page: 2, pageSize: 3 });
    expect(page2.body.results).toHaveLength(3);
  });

  it('filters by status, strategy key and received time', async () => {
    expect((await list('?status=queued')).body.total).toBe(4);
    expect((await list('?status=failed')).body.results.map((a: { id: string }) => a.id)).toEqual([
      alert.failed,
    ]);
    expect((await list('?strategyKey=eth-swing')).body.results.map((a: { id: string }) => a.id)).toEqual([
      alert.eth,
    ]);
    const today = new Date().toISOString().slice(0, 10);
    expect((await list(`?from=${today}&to=${today}`)).body.total).toBe(7);
    expect((await list('?to=2020-01-01')).body.total).toBe(0);
    expect((await list(`?from=${new Date(Date.now() + 60_000).toISOString()}`)).body.total).toBe(0);
    const bad = await list('?status=lost');
    expect(bad.status).toBe(400);
  });
});

describe('the alert detail', () => {
  it('shows the payload without its secret, attempts, per-bot outcomes and the history', async () => {
    const d = await detail(alert.succeeded);
    expect(d.payload).toMatchObject({ action: 'long', symbol: 'BTCUSDT', id: 'a-long' });
    expect(JSON.stringify(d)).not.toContain(btc.webhookSecret);
    expect(d.payload.secret).toBeUndefined();
    expect(d.botOutcomes).toHaveLength(1);
    expect(d.botOutcomes[0]).toMatchObject({
      status: 'opened',
      userEmail: alice.email,
      botNickname: 'Alice BTC',
    });
    expect(d.history.map((h: { toStatus: string }) => h.toStatus)).toEqual([
      'queued',
      'in_progress',
      'succeeded',
    ]);
    expect(d.history[0].actor).toBe('webhook');
    expect(d.errors).toEqual([]);
  });

  it('answers 404 for an alert that does not exist', async () => {
    const res = await call(t, admin, 'GET', '/admin/alerts/00000000-0000-4000-8000-000000000000');
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Alert not found');
  });
});

describe('marking an alert dead', () => {
  it('moves a queued alert to dead with the reason, recorded with the admin as actor', async () => {
    const res = await markDead(alert.toKill, '  duplicate signal from a test chart ');
    expect(res.status).toBe(200);
    expect(res.body.results).toMatchObject({
      id: alert.toKill,
      status: 'dead',
      deadReason: 'duplicate signal from a test chart',
      canMarkDead: false,
      canResume: true,
    });
    const last = (await detail(alert.toKill)).history.at(-1);
    expect(last).toMatchObject({
      fromStatus: 'queued',
      toStatus: 'dead',
      actor: `admin:${admin.user.id}`,
      note: 'duplicate signal from a test chart',
    });
  });

  it('moves a failed alert to dead too', async () => {
    const res = await markDead(alert.failed, 'venue keeps timing out');
    expect(res.status).toBe(200);
    expect(res.body.results.status).toBe('dead');
  });

  it('needs a reason', async () => {
    const res = await markDead(alert.queued, '   ');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('A reason is required to mark an alert dead');
    expect((await markDead(alert.queued)).status).toBe(400);
  });

  it.each([
    ['succeeded', 'Cannot mark dead an alert that is succeeded', 'markDead_succeeded'],
    ['inProgress', 'Cannot mark dead an alert that is in progress', 'markDead_in_progress'],
    ['toKill', 'Cannot mark dead an alert that is dead', 'markDead_dead'],
  ] as const)('refuses a %s alert with 409 and says why', async (name, message, variant) => {
    const before = await detail(alert[name]);
    const res = await markDead(alert[name], 'no');
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      success: false,
      error: 'INVALID_ALERT_TRANSITION',
      message,
      params: { variant },
    });
    expect((await detail(alert[name])).history).toEqual(before.history);
  });

  it('lets exactly one of several simultaneous admins win the race', async () => {
    const results = await Promise.all(Array.from({ length: 5 }, () => markDead(alert.race, 'race')));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
    const history = (await detail(alert.race)).history;
    expect(history.filter((h: { toStatus: string }) => h.toStatus === 'dead')).toHaveLength(1);
  });
});

describe('resuming an alert', () => {
  it('refuses a queued, in-progress or succeeded alert with 409', async () => {
    for (const [name, status] of [
      ['queued', 'queued'],
      ['inProgress', 'in progress'],
      ['succeeded', 'succeeded'],
    ] as const) {
      const res = await resume(alert[name]);
      expect(res.status).toBe(409);
      expect(res.body.message).toBe(`Cannot resume an alert that is ${status}`);
    }
  });

  it('puts a dead alert back in the queue with its retries, due now, and a worker picks it up', async () => {
    const res = await resume(alert.failed);
    expect(res.status).toBe(200);
    expect(res.body.results).toMatchObject({
      status: 'queued',
      attempts: 0,
      deadReason: null,
      finishedAt: null,
    });
    expect(Date.parse(res.body.results.nextAttemptAt)).toBeLessThanOrEqual(Date.now());
    expect((await detail(alert.failed)).history.at(-1)).toMatchObject({
      fromStatus: 'dead',
      toStatus: 'queued',
      actor: `admin:${admin.user.id}`,
    });

    const worker = startTestAlertWorker(t, 'resume-worker');
    try {
      expect(await waitForAlert(t, alert.failed)).toBe('succeeded');
    } finally {
      await worker.stop();
    }
    const d = await detail(alert.failed);
    expect(d.attempts).toBe(1);
    expect(d.lastError).toBeNull();
    expect(d.history.map((h: { toStatus: string }) => h.toStatus).slice(-3)).toEqual([
      'queued',
      'in_progress',
      'succeeded',
    ]);
  });

  it('resumes a failed alert (attempts reset)', async () => {
    await t.db.pool.query(`UPDATE alerts SET status = 'failed', attempts = 5 WHERE id = $1`, [alert.race]);
    const res = await resume(alert.race);
    expect(res.status).toBe(200);
    expect(res.body.results).toMatchObject({ status: 'queued', attempts: 0 });
  });
});

describe('the audit log', () => {
  it('has a row for every admin move, the refused ones included', async () => {
    const dead = await auditRows(t, 'alert.mark_dead');
    expect(dead.filter((r) => r.outcome === 'ok')).toHaveLength(3);
    const refused = dead.filter((r) => r.outcome === 'error');
    expect(refused.map((r) => r.error)).toContain('Cannot mark dead an alert that is succeeded');
    expect(dead[0]).toMatchObject({
      actor: `admin:${admin.user.id}`,
      actor_id: admin.user.id,
      target: `alert:${alert.toKill}`,
      details: { reason: 'duplicate signal from a test chart', from: 'queued', to: 'dead' },
    });
    const resumed = await auditRows(t, 'alert.resume');
    expect(resumed.filter((r) => r.outcome === 'ok')).toHaveLength(2);
    expect(resumed.filter((r) => r.outcome === 'error')).toHaveLength(3);

    const api = await call(t, admin, 'GET', '/admin/audit?take=5');
    expect(api.status).toBe(200);
    expect(api.body).toMatchObject({ success: true, skip: 0, take: 5 });
    expect(api.body.total).toBeGreaterThanOrEqual(dead.length + resumed.length);
    expect(api.body.results[0]).toMatchObject({ action: 'alert.resume', actorEmail: ADMIN_EMAIL });
  });
});
