import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedMarket } from '../fakes/scripted-market';
import { createPaperAccount } from '../support/engine';
import { asUser, startTradesApp, type TradesApp } from '../support/trades-app';
import { registerUser } from '../support/users';

// Issue 21: one "Total equity (est.)" on the dashboard and on Portfolio, with "Available" beside it.

let t: TradesApp;
let api: ReturnType<typeof asUser>;
let spot: { id: string };
let second: { id: string };
const market = new ScriptedMarket(() => Date.now());

beforeAll(async () => {
  t = await startTradesApp({ paperVenueOptions: { market } });
  const alice = await registerUser(t.app);
  api = asUser(t.app, alice);
  spot = await createPaperAccount(t.app, alice, { nickname: 'Main' });
  second = await createPaperAccount(t.app, alice, { nickname: 'Second', startingBalance: '2500' });
  // A position in BTC (1,300 USDT of it at 65,000) and a resting buy holding 100 USDT: the USDT balance alone is no total.
  const bought = await api.post('/api/trades', {
    accountId: spot.id,
    symbol: 'BTC/USDT',
    side: 'long',
    amount: '0.02',
  });
  expect(bought.status, JSON.stringify(bought.body)).toBe(201);
  const resting = await api.post('/api/trades', {
    accountId: spot.id,
    symbol: 'BTC/USDT',
    side: 'long',
    amount: '0.01',
    price: '10000',
  });
  expect(resting.status, JSON.stringify(resting.body)).toBe(201);
});
afterAll(() => t.close());

const dashboardEquity = async (query = '') => {
  const res = await api.get(`/api/dashboard?include=equity,balanceByAccount${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.results;
};

describe('Total equity (est.)', () => {
  it('is the same figure on the dashboard and on Portfolio, every asset at its last price', async () => {
    const dashboard = await dashboardEquity();
    const portfolio = (await api.get('/portfolio')).body.results;
    expect(dashboard.equity.total).toBe(portfolio.totalValue);
    expect(dashboard.equity.available).toBe(portfolio.available);
    expect(dashboard.equity.unread).toBe(0);
    // 12,500 USDT went in; buying 0.02 BTC at 65,000 cost only its fees, whatever the coin it is held in.
    const total = Number(dashboard.equity.total);
    expect(total).toBeLessThan(12_500);
    expect(total).toBeGreaterThan(12_490);
  });

  it('sets "Available" beside it: the dollars free to spend, neither the coins bought nor what a resting order holds', async () => {
    const { equity, balanceByAccount } = await dashboardEquity();
    const available = Number(equity.available);
    // 12,500 − 1,300 spent on BTC − 100 held by the resting buy (and the fees).
    expect(available).toBeLessThan(11_100.01);
    expect(available).toBeGreaterThan(11_090);
    expect(Number(equity.total) - available).toBeGreaterThan(1_390);
    // The balance chart's accounts add up to something else again (the USDT each holds): not a total.
    const usdt = balanceByAccount.reduce((s: number, a: { balance: string }) => s + Number(a.balance), 0);
    expect(usdt).not.toBe(Number(equity.total));
  });

  it('follows the account filter, and a price move', async () => {
    const only = await dashboardEquity(`&accountId=${second.id}`);
    expect(only.equity).toEqual({ total: '2500.00', available: '2500.00', unread: 0 });
    const before = Number((await dashboardEquity(`&accountId=${spot.id}`)).equity.total);
    market.moveTo('75000');
    const after = Number((await dashboardEquity(`&accountId=${spot.id}`)).equity.total);
    // 0.02 BTC (less the fee taken in BTC) gained 10,000 each.
    expect(after - before).toBeGreaterThan(199);
    expect(after - before).toBeLessThan(200.01);
  });
});
