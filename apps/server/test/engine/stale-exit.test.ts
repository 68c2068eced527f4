import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedMarket } from '../fakes/scripted-market';
import { createPaperAccount } from '../support/engine';
import { registerUser, type Session } from '../support/users';
import { startTradesApp, type TradesApp } from '../support/trades-app';

/**
 * The fan-out reads every bot's open trade once, before working through the bots: by a bot's turn its trade
 * may have ended (stop, take profit). An exit asked on that old copy exits nothing.
 */
let t: TradesApp;
let alice: Session;
const market = new ScriptedMarket(() => Date.now());

beforeAll(async () => {
  t = await startTradesApp({ paperVenueOptions: { market } });
  alice = await registerUser(t.app);
});
afterAll(async () => {
  await t.close();
});

describe('an exit on an old copy of a trade', () => {
  it('leaves a trade that ended meanwhile as it is, and places no order', async () => {
    const account = await createPaperAccount(t.app, alice);
    const row = (await t.app.services.repos.accounts.findById(account.id))!;
    const gateway = await t.app.services.venues.gateways.forAccount(row);
    const { supervisor } = t.app.services.engine;
    const opened = await supervisor.managedLifecycle.open(gateway, {
      userId: String(alice.user.id),
      botId: null,
      accountId: account.id,
      strategyId: null,
      alertId: null,
      symbol: 'BTC/USDT',
      side: 'long',
      clientOrderId: 'staleentry1',
      quantity: '0.01',
      plan: { takeProfits: [], stopLossPercent: null, breakEvenAfterTp1: false },
    });
    expect(opened.status).toBe('open');
    const stopped = await supervisor.closeTrade(opened.id, 'stalestop1', 'stop loss', 'stop');
    expect(stopped).toMatchObject({ status: 'closed', closeReason: 'stop loss' });

    const again = await supervisor.managedLifecycle.close(gateway, opened, 'staleexit1', 'signal exit');
    expect(again).toMatchObject({ id: opened.id, status: 'closed', closeReason: 'stop loss' });
    const { rows } = await t.db.pool.query(
      'SELECT client_order_id FROM orders WHERE trade_id = $1 ORDER BY created_at',
      [opened.id],
    );
    expect(rows.map((r) => r.client_order_id)).toEqual(['staleentry1', 'stalestop1']);
    expect((await gateway.fetchMyTrades('BTC/USDT')).map((f) => f.side)).toEqual(['buy', 'sell']);
  });
});
