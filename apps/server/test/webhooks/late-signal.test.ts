import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedMarket } from '../fakes/scripted-market';
import { createBot, createPaperAccount, sendSignal, waitForAlert } from '../support/engine';
import { registerUser, type Session } from '../support/users';
import { asUser, startAlerts, startTradesApp, type TradesApp } from '../support/trades-app';

/**
 * A signal claimed past its strategy's max lag is not acted on (issue 20: "maxLagSeconds is checked only at
 * ingest, so a late signal still executes" — after a backlog or a worker outage a stale entry would buy at
 * today's price on yesterday's idea). It is recorded dead with why; an admin may resume it, knowingly; a
 * late exit still closes.
 */
const market = new ScriptedMarket(() => Date.now());
let t: TradesApp;
let alice: Session;
let botId: string;
let strategy: { id: string; strategyKey: string; webhookSecret: string };

beforeAll(async () => {
  market.moveTo('65000');
  t = await startTradesApp({ paperVenueOptions: { market } });
  alice = await registerUser(t.app);
  strategy = (
    await asUser(t.app, alice).post('/api/strategies', {
      nickname: 'Late',
      tradeCurrency: 'BTC',
      timeFrame: '1h',
      maxLagSeconds: 60,
    })
  ).body.results;
  const account = await createPaperAccount(t.app, alice, { marketType: 'spot' });
  botId = (
    await createBot(t.app, alice, {
      strategyId: strategy.id,
      tradingAccountId: account.id,
      fixedAmount: 650,
      isActive: true,
    })
  ).id;
});
afterAll(() => t.close());

/** A signal received while no worker ran, then left waiting `seconds` (a backlog, a worker outage). */
async function waitedSignal(body: Record<string, unknown>, seconds: number) {
  const { alertId } = await sendSignal(t.app, strategy, body);
  await t.db.pool.query(
    `UPDATE alerts SET received_at = received_at - make_interval(secs => $2) WHERE id = $1`,
    [alertId, seconds],
  );
  return alertId;
}

/** Runs the worker until `alertId` has ended. */
async function work(alertId: string) {
  const worker = startAlerts(t);
  try {
    return await waitForAlert(t as never, alertId);
  } finally {
    await worker.stop();
  }
}

const openTrades = async () =>
  (await asUser(t.app, alice).get(`/api/trades?bot_id=${botId}&status=open`)).body.results as {
    id: string;
  }[];

describe('a signal claimed past its strategy’s max lag', () => {
  it('is not acted on: dead, with why, and nothing sent to the venue', async () => {
    const alertId = await waitedSignal({ action: 'long', id: 'late-1' }, 300);
    expect(await work(alertId)).toBe('dead');
    const { rows } = await t.db.pool.query(`SELECT dead_reason FROM alerts WHERE id = $1`, [alertId]);
    expect(rows[0].dead_reason).toMatch(
      /^Too late: claimed 30\d s after the signal, past the strategy's max lag of 60 s/,
    );
    expect(await openTrades()).toEqual([]);
    expect(await t.app.services.repos.alerts.outcomes(alertId)).toEqual([]);
    const orders = await t.db.pool.query(`SELECT count(*)::int AS n FROM paper_orders`);
    expect(orders.rows[0].n).toBe(0);

    // An admin who resumes it (the console asks to confirm) has it acted on, late as it is.
    await t.app.services.admin.alerts.resume({ id: String(alice.user.id), email: alice.email }, alertId);
    expect(await work(alertId)).toBe('succeeded');
    expect(await openTrades()).toHaveLength(1);
  });

  it('still closes when it is an exit', async () => {
    const alertId = await waitedSignal({ action: 'exit', id: 'late-2' }, 300);
    expect(await work(alertId)).toBe('succeeded');
    expect(await openTrades()).toEqual([]);
  });

  it('runs as before when claimed in time', async () => {
    const alertId = await waitedSignal({ action: 'long', id: 'late-3' }, 30);
    expect(await work(alertId)).toBe('succeeded');
    expect(await openTrades()).toHaveLength(1);
  });
});
