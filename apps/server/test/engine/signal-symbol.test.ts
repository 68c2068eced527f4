import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedMarket } from '../fakes/scripted-market';
import { createBot, createPaperAccount, sendSignal, waitForAlert } from '../support/engine';
import { registerUser, type Session } from '../support/users';
import { asUser, startAlerts, startTradesApp, type TradesApp } from '../support/trades-app';

/**
 * A bot following its strategy's pair trades the pair each alert names. While it holds BTC/USDT, a short
 * alert for ETHUSDT is not about its trade: the BTC long stays open (no exit, no reversal into ETH), and the
 * bot's outcome says why (issue 19: "a signal for another symbol closes the wrong trade").
 */
const market = new ScriptedMarket(() => Date.now());
let t: TradesApp;
let alerts: ReturnType<typeof startAlerts>;
let alice: Session;
let botId: string;
let strategy: { id: string; strategyKey: string; webhookSecret: string };

beforeAll(async () => {
  market.moveTo('65000');
  t = await startTradesApp({ paperVenueOptions: { market } });
  alerts = startAlerts(t);
  alice = await registerUser(t.app);
  strategy = (
    await asUser(t.app, alice).post('/api/strategies', {
      nickname: 'Majors',
      tradeCurrency: 'BTC',
      timeFrame: '1h',
    })
  ).body.results;
  const account = await createPaperAccount(t.app, alice, { marketType: 'future' });
  botId = (
    await createBot(t.app, alice, {
      strategyId: strategy.id,
      tradingAccountId: account.id,
      fixedAmount: 650,
      isActive: true,
    })
  ).id;
});
afterAll(async () => {
  await alerts.stop();
  await t.close();
});

describe('an alert for another symbol than the one a bot holds', () => {
  it('leaves the bot’s trade alone', async () => {
    const api = asUser(t.app, alice);
    const long = await sendSignal(t.app, strategy, { action: 'long', symbol: 'BTCUSDT', id: 'sym-1' });
    expect(await waitForAlert(t as never, long.alertId)).toBe('succeeded');
    const [btc] = (await api.get(`/api/trades?bot_id=${botId}&status=open`)).body.results;
    expect(btc).toMatchObject({ symbol: 'BTC/USDT', side: 'long' });

    const eth = await sendSignal(t.app, strategy, { action: 'short', symbol: 'ETHUSDT', id: 'sym-2' });
    expect(await waitForAlert(t as never, eth.alertId)).toBe('succeeded');
    const open = (await api.get(`/api/trades?bot_id=${botId}&status=open`)).body.results;
    expect(open.map((x: { id: string; symbol: string; side: string }) => [x.id, x.symbol, x.side])).toEqual([
      [btc.id, 'BTC/USDT', 'long'],
    ]);
    const outcomes = await t.app.services.repos.alerts.outcomes(eth.alertId);
    expect(outcomes.map((o) => [o.status, o.message])).toEqual([
      ['skipped', 'Nothing to do: the alert is for ETH/USDT, the bot holds BTC/USDT'],
    ]);
    expect((await api.get(`/api/bots/${botId}`)).body.results.position).toBe('long');

    // An exit for BTC still closes it.
    const exit = await sendSignal(t.app, strategy, { action: 'exit', symbol: 'BTCUSDT', id: 'sym-3' });
    expect(await waitForAlert(t as never, exit.alertId)).toBe('succeeded');
    expect((await api.get(`/api/trades?bot_id=${botId}&status=open`)).body.results).toEqual([]);
  });
});
