import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app';
import { createBot, createPaperAccount } from '../support/engine';
import { bearer, registerUser, type Session } from '../support/users';

// Issue 17: a venue says which market types have a testnet or demo trading, and an account's testnet flag
// travels with its name in every answer that shows its figures (dashboard, portfolio, bots).

let t: TestApp;
let alice: Session;
let live: string;
let testnet: string;

const get = async (url: string, s: Session = alice) => {
  const res = await t.app.inject({ method: 'GET', url, headers: bearer(s.apiToken) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().results;
};

beforeAll(async () => {
  t = await createTestApp({ KAIROS_ADMIN_EMAIL: 'testnet-admin@example.com' });
  const admin = await registerUser(t.app, 'testnet-admin@example.com');
  alice = await registerUser(t.app);
  const strategy = (
    await t.app.inject({
      method: 'POST',
      url: '/api/strategies',
      headers: bearer(admin.apiToken),
      payload: { nickname: 'Testnet', tradeCurrency: 'BTC', timeFrame: '1h' },
    })
  ).json().results;
  live = (await createPaperAccount(t.app, alice, { nickname: 'Live' })).id;
  testnet = (await createPaperAccount(t.app, alice, { nickname: 'Practice', startingBalance: 500 })).id;
  // A real venue's testnet account needs that venue to check its keys; the flag is what is under test here.
  await t.db.pool.query('UPDATE trading_accounts SET sandbox = true WHERE id = $1', [testnet]);
  for (const [nickname, tradingAccountId] of [
    ['On live', live],
    ['On testnet', testnet],
  ]) {
    await createBot(t.app, alice, { nickname, strategyId: strategy.id, tradingAccountId, fixedAmount: 100 });
  }
});

afterAll(async () => {
  await t?.close();
});

describe('GET /market/exchanges', () => {
  type Venue = {
    id: string;
    marketTypes: string[];
    sandbox: boolean;
    sandboxMarketTypes: string[];
    sandboxKind: Record<string, string>;
  };
  const venue = (venues: Venue[], id: string) => {
    const found = venues.find((v) => v.id === id);
    if (!found) throw new Error(`${id} is not listed`);
    return found;
  };

  it('lists the market types with a testnet or demo trading, and which', async () => {
    const venues = (await get('/market/exchanges')) as Venue[];
    const pick = (id: string) => {
      const { sandbox, sandboxMarketTypes, sandboxKind } = venue(venues, id);
      return { sandbox, sandboxMarketTypes, sandboxKind };
    };
    // Binance: the spot testnet, and futures through demo trading (the futures testnet is retired for ccxt).
    expect(pick('binance')).toEqual({
      sandbox: true,
      sandboxMarketTypes: ['spot', 'future'],
      sandboxKind: { spot: 'testnet', future: 'demo' },
    });
    expect(pick('binanceusdm')).toEqual({
      sandbox: true,
      sandboxMarketTypes: ['future'],
      sandboxKind: { future: 'demo' },
    });
    expect(pick('bybit')).toEqual({
      sandbox: true,
      sandboxMarketTypes: ['spot', 'future'],
      sandboxKind: { spot: 'testnet', future: 'testnet' },
    });
    expect(pick('okx').sandboxKind).toEqual({ spot: 'testnet', future: 'testnet' });
    // None at all: the flag and the lists agree.
    expect(pick('paper')).toEqual({ sandbox: false, sandboxMarketTypes: [], sandboxKind: {} });
  });

  it('never lists a market type the venue does not offer', async () => {
    for (const v of (await get('/market/exchanges')) as Venue[]) {
      expect(
        v.sandboxMarketTypes.every((type) => v.marketTypes.includes(type)),
        v.id,
      ).toBe(true);
      expect(Object.keys(v.sandboxKind).sort(), v.id).toEqual([...v.sandboxMarketTypes].sort());
      expect(v.sandbox, v.id).toBe(v.sandboxMarketTypes.length > 0);
    }
  });
});

describe('the testnet flag beside an account’s figures', () => {
  it('is on the dashboard’s balances by account and capital by bot', async () => {
    const dashboard = await get('/api/dashboard?include=balanceByAccount,capitalByBot');
    const byAccount = Object.fromEntries(
      (dashboard.balanceByAccount as { nickname: string; sandbox: boolean }[]).map((a) => [
        a.nickname,
        a.sandbox,
      ]),
    );
    expect(byAccount).toEqual({ Live: false, Practice: true });
    const byBot = Object.fromEntries(
      (dashboard.capitalByBot as { nickname: string; sandbox: boolean }[]).map((b) => [
        b.nickname,
        b.sandbox,
      ]),
    );
    expect(byBot).toEqual({ 'On live': false, 'On testnet': true });
  });

  it('is on each account of a portfolio holding', async () => {
    const portfolio = await get('/portfolio');
    const usdt = (
      portfolio.holdings as { asset: string; accounts: { accountId: string; sandbox: boolean }[] }[]
    ).find((h) => h.asset === 'USDT');
    expect(usdt?.accounts.map((a) => [a.accountId, a.sandbox]).sort()).toEqual(
      [
        [live, false],
        [testnet, true],
      ].sort(),
    );
  });

  it('is on a bot’s trading account, in the list and alone', async () => {
    const bots = (await get('/api/bots')) as {
      id: string;
      nickname: string;
      tradingAccount: { sandbox: boolean };
    }[];
    expect(Object.fromEntries(bots.map((b) => [b.nickname, b.tradingAccount.sandbox]))).toEqual({
      'On live': false,
      'On testnet': true,
    });
    const onTestnet = bots.find((b) => b.nickname === 'On testnet')!;
    expect((await get(`/api/bots/${onTestnet.id}`)).tradingAccount).toMatchObject({
      id: testnet,
      nickname: 'Practice',
      sandbox: true,
    });
  });
});
