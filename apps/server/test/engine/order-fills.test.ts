import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExchangeGateway, Order } from '../../src/exchange/gateway';
import { ScriptedMarket } from '../fakes/scripted-market';
import { createPaperAccount } from '../support/engine';
import { registerUser, type Session } from '../support/users';
import { startTradesApp, type TradesApp } from '../support/trades-app';

/**
 * Fills that come with the venue's answer to an order (the paper venue, a Binance market order) are stored
 * at once, deduped by venue trade id with what a later trade list says, and spare that list when they are
 * all of the order's fills.
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

/** The account's paper gateway, with createOrder's answer trimmed by `answer` and trade-list calls counted. */
async function venueFor(answer: (order: Order) => Order = (order) => order) {
  const account = await createPaperAccount(t.app, alice, { startingBalance: 100000 });
  const row = (await t.app.services.repos.accounts.findById(account.id))!;
  const paper = await t.app.services.venues.gateways.forAccount(row);
  const calls = { tradeLists: 0 };
  const gateway: ExchangeGateway = Object.create(paper, {
    createOrder: {
      value: async (...args: Parameters<ExchangeGateway['createOrder']>) =>
        answer(await paper.createOrder(...args)),
    },
    fetchMyTrades: {
      value: async (...args: Parameters<ExchangeGateway['fetchMyTrades']>) => {
        calls.tradeLists += 1;
        return paper.fetchMyTrades(...args);
      },
    },
  });
  return { accountId: account.id, gateway, calls };
}

async function newEntry(accountId: string, clientOrderId: string, amount: string) {
  const created = await t.app.services.repos.trades.createTradeWithEntry(
    { userId: String(alice.user.id), tradingAccountId: accountId, symbol: 'BTC/USDT', side: 'long' },
    {
      userId: String(alice.user.id),
      tradingAccountId: accountId,
      clientOrderId,
      role: 'entry',
      symbol: 'BTC/USDT',
      side: 'buy',
      type: 'market',
      amount,
    },
  );
  return created!;
}

const storedFills = async (orderId: string) =>
  (
    await t.db.pool.query(
      'SELECT venue_trade_id, amount FROM fills WHERE order_id = $1 ORDER BY at, amount',
      [orderId],
    )
  ).rows.map((r) => [r.venue_trade_id as string, r.amount as string]);

describe('fills listed with an order', () => {
  it('stores all of them at once and asks the venue for no trade list', async () => {
    const { accountId, gateway, calls } = await venueFor();
    const { order } = await newEntry(accountId, 'fillsall1', '0.25');
    const placed = await t.app.services.engine.executor.place(gateway, order, true);
    expect(placed.order).toMatchObject({ status: 'filled', filled: '0.25' });
    expect(placed.fills?.map((f) => [f.price, f.amount])).toEqual([
      ['65000', '0.1'],
      ['65010', '0.15'],
    ]);
    expect(calls.tradeLists).toBe(0);
    const venueFills = await gateway.fetchMyTrades('BTC/USDT');
    expect(await storedFills(order.id)).toEqual(venueFills.map((f) => [f.venueTradeId, f.amount]));
  });

  it('keeps one row per venue trade when the trade list repeats what the answer listed', async () => {
    // The answer lists only the first fill: the rest comes from the trade list, which repeats the first.
    const { accountId, gateway, calls } = await venueFor((order) => ({
      ...order,
      fills: order.fills!.slice(0, 1),
    }));
    const { order } = await newEntry(accountId, 'fillssome1', '0.25');
    const placed = await t.app.services.engine.executor.place(gateway, order, true);
    expect(placed.fills).toBeUndefined();
    expect(calls.tradeLists).toBe(1);
    const venueFills = await gateway.fetchMyTrades('BTC/USDT');
    expect(venueFills).toHaveLength(2);
    expect(await storedFills(order.id)).toEqual(venueFills.map((f) => [f.venueTradeId, f.amount]));

    // The same news again (an event, a poll): nothing changes, nothing is stored twice.
    const again = await gateway.fetchOrderByClientId('fillssome1', 'BTC/USDT');
    await t.app.services.engine.executor.applyVenueOrder(gateway, placed.order, {
      ...again,
      fills: venueFills,
    });
    expect(await storedFills(order.id)).toEqual(venueFills.map((f) => [f.venueTradeId, f.amount]));
  });

  it('resumes an entry another run committed after the caller looked for it, and places it once', async () => {
    const { accountId, gateway } = await venueFor();
    const request = {
      userId: String(alice.user.id),
      botId: null,
      accountId,
      strategyId: null,
      alertId: null,
      symbol: 'BTC/USDT',
      side: 'long' as const,
      clientOrderId: 'fillsrace1',
      quantity: '0.01',
      plan: { takeProfits: [], stopLossPercent: null, breakEvenAfterTp1: false },
    };
    const { lifecycle } = t.app.services.engine;
    const first = await lifecycle.open(gateway, request);
    // The caller read "no such entry" before the first run committed it.
    const second = await lifecycle.open(gateway, { ...request, knownEntry: null });
    expect(second).toMatchObject({ id: first.id, status: 'open', quantity: '0.01' });
    const { rows } = await t.db.pool.query(
      'SELECT count(*)::int AS n FROM orders WHERE client_order_id = $1',
      ['fillsrace1'],
    );
    expect(rows[0].n).toBe(1);
    expect((await gateway.fetchMyTrades('BTC/USDT')).filter((f) => f.amount === '0.01')).toHaveLength(1);
  });

  it('computes the trade from those fills, equal to what the stored fills say', async () => {
    const { accountId, gateway } = await venueFor();
    const account = (await t.app.services.repos.accounts.findById(accountId))!;
    const trade = await t.app.services.engine.lifecycle.open(gateway, {
      userId: String(alice.user.id),
      botId: null,
      accountId: account.id,
      strategyId: null,
      alertId: null,
      symbol: 'BTC/USDT',
      side: 'long',
      clientOrderId: 'fillstrade1',
      quantity: '0.25',
      plan: { takeProfits: [], stopLossPercent: null, breakEvenAfterTp1: false },
    });
    const fromStored = await t.app.services.engine.lifecycle.refreshFigures(trade.id);
    expect(trade).toMatchObject({ status: 'open', quantity: '0.25' });
    expect(fromStored).toEqual(trade);
  });
});
