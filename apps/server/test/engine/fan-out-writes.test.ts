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

/** Bots of alice's on the strategy, one per nickname, on one account. */
const botsOn = (accountId: string, nicknames: string[]) =>
  Promise.all(
    nicknames.map((nickname) =>
      createBot(t.app, alice, {
        nickname,
        strategyId: strategy.id,
        tradingAccountId: accountId,
        fixedAmount: 100,
      }),
    ),
  );

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
    await t.app.services.repos.botPositions.setMany([
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
    const bots = await botsOn(account.id, ['a', 'b']);
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

describe('trades, entries and venue answers written for many bots at once', () => {
  const plan = (botId: string, accountId: string) => ({
    userId: alice.user.id as string,
    botId,
    tradingAccountId: accountId,
    strategyId: strategy.id,
    alertId: null,
    symbol: 'BTC/USDT',
    side: 'long' as const,
    takeProfits: [{ role: 'tp1', percent: '2', sizePercent: '100' }],
    stopLossPercent: '5',
    breakEvenAfterTp1: true,
  });
  const entry = (accountId: string, clientOrderId: string) => ({
    userId: alice.user.id as string,
    tradingAccountId: accountId,
    clientOrderId,
    role: 'entry',
    symbol: 'BTC/USDT',
    side: 'buy' as const,
    type: 'market' as const,
    amount: '0.01',
    status: 'submitted' as const,
  });

  it('opens each bot its trade as alone: one already trading gets none, the others theirs', async () => {
    const account = await createPaperAccount(t.app, alice);
    const bots = await botsOn(account.id, ['holder', 'first', 'second']);
    await tradeOf(bots[0]!.id, account.id, 'open');
    const { trades } = t.app.services.repos;
    const opened = await Promise.all(
      bots.map((bot, i) =>
        trades.createTradeWithEntry(plan(bot.id, account.id), entry(account.id, `many-${i}`), 'relaxed'),
      ),
    );
    expect(opened[0]).toBeUndefined();
    // A bot deleted meanwhile fails alone too.
    const [gone, fresh] = await botsOn(account.id, ['gone', 'fresh']);
    await t.db.pool.query('DELETE FROM bots WHERE id = $1', [gone!.id]);
    const [lost, kept] = await Promise.allSettled([
      trades.createTradeWithEntry(plan(gone!.id, account.id), entry(account.id, 'many-gone'), 'relaxed'),
      trades.createTradeWithEntry(plan(fresh!.id, account.id), entry(account.id, 'many-fresh'), 'relaxed'),
    ]);
    expect(lost.status).toBe('rejected');
    expect(kept.status === 'fulfilled' && kept.value?.trade.botId).toBe(fresh!.id);
    for (const [i, made] of opened.slice(1).entries()) {
      expect(made!.trade).toMatchObject({ botId: bots[i + 1]!.id, status: 'open', stopLossPercent: '5' });
      expect(made!.order).toMatchObject({
        tradeId: made!.trade.id,
        clientOrderId: `many-${i + 1}`,
        status: 'submitted',
      });
    }
  });

  it('returns the rows as stored, and writes each answer only over the order its caller saw', async () => {
    const account = await createPaperAccount(t.app, alice);
    const bots = await botsOn(account.id, ['d', 'e']);
    const { trades } = t.app.services.repos;
    const [d, e] = await Promise.all(
      bots.map((bot, i) =>
        trades.createTradeWithEntry(plan(bot.id, account.id), entry(account.id, `rows-${i}`)),
      ),
    );
    expect(d!.trade).toEqual(await trades.findById(d!.trade.id));
    expect(d!.order).toEqual(await trades.findOrderById(d!.order.id));
    expect(d!.trade.takeProfits).toEqual([{ role: 'tp1', percent: '2', sizePercent: '100' }]);
    expect(d!.trade.openedAt).toBeInstanceOf(Date);

    const answer = (made: NonNullable<typeof d>, venueTradeId: string) =>
      trades.updateOrderWithFigures(
        made.order,
        {
          status: 'filled',
          venueOrderId: `v-${venueTradeId}`,
          filled: '0.01',
          average: '65000',
          price: null,
          lastError: null,
          lastErrorCode: null,
          lastErrorParams: null,
        },
        [
          {
            orderId: made.order.id,
            tradeId: made.trade.id,
            venueTradeId,
            price: '65000',
            amount: '0.01',
            fee: '0.65',
            feeCurrency: 'USDT',
            at: new Date(),
          },
        ],
        {
          quantity: '0.01',
          entryPrice: '65000',
          exitPrice: null,
          entryNotional: '650',
          commission: '0.65',
          realisedPnl: null,
          pnlPercent: null,
        },
      );
    // e's answer twice at once: the second was decided on the order as it was before the first.
    const [forD, forE, again] = await Promise.all([answer(d!, 'fd'), answer(e!, 'fe'), answer(e!, 'fe2')]);
    expect(forD).toMatchObject({
      order: { status: 'filled', filled: '0.01' },
      trade: { quantity: '0.01', entryPrice: '65000' },
    });
    expect(forE).toMatchObject({ order: { status: 'filled' }, trade: { commission: '0.65' } });
    expect(again).toBeUndefined();
    expect(await trades.findById(d!.trade.id)).toEqual(forD!.trade);
    expect((await trades.fillsOfTrade(d!.trade.id)).map((f) => f.venueTradeId)).toEqual(['fd']);
  });
});

describe('first stops written for many trades at once', () => {
  it('sets the stop of each open trade that has none, and leaves one set meanwhile or a closed trade alone', async () => {
    const account = await createPaperAccount(t.app, alice);
    const [a, b, c, d] = await botsOn(account.id, ['stop a', 'stop b', 'stop c', 'stop d']);
    const [fresh, other, userSet, ended] = await Promise.all([
      tradeOf(a!.id, account.id, 'open'),
      tradeOf(b!.id, account.id, 'open'),
      tradeOf(c!.id, account.id, 'open'),
      tradeOf(d!.id, account.id, 'closed'),
    ]);
    await t.db.pool.query(`UPDATE trades SET stop_loss_price = 59000 WHERE id = $1`, [userSet]);
    const repo = t.app.services.repos.trades;
    expect(
      await Promise.all([
        repo.setInitialStop(fresh, '58500'),
        repo.setInitialStop(other, '58400.5'),
        repo.setInitialStop(userSet, '58500'),
        repo.setInitialStop(ended, '58500'),
      ]),
    ).toEqual([true, true, false, false]);
    const { rows } = await t.db.pool.query(
      'SELECT id, stop_loss_price::float8 AS stop FROM trades WHERE id = ANY($1::uuid[])',
      [[fresh, other, userSet, ended]],
    );
    const stopOf = (id: string) => rows.find((r) => r.id === id)?.stop;
    expect([stopOf(fresh), stopOf(other), stopOf(userSet), stopOf(ended)]).toEqual([
      58500,
      58400.5,
      59000,
      null,
    ]);
  });
});
