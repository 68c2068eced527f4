import { afterAll, beforeAll, expect, it } from 'vitest';
import { Decimal } from '../../src/exchange/decimal';
import { ScriptedMarket } from '../fakes/scripted-market';
import { createPaperAccount } from '../support/engine';
import { registerUser, type Session } from '../support/users';
import { asUser, eventually, startTradesApp, type TradesApp } from '../support/trades-app';

/**
 * Issue 19: a leveraged paper long the price falls through its liquidation price is closed by the venue at the
 * mark price, and Kairos books it as the trade's exit with that fill, closed for "liquidation" — found by
 * reconciliation's sweep (the venue's position gone, its fill of an order the venue flags a liquidation; the
 * position's resting stop cancelled by the venue, as Binance does). The account never goes below zero: a loss
 * beyond the wallet is the venue's.
 */
let t: TradesApp;
let alice: Session;
const market = new ScriptedMarket(() => Date.now());

beforeAll(async () => {
  t = await startTradesApp({ monitor: true, paperVenueOptions: { market } });
  alice = await registerUser(t.app);
});
afterAll(() => t.close());

it('a 10× long the price falls through is liquidated by the venue and booked closed with that fill', async () => {
  const api = asUser(t.app, alice);
  const account = await createPaperAccount(t.app, alice, { nickname: 'Leveraged', marketType: 'future' });
  const venue = t.app.services.venues.paperVenue;
  await venue.setLeverage(account.id, 'BTC/USDT', 10);

  market.moveTo('65000');
  // 0.5 BTC (about 32,500 USDT) on 10,000 USDT at 10×: liquidated near 45,300; its stop is further down.
  const opened = await api.post('/api/trades', {
    accountId: account.id,
    symbol: 'BTC/USDT',
    side: 'long',
    amount: '0.5',
    takeProfits: [],
    stopLossPercent: 35,
  });
  expect(opened.status, JSON.stringify(opened.body)).toBe(201);
  const tradeId = opened.body.results.trade.id as string;
  const detail = async () => (await api.get(`/api/trades/${tradeId}`)).body.results;
  // Protected on the venue first: the stop rests there.
  await eventually(detail, (d) => d.protection?.where === 'venue');

  market.moveTo('44000');
  const closed = await eventually(detail, (d) => d.trade.status === 'closed', 15_000);
  const exit = closed.fills.filter((f: { side: string }) => f.side === 'sell');
  expect(exit).toEqual([expect.objectContaining({ price: '44000', amount: '0.5' })]);
  expect(closed.trade).toMatchObject({ exitPrice: '44000', quantity: '0.5', closeReason: 'liquidation' });
  expect(Number(closed.trade.pnl)).toBeLessThan(-10_000);

  const gateway = await t.app.services.venues.gateways.forAccount(
    (await t.app.services.repos.accounts.findById(account.id))!,
  );
  expect(await gateway.fetchPositions()).toEqual([]);
  const usdt = new Decimal((await gateway.fetchBalances())['USDT']!.total);
  expect(usdt.gte(0)).toBe(true);
  const exitOrder = await gateway.fetchOrder(
    closed.orders.find((o: { role: string }) => o.role === 'liquidation').venueOrderId,
    'BTC/USDT',
  );
  expect(exitOrder.clientOrderId).toMatch(/^liquidation-/);
});
