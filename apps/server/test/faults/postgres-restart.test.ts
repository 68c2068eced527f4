import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startEmbeddedPostgres, type EmbeddedPostgres } from '../../src/db/embedded-postgres';
import { PAPER_LEDGER_LOCK_CLASS } from '../../src/exchange/paper/paper-ledger-pg';
import { spawnServer, waitForHealthy, type ServerProcess } from '../support/process';

/**
 * PostgreSQL restarted while alerts are being fanned out: the server process (API + worker, as
 * `npm start` runs it) stays up, reconnects, finishes every alert with each bot's entry placed exactly
 * once, keeps its live channels, and still stops cleanly. The cluster is this test's own, so it can be
 * stopped and started again on its port.
 */
const STRATEGIES = 2;
const BOTS_PER_STRATEGY = 15;
const BOTS = STRATEGIES * BOTS_PER_STRATEGY;
/** Longer than the one-second re-listen step, so reconnecting has to retry. */
const OUTAGE_MS = 1_500;

let tmp: string;
let cluster: EmbeddedPostgres;
let server: ServerProcess;
let pool: pg.Pool;
let port: number;

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kairos-pg-restart-'));
  fs.chmodSync(tmp, 0o755); // as root, PostgreSQL runs as `postgres` and must reach its data dir
  cluster = await startEmbeddedPostgres({ dataDir: path.join(tmp, 'pg') });
  pool = new pg.Pool({ connectionString: cluster.url, max: 2 });
  pool.on('error', () => {}); // the test's own idle connections die with the restart too
  port = await freePort();
  server = spawnServer({
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: cluster.url,
    KAIROS_DATA_DIR: path.join(tmp, 'data'),
    KAIROS_ROLE: 'all',
    KAIROS_ALERT_LEASE_SECONDS: '2',
    // One bot at a time per alert: the fan-out lasts long enough to restart the database under it.
    KAIROS_BOT_CONCURRENCY: '1',
    LOG_LEVEL: 'warn',
  });
  // Generous: a fresh cluster's migrations under two test files at once on 2 cores took over 30 s here.
  await waitForHealthy(port, 50_000);
}, 60_000);

