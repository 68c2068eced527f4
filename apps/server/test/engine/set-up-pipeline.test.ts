import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAlertProcessor } from '../../src/engine/alert-processor';
import { startAlertWorker } from '../../src/engine/alert-worker';
import {
  createBot,
  createPaperAccount,
  ladderStrategyBody,
  sendSignal,
  waitForAlert,
} from '../support/engine';
import { registerUser } from '../support/users';
import { asUser, startTradesApp, type TradesApp } from '../support/trades-app';

/**
 * Issue 18: a fan-out's set-ups (take-profit ladder, venue stop) start a group at a time as soon as a group's
 * entries are in, beside the later bots' entries — a position's protection on the venue waits for its group,
 * not for the whole fan-out. Here 24 futures bots, worked on 2 at a time, set up in groups of 6.
 */
const BOTS = 24;
const OPERATOR = 'operator@example.com';
let t: TradesApp;
let worker: ReturnType<typeof startAlertWorker>;
let strategy: { id: string; strategyKey: string; webhookSecret: string };

beforeAll(async () => {
  t = await startTradesApp({ env: { KAIROS_ADMIN_EMAIL: OPERATOR } });
  const { engine, repos, venues } = t.app.services;
  const processor = createAlertProcessor({
    alerts: repos.alerts,
    trades: repos.trades,
    botPositions: repos.botPositions,
    lifecycle: engine.supervisor.managedLifecycle,
    entries: { open: engine.supervisor.openWithStop, setUp: engine.supervisor.setUpAfterEntries },
    gateways: venues.gateways,
    log: t.app.log,
    botConcurrency: 2,
    setUpGroup: 6,
  });
  worker = startAlertWorker({
    pool: t.db.pool,
    alerts: repos.alerts,
    process: (alert) => processor.process(alert),
    log: t.app.log,
    options: { workerId: 'pipeline-test', leaseSeconds: 15, concurrency: 1, pollMs: 50 },
  });
  const owner = await registerUser(t.app, OPERATOR);
  strategy = (await asUser(t.app, owner).post('/api/strategies', ladderStrategyBody('Pipelined set-ups')))
    .body.results;
  const users = [owner, await registerUser(t.app), await registerUser(t.app)];
  for (let i = 0; i < BOTS; i += 1) {
    const user = users[i % users.length]!;
    const account = await createPaperAccount(t.app, user, { nickname: `p${i}`, marketType: 'future' });
    await createBot(t.app, user, {
      nickname: `bot ${i}`,
      strategyId: strategy.id,
      tradingAccountId: account.id,
      fixedAmount: 100,
      isActive: true,
    });
  }
}, 120_000);
afterAll(async () => {
  await worker.stop();
  await t.close();
});

describe('an alert over more bots than one set-up group', () => {
  it("sets up the first group's ladders and stops while later bots still enter, and every trade in the end", async () => {
    const { alertId } = await sendSignal(t.app, strategy, { action: 'long', ticker: 'BTCUSDT' });
    expect(await waitForAlert(t, alertId)).toBe('succeeded');

    const { rows } = await t.db.pool.query(
      `SELECT t.id,
              (SELECT count(*)::int FROM orders o WHERE o.trade_id = t.id AND o.role LIKE 'tp%'
                 AND o.status = 'open') AS tps,
              (SELECT count(*)::int FROM venue_stops s WHERE s.trade_id = t.id AND s.status = 'open') AS stops
         FROM trades t WHERE t.strategy_id = $1`,
      [strategy.id],
    );
    expect(rows).toHaveLength(BOTS);
    expect(rows.filter((r) => r.tps !== 2 || r.stops !== 1)).toEqual([]);

    // When the venue took them: the first take-profit and the first stop before the last entry.
    const { rows: at } = await t.db.pool.query(
      `SELECT (SELECT max(p.created_at) FROM orders o JOIN paper_orders p
                 ON p.account_id = o.trading_account_id AND p.client_order_id = o.client_order_id
               WHERE o.role = 'entry' AND o.trade_id IN (SELECT id FROM trades WHERE strategy_id = $1)) AS last_entry,
              (SELECT min(p.created_at) FROM orders o JOIN paper_orders p
                 ON p.account_id = o.trading_account_id AND p.client_order_id = o.client_order_id
               WHERE o.role LIKE 'tp%' AND o.trade_id IN (SELECT id FROM trades WHERE strategy_id = $1))
                AS first_tp,
              (SELECT min(ps.created_at) FROM venue_stops s JOIN paper_stops ps
                 ON ps.account_id = s.trading_account_id AND ps.client_order_id = s.client_order_id
               WHERE s.trade_id IN (SELECT id FROM trades WHERE strategy_id = $1)) AS first_stop`,
      [strategy.id],
    );
    const { last_entry, first_tp, first_stop } = at[0] as {
      last_entry: Date;
      first_tp: Date;
      first_stop: Date;
    };
    expect(first_tp.getTime()).toBeLessThan(last_entry.getTime());
    expect(first_stop.getTime()).toBeLessThan(last_entry.getTime());
  });
});
