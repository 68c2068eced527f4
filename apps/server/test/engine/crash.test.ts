import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app';
import { createBot, createPaperAccount, sendSignal, waitForAlert } from '../support/engine';
import { spawnServer, type ServerProcess } from '../support/process';
import { bearer, registerUser } from '../support/users';

const BOTS = 200;
const ACCOUNTS = 20;

let t: TestApp;
let dataDir: string;
const workers: ServerProcess[] = [];

beforeAll(async () => {
  t = await createTestApp({ KAIROS_ADMIN_EMAIL: 'crash-admin@example.com' });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kairos-crash-'));
});
afterAll(async () => {
  for (const w of workers) w.child.kill('SIGKILL');
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** A real worker process on the test database, slowed to two bots at a time so it can be killed mid fan-out. */
function startWorkerProcess() {
  const w = spawnServer({
    KAIROS_ROLE: 'worker',
    DATABASE_URL: t.db.url,
    KAIROS_DATA_DIR: dataDir,
    KAIROS_ALERT_LEASE_SECONDS: '2',
    KAIROS_BOT_CONCURRENCY: '2',
    LOG_LEVEL: 'warn',
  });
  workers.push(w);
  return w;
}

async function count(sql: string, params: unknown[] = []): Promise<number> {
  return Number((await t.db.pool.query(sql, params)).rows[0].n);
}

describe('a worker killed mid fan-out', () => {
  it('leaves every bot with exactly one entry order once another worker takes over', async () => {
    const admin = await registerUser(t.app, 'crash-admin@example.com');
    const strategy = (
      await t.app.inject({
        method: 'POST',
        url: '/api/strategies',
        headers: bearer(admin.apiToken),
        payload: { nickname: 'Crash test', tradeCurrency: 'ETH', timeFrame: '5m' },
      })
    ).json().results;
    const accounts = [];
    for (let i = 0; i < ACCOUNTS; i += 1)
      accounts.push(await createPaperAccount(t.app, admin, { nickname: `P${i}` }));
    for (let i = 0; i < BOTS; i += 1) {
      await createBot(t.app, admin, {
        nickname: `bot-${i}`,
        strategyId: strategy.id,
        tradingAccountId: accounts[i % ACCOUNTS]!.id,
        fixedAmount: 20,
        isActive: true,
      });
    }

    const first = startWorkerProcess();
    const { alertId } = await sendSignal(t.app, strategy, { action: 'long', id: 'crash-1' });

    // Kill it once part of the fan-out has reached the venue.
    const deadline = Date.now() + 60_000;
    let placed = 0;
    while (Date.now() < deadline) {
      placed = await count(`SELECT count(*) AS n FROM orders WHERE role = 'entry'`);
      if (placed >= 10) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    first.child.kill('SIGKILL');
    await first.exited;
    const atKill = await count(`SELECT count(*) AS n FROM orders WHERE role = 'entry'`);
    expect(atKill).toBeGreaterThan(0);
    expect(atKill).toBeLessThan(BOTS);

    const second = startWorkerProcess();
    expect(await waitForAlert(t, alertId, ['succeeded', 'dead'], 60_000)).toBe('succeeded');
    second.child.kill('SIGTERM');
    await second.exited;

    // Exactly one entry order and one open trade per bot, in our books and on the venue.
    const states = (
      await t.db.pool.query(
        `SELECT status, error, close_reason, count(*)::int AS n FROM trades GROUP BY 1, 2, 3`,
      )
    ).rows;
    const orderStates = (
      await t.db.pool.query(
        `SELECT role, status, last_error, count(*)::int AS n FROM orders GROUP BY 1, 2, 3`,
      )
    ).rows;
    expect({ states, orderStates }).toEqual({
      states: [{ status: 'open', error: null, close_reason: null, n: BOTS }],
      orderStates: [{ role: 'entry', status: 'filled', last_error: null, n: BOTS }],
    });
    expect(await count(`SELECT count(*) AS n FROM orders WHERE role = 'entry'`)).toBe(BOTS);
    expect(await count(`SELECT count(DISTINCT bot_id) AS n FROM trades WHERE status = 'open'`)).toBe(BOTS);
    expect(await count(`SELECT count(*) AS n FROM trades`)).toBe(BOTS);
    expect(await count(`SELECT count(*) AS n FROM paper_orders`)).toBe(BOTS);
    expect(await count(`SELECT count(*) AS n FROM bots WHERE position = 'long'`)).toBe(BOTS);
    expect(
      await count(`SELECT count(*) AS n FROM alert_outcomes WHERE alert_id = $1 AND status = 'opened'`, [
        alertId,
      ]),
    ).toBe(BOTS);
    const history = (
      await t.db.pool.query('SELECT to_status, actor FROM alert_events WHERE alert_id = $1 ORDER BY at', [
        alertId,
      ])
    ).rows;
    expect(history.map((h) => h.to_status)).toEqual([
      'queued',
      'in_progress',
      'failed',
      'queued',
      'in_progress',
      'succeeded',
    ]);
    expect(history[2].actor).toBe('system');
  }, 180_000);
});
