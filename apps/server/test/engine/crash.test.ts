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
/** Bots of the exit and reversal rounds: enough that the worker can be caught with some of them done. */
const FEW = 40;
const FEW_ACCOUNTS = 4;

let t: TestApp;
let dataDir: string;
const workers: ServerProcess[] = [];
/** The worker left running by the previous test, if any (saves a start-up). */
let live: ServerProcess | undefined;

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

async function rows(sql: string, params: unknown[] = []) {
  return (await t.db.pool.query(sql, params)).rows;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Waits until `check` holds mid fan-out, then freezes the worker (SIGSTOP), lets whatever it had sent reach
 * the database and checks again: when it still holds, the worker is SIGKILLed right there (a worker dying
 * in that state is what the test is about); else it is let go on (SIGCONT) and watched again.
 */
async function killWhen<S>(
  worker: ServerProcess,
  state: () => Promise<S>,
  check: (s: S) => boolean,
  timeoutMs = 60_000,
): Promise<S> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (check(await state())) {
      worker.child.kill('SIGSTOP');
      await sleep(100);
      const frozen = await state();
      if (check(frozen)) {
        worker.child.kill('SIGKILL');
        await worker.exited;
        return frozen;
      }
      worker.child.kill('SIGCONT');
    }
    await sleep(5);
  }
  throw new Error(`the worker was never caught in the state wanted within ${timeoutMs} ms`);
}

/** A strategy with `FEW` bots on `accountCount` paper accounts of a user of its own. */
async function fewBots(name: string, accountCount: number, account: Record<string, unknown> = {}) {
  const admin = await registerUser(t.app, `crash-${name}@example.com`);
  const strategy = (
    await t.app.inject({
      method: 'POST',
      url: '/api/strategies',
      headers: bearer(admin.apiToken),
      payload: { nickname: `Crash ${name}`, tradeCurrency: 'ETH', timeFrame: '5m' },
    })
  ).json().results;
  const accounts = [];
  for (let i = 0; i < accountCount; i += 1)
    accounts.push(await createPaperAccount(t.app, admin, { nickname: `${name}-${i}`, ...account }));
  for (let i = 0; i < FEW; i += 1) {
    await createBot(t.app, admin, {
      nickname: `${name}-${i}`,
      strategyId: strategy.id,
      tradingAccountId: accounts[i % accountCount]!.id,
      fixedAmount: 20,
      isActive: true,
    });
  }
  return { strategy, accountIds: accounts.map((a) => a.id) };
}

