import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app';
import {
  createBot,
  createPaperAccount,
  sendSignal,
  startTestAlertWorker,
  waitForAlert,
} from '../support/engine';
import { bearer, registerUser, type Session } from '../support/users';

let t: TestApp;
let worker: ReturnType<typeof startTestAlertWorker>;
let alice: Session;
let strategy: { id: string; strategyKey: string; webhookSecret: string };

beforeAll(async () => {
  t = await createTestApp();
  worker = startTestAlertWorker(t);
  alice = await registerUser(t.app);
  strategy = (
    await t.app.inject({
      method: 'POST',
      url: '/api/strategies',
      headers: bearer(alice.apiToken),
      payload: { nickname: 'Goals', tradeCurrency: 'BTC', timeFrame: '1h' },
    })
  ).json().results;
});
afterAll(async () => {
  await worker.stop();
  await t.close();
});

/** A trade the bot closed earlier, with this realised profit. */
async function closedTrade(botId: string, accountId: string, profit: string, closedAt = 'now()') {
  await t.db.pool.query(
    `INSERT INTO trades (user_id, bot_id, trading_account_id, symbol, side, status, quantity, realised_pnl,
                         opened_at, closed_at)
     VALUES ($1, $2, $3, 'BTC/USDT', 'long', 'closed', '0.001', $4, ${closedAt} - interval '1 hour', ${closedAt})`,
    [alice.user.id, botId, accountId, profit],
  );
}

describe('the monthly goal', () => {
  it("stops new entries of a bot that reached it this month, and only that bot's", async () => {
    const account = await createPaperAccount(t.app, alice);
    const bot = (name: string, goal?: number) =>
      createBot(t.app, alice, {
        nickname: name,
        strategyId: strategy.id,
        tradingAccountId: account.id,
        fixedAmount: 100,
        isActive: true,
        ...(goal ? { monthlyGoalPercent: goal } : {}),
      });
    const reached = await bot('reached', 5);
    const short = await bot('not yet', 5);
    const lastMonth = await bot('last month', 5);
    const noGoal = await bot('no goal');
    await closedTrade(reached.id, account.id, '6');
    await closedTrade(short.id, account.id, '4');
    await closedTrade(lastMonth.id, account.id, '50', "date_trunc('month', now()) - interval '1 day'");
    await closedTrade(noGoal.id, account.id, '50');

    const { alertId } = await sendSignal(t.app, strategy, { action: 'long', id: 'goal-long' });
    expect(await waitForAlert(t, alertId)).toBe('succeeded');
    const { rows } = await t.db.pool.query(
      'SELECT bot_id, status, message FROM alert_outcomes WHERE alert_id = $1',
      [alertId],
    );
    const byBot = Object.fromEntries(rows.map((r) => [r.bot_id, r]));
    expect(byBot[reached.id]).toMatchObject({
      status: 'skipped',
      message: 'Nothing to do: monthly goal reached',
    });
    expect(byBot[short.id]).toMatchObject({ status: 'opened' });
    expect(byBot[lastMonth.id]).toMatchObject({ status: 'opened' });
    expect(byBot[noGoal.id]).toMatchObject({ status: 'opened' });
  });
});