afterAll(async () => {
  if (server?.child.exitCode === null) server.child.kill('SIGKILL');
  await pool?.end().catch(() => {});
  await cluster?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function api(method: string, url: string, token?: string, body?: unknown) {
  const res = await fetch(`http://127.0.0.1:${port}${url}`, {
    method,
    headers: {
      accept: 'application/json',
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${text}`);
  return JSON.parse(text).results;
}

/** A count, retried through the outage. */
async function count(sql: string, params: unknown[] = []): Promise<number> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return Number((await pool.query(sql, params)).rows[0].n);
    } catch (e) {
      if (attempt > 100) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) {
      throw new Error(`${what}: not within ${timeoutMs} ms\n${server.output().slice(-3000)}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

const settled = (ids: string[]) =>
  count(`SELECT count(*) AS n FROM alerts WHERE id = ANY($1::uuid[]) AND status IN ('succeeded', 'dead')`, [
    ids,
  ]);
const succeeded = (ids: string[]) =>
  count(`SELECT count(*) AS n FROM alerts WHERE id = ANY($1::uuid[]) AND status = 'succeeded'`, [ids]);

describe('PostgreSQL restarted mid-processing', () => {
  it('reconnects, finishes every alert with each entry placed once, and still stops cleanly', async () => {
    const password = 'correct-horse-battery-staple';
    await api('POST', '/auth/register', undefined, {
      email: 'restart@example.com',
      password,
      confirm_password: password,
    });
    // Registration opens no session (issue 20): log in.
    const { apiToken: token } = await api('POST', '/auth/login', undefined, {
      email: 'restart@example.com',
      password,
    });
    const accounts: { id: string }[] = [];
    for (let i = 0; i < 3; i += 1) {
      accounts.push(
        await api('POST', '/api/trading-accounts', token, { nickname: `P${i}`, exchange: 'paper' }),
      );
    }
    const strategies: { id: string; strategyKey: string; webhookSecret: string }[] = [];
    for (let s = 0; s < STRATEGIES; s += 1) {
      const strategy = await api('POST', '/api/strategies', token, {
        nickname: `S${s}`,
        tradeCurrency: 'ETH',
        timeFrame: '5m',
      });
      strategies.push(strategy);
      for (let b = 0; b < BOTS_PER_STRATEGY; b += 1) {
        await api('POST', '/api/bots', token, {
          nickname: `S${s} bot ${b}`,
          strategyId: strategy.id,
          tradingAccountId: accounts[b % accounts.length]!.id,
          fixedAmount: 20,
          isActive: true,
        });
      }
    }
    const signal = async (s: (typeof strategies)[number], action: string, id: string) =>
      (
        await api('POST', '/webhooks/tradingview', undefined, {
          strategyKey: s.strategyKey,
          secret: s.webhookSecret,
          action,
          id,
        })
      ).alertId as string;
    // The balance-refresh backlog goes in before the signals: long enough that one is still under way when the
    // database goes.
    await pool.query(
      `INSERT INTO pgboss.job (name, data) SELECT 'accounts.refresh-balances', '{}' FROM generate_series(1, 200)`,
    );
    const alertIds: string[] = [];
    for (const [i, s] of strategies.entries()) alertIds.push(await signal(s, 'long', `restart-${i}`));

    // Stop the database once part of the fan-out has reached the venue, with the worker running a minute job
    // (a backlog of balance refreshes, so one is under way as the database goes: its end is then written to a
    // database that is not there — pg-boss 10 left that rejection unhandled and the process exited, exit 1);
    // start it again on its port.
    const entries = () => count(`SELECT count(*) AS n FROM orders WHERE role = 'entry'`);
    await until('first entries', async () => (await entries()) >= 1, 30_000);
    // Then the fan-out is held where it is: a session of the test's own takes every paper account's ledger lock,
    // so the next entry waits inside its transaction when the database goes. Without it a quiet machine placed
    // all 30 entries before the stop (CI twice: 'expected 30 to be less than 30'). The session dies with the
    // database, and its locks with it.
    const holder = new pg.Client({ connectionString: cluster.url });
    holder.on('error', () => {});
    await holder.connect();
    for (const account of accounts)
      await holder.query('SELECT pg_advisory_lock($1, hashtext($2))', [PAPER_LEDGER_LOCK_CLASS, account.id]);
    await until(
      'a balance refresh running',
      async () =>
        (await count(
          `SELECT count(*) AS n FROM pgboss.job WHERE name = 'accounts.refresh-balances' AND state = 'active'`,
        )) > 0,
      10_000,
    );
    const clusterPort = cluster.port;
    await cluster.stop();
    await new Promise((r) => setTimeout(r, OUTAGE_MS));
    cluster = await startEmbeddedPostgres({ dataDir: path.join(tmp, 'pg'), port: clusterPort });
    expect(await entries()).toBeLessThan(BOTS);

    // The same process answers again and finishes the work: nothing lost, nothing twice.
    await waitForHealthy(port, 30_000);
    await until('every alert settled', async () => (await settled(alertIds)) === alertIds.length, 60_000);
    expect(server.child.exitCode).toBeNull();
    expect(await succeeded(alertIds)).toBe(STRATEGIES);
    expect(await entries()).toBe(BOTS);
    expect(await count(`SELECT count(DISTINCT client_order_id) AS n FROM orders`)).toBe(BOTS);
    expect(await count(`SELECT count(*) AS n FROM paper_orders`)).toBe(BOTS);
    expect(await count(`SELECT count(*) AS n FROM trades WHERE status = 'open'`)).toBe(BOTS);
    expect(await count(`SELECT count(*) AS n FROM bots WHERE position = 'long'`)).toBe(BOTS);
    expect(await count(`SELECT count(*) AS n FROM alert_outcomes WHERE status = 'opened'`)).toBe(BOTS);

    // It keeps working, live channels included: closing trades after the restart still reaches the
    // worker's trade-closed listener, which snapshots each account's balance.
    const exitSentAt = new Date();
    const exit = await signal(strategies[0]!, 'exit', 'after-restart');
    await until('the signal sent after the restart', async () => (await succeeded([exit])) === 1, 30_000);
    expect(
      await count(`SELECT count(*) AS n FROM bots WHERE strategy_id = $1 AND position = 'out'`, [
        strategies[0]!.id,
      ]),
    ).toBe(BOTS_PER_STRATEGY);
    await until(
      'balance snapshots after the closes',
      async () =>
        (await count(`SELECT count(DISTINCT trading_account_id) AS n FROM balance_snapshots WHERE at >= $1`, [
          exitSentAt,
        ])) === accounts.length,
      10_000,
    );
    expect(await api('GET', '/api/bots', token)).toHaveLength(BOTS);

    // And it stops as cleanly as ever: no connection lost in the restart is left holding the pool. A job the
    // queue is running at that moment gets its graceful 20 s (server.ts); a pool held by a lost connection
    // would never close. (Once, with two test files at once on 2 cores, the stop took 20.0 s; not reproduced
    // since — a job running that long is now logged with its queue, 'job still running', shown here if slow.)
    const stoppingAt = Date.now();
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    const stopMs = Date.now() - stoppingAt;
    expect(stopMs, `stopped in ${stopMs} ms\n${server.output().slice(-3000)}`).toBeLessThan(25_000);
  }, 120_000);
});