/** Sends a long alert to the strategy and waits for a worker to open every bot's trade. */
async function allLong(strategy: { strategyKey: string; webhookSecret: string }, id: string) {
  const { alertId } = await sendSignal(t.app, strategy, { action: 'long', id });
  expect(await waitForAlert(t, alertId, ['succeeded', 'dead'], 60_000)).toBe('succeeded');
  expect(
    await count(`SELECT count(*) AS n FROM trades WHERE alert_id = $1 AND status = 'open'`, [alertId]),
  ).toBe(FEW);
  return alertId;
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

  const running = () =>
    live && live.child.exitCode === null && live.child.signalCode === null ? live : undefined;

  /**
   * Takes every bot of `strategy` long, sends `action`, and SIGKILLs the worker once a bot is caught between
   * its exit and its outcome (its long trade closed, the bot out, no outcome yet; `alsoCaught` narrows it)
   * while some trades are still open; then starts a new worker and waits for the alert to succeed.
   */
  async function killMidTurn(
    strategy: Awaited<ReturnType<typeof fewBots>>['strategy'],
    name: string,
    action: string,
    alsoCaught = '',
  ) {
    const worker = running() ?? startWorkerProcess();
    const longId = await allLong(strategy, `${name}-round-long`);
    const { alertId } = await sendSignal(t.app, strategy, { action, id: `${name}-round-${action}` });
    const atKill = await killWhen(
      worker,
      async () =>
        (
          await rows(
            `SELECT count(*) FILTER (WHERE t.status = 'closed')::int AS closed,
                    count(*) FILTER (WHERE t.status = 'closed' AND b.position = 'out' AND ao.bot_id IS NULL
                      ${alsoCaught})::int AS caught
             FROM trades t JOIN bots b ON b.id = t.bot_id
             LEFT JOIN alert_outcomes ao ON ao.alert_id = $1 AND ao.bot_id = t.bot_id
             WHERE t.alert_id = $2`,
            [alertId, longId],
          )
        )[0] as { closed: number; caught: number },
      (s) => s.caught > 0 && s.closed < FEW,
    );
    live = startWorkerProcess();
    expect(await waitForAlert(t, alertId, ['succeeded', 'dead'], 60_000)).toBe('succeeded');
    return { alertId, longId, atKill };
  }

  it("records 'closed' for a bot whose exit filled before the kill, and closes every trade once", async () => {
    const { strategy, accountIds } = await fewBots('exit', FEW_ACCOUNTS);
    // Killed with some trades closed, among them one whose bot is out but whose outcome is not written yet:
    // the retry finds that bot with nothing to do, and must still record its exit as done.
    const { alertId, longId, atKill } = await killMidTurn(strategy, 'exit', 'exit');
    expect(atKill.closed).toBeGreaterThan(0);
    expect(atKill.closed).toBeLessThan(FEW);

    // Every bot's outcome is 'closed' with its trade; one exit order per trade, each at the venue once.
    expect(
      await rows(
        `SELECT ao.status, ao.retryable, ao.trade_ids = jsonb_build_array(t.id::text) AS its_trade, count(*)::int AS n
         FROM alert_outcomes ao LEFT JOIN trades t ON t.bot_id = ao.bot_id AND t.alert_id = $2
         WHERE ao.alert_id = $1 GROUP BY 1, 2, 3`,
        [alertId, longId],
      ),
    ).toEqual([{ status: 'closed', retryable: false, its_trade: true, n: FEW }]);
    expect(
      await rows(
        `SELECT t.status, (SELECT count(*) FROM orders o WHERE o.trade_id = t.id AND o.role = 'exit')::int AS exits,
                (SELECT count(*) FROM orders o WHERE o.trade_id = t.id)::int AS orders, count(*)::int AS n
         FROM trades t WHERE t.strategy_id = $1 GROUP BY 1, 2, 3`,
        [strategy.id],
      ),
    ).toEqual([{ status: 'closed', exits: 1, orders: 2, n: FEW }]);
    expect(await count(`SELECT count(*) AS n FROM trades WHERE alert_id = $1`, [alertId])).toBe(0);
    expect(
      await count(`SELECT count(*) AS n FROM bots WHERE strategy_id = $1 AND position = 'out'`, [
        strategy.id,
      ]),
    ).toBe(FEW);
    expect(
      await count(`SELECT count(*) AS n FROM paper_orders WHERE account_id = ANY($1::uuid[])`, [accountIds]),
    ).toBe(2 * FEW);
  }, 180_000);

  it("records 'reversed' for a bot whose reversal was killed between its two legs", async () => {
    // One bot per futures account: bots sharing one would share the venue's one position in the symbol.
    const { strategy, accountIds } = await fewBots('reversal', FEW, { marketType: 'future' });
    // Killed with some bots reversed, among them one whose long trade is closed (the bot is out) while its
    // short is not opened yet: the retry sees a bot out to open a short, which is the rest of a reversal.
    const { alertId, longId, atKill } = await killMidTurn(
      strategy,
      'reversal',
      'short',
      'AND NOT EXISTS (SELECT 1 FROM trades s WHERE s.bot_id = t.bot_id AND s.alert_id = $1)',
    );
    expect(atKill.closed).toBeLessThan(FEW);

    // Every bot's outcome is 'reversed' with both its trades: the long closed by one exit order, the short
    // opened by one entry order; each order at the venue once.
    expect(
      await rows(
        `SELECT ao.status, ao.retryable, ao.trade_ids = jsonb_build_array(l.id::text, s.id::text) AS its_trades,
                count(*)::int AS n
         FROM alert_outcomes ao
         LEFT JOIN trades l ON l.bot_id = ao.bot_id AND l.alert_id = $2
         LEFT JOIN trades s ON s.bot_id = ao.bot_id AND s.alert_id = $1
         WHERE ao.alert_id = $1 GROUP BY 1, 2, 3`,
        [alertId, longId],
      ),
    ).toEqual([{ status: 'reversed', retryable: false, its_trades: true, n: FEW }]);
    expect(
      await rows(
        `SELECT t.side, t.status, array_agg(DISTINCT o.role) AS roles, count(o.id)::int AS orders,
                count(DISTINCT t.id)::int AS n
         FROM trades t JOIN orders o ON o.trade_id = t.id WHERE t.strategy_id = $1 GROUP BY 1, 2 ORDER BY 1`,
        [strategy.id],
      ),
    ).toEqual([
      { side: 'long', status: 'closed', roles: ['entry', 'exit'], orders: 2 * FEW, n: FEW },
      { side: 'short', status: 'open', roles: ['entry'], orders: FEW, n: FEW },
    ]);
    expect(
      await count(`SELECT count(*) AS n FROM bots WHERE strategy_id = $1 AND position = 'short'`, [
        strategy.id,
      ]),
    ).toBe(FEW);
    expect(
      await count(`SELECT count(*) AS n FROM paper_orders WHERE account_id = ANY($1::uuid[])`, [accountIds]),
    ).toBe(3 * FEW);
  }, 180_000);
});
