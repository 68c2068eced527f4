import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app';
import { createBot, createPaperAccount, sendSignal } from '../support/engine';
import { bearer, registerUser, type Session } from '../support/users';

/** What the fan-out writes for many bots at once: their positions, then their outcomes. */
let t: TestApp;
let alice: Session;
let strategy: { id: string; strategyKey: string; webhookSecret: string };

beforeAll(async () => {
  t = await createTestApp();
  alice = await registerUser(t.app);
  strategy = (
    await t.app.inject({
      method: 'POST',
      url: '/api/strategies',
      headers: bearer(alice.apiToken),
      payload: { nickname: 'Writes', tradeCurrency: 'BTC', timeFrame: '1h' },
    })
  ).json().results;
});
afterAll(async () => {
  await t.close();
});

async function tradeOf(botId: string, accountId: string, status: 'open' | 'closed') {
  const { rows } = await t.db.pool.query(
    `INSERT INTO trades (user_id, bot_id, trading_account_id, symbol, side, status, closed_at)
     VALUES ($1, $2, $3, 'BTC/USDT', 'long', $4, CASE WHEN $4 = 'closed' THEN now() END) RETURNING id`,
    [alice.user.id, botId, accountId, status],
  );
  return rows[0].id as string;
}

const positionOf = async (botId: string) =>
  (await t.db.pool.query('SELECT position FROM bots WHERE id = $1', [botId])).rows[0].position;

describe('positions written for many bots at once', () => {
  it('takes a position only while its trade is open; one that ended meanwhile leaves the bot out', async () => {
    const account = await createPaperAccount(t.app, alice);
    const bot = (nickname: string) =>
      createBot(t.app, alice, {
        nickname,
        strategyId: strategy.id,
        tradingAccountId: account.id,
        fixedAmount: 100,
      });
    const [holding, ended, exited] = await Promise.all([bot('holding'), bot('ended'), bot('exited')]);
    const open = await tradeOf(holding.id, account.id, 'open');
    const closed = await tradeOf(ended.id, account.id, 'closed');
    await t.db.pool.query(`UPDATE bots SET position = 'long' WHERE id = $1`, [exited.id]);
    await t.app.services.repos.trades.setBotPositions([
      { botId: holding.id, position: 'long', tradeId: open },
      { botId: ended.id, position: 'long', tradeId: closed },
      { botId: exited.id, position: 'out', tradeId: null },
    ]);
    expect(await positionOf(holding.id)).toBe('long');
    expect(await positionOf(ended.id)).toBe('out');
    expect(await positionOf(exited.id)).toBe('out');
  });
});

describe('outcomes written for many bots at once', () => {
  it("keeps each bot's latest word", async () => {
    const account = await createPaperAccount(t.app, alice);
    const bots = await Promise.all(
      ['a', 'b'].map((nickname) =>
        createBot(t.app, alice, {
          nickname,
          strategyId: strategy.id,
          tradingAccountId: account.id,
          fixedAmount: 100,
        }),
      ),
    );
    const { alertId } = await sendSignal(t.app, strategy, { action: 'long', id: 'writes-1' });
    const outcome = (botId: string, status: 'failed' | 'opened', retryable: boolean) => ({
      alertId,
      botId,
      userId: String(alice.user.id),
      status,
      message: status,
      tradeIds: [],
      retryable,
    });
    const { alerts } = t.app.services.repos;
    await alerts.saveOutcomes(bots.map((b) => outcome(b.id, 'failed', true)));
    await alerts.saveOutcomes([outcome(bots[0]!.id, 'opened', false)]);
    const rows = (await alerts.outcomes(alertId)).sort((x, y) => x.message.localeCompare(y.message));
    expect(rows.map((r) => [r.botId, r.status, r.retryable])).toEqual([
      [bots[1]!.id, 'failed', true],
      [bots[0]!.id, 'opened', false],
    ]);
  });
});
