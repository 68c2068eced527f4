import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app';
import {
  createBot,
  createPaperAccount,
  postStrategy,
  sendSignal,
  startTestAlertWorker,
  waitForAlert,
} from '../support/engine';
import { bearer, registerUser, type Session } from '../support/users';

/**
 * Issue 19: a futures account holds one position per symbol. A bot whose signal would open into a position a
 * manual trade holds on the same account is left out (its outcome says why): the two would net into one
 * position and refuse each other's reduce-only exits.
 */
let t: TestApp;
let alice: Session;
let worker: ReturnType<typeof startTestAlertWorker>;

beforeAll(async () => {
  t = await createTestApp();
  alice = await registerUser(t.app);
  worker = startTestAlertWorker(t, 'one-position');
});
afterAll(async () => {
  await worker?.stop();
  await t?.close();
});

describe('one position per futures symbol', () => {
  it("leaves a bot's entry out when a manual trade holds the symbol on its futures account", async () => {
    const account = await createPaperAccount(t.app, alice, { nickname: 'Futures', marketType: 'future' });
    const manual = await t.app.inject({
      method: 'POST',
      url: '/api/trades',
      headers: bearer(alice.apiToken),
      payload: { accountId: account.id, symbol: 'BTC/USDT', side: 'long', amount: '0.002' },
    });
    expect(manual.statusCode, manual.body).toBe(201);
    const strategy = await postStrategy(t.app, alice, {
      nickname: 'BTC',
      tradeCurrency: 'BTC',
      timeFrame: '1h',
    });
    expect(strategy.statusCode, strategy.body).toBe(201);
    const keys = strategy.json().results as { id: string; strategyKey: string; webhookSecret: string };
    const bot = await createBot(t.app, alice, {
      nickname: 'Follower',
      strategyId: keys.id,
      tradingAccountId: account.id,
      fixedAmount: '100',
      leveragePercent: '100',
      isActive: true,
    });

    const { alertId } = await sendSignal(t.app, keys, { action: 'long' });
    await waitForAlert(t, alertId);
    const { rows } = await t.db.pool.query('SELECT status, message FROM alert_outcomes WHERE alert_id = $1', [
      alertId,
    ]);
    expect(rows).toEqual([
      {
        status: 'skipped',
        message: expect.stringMatching(
          /^Nothing to do: this futures account already holds BTC\/USDT for another trade/,
        ),
      },
    ]);
    const held = await t.db.pool.query(
      `SELECT count(*)::int AS n FROM trades WHERE trading_account_id = $1 AND status IN ('open', 'closing')`,
      [account.id],
    );
    expect(held.rows[0].n).toBe(1);
    expect(bot.id).toBeDefined();
  });
});
