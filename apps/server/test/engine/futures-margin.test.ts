import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi } from '../security/world';
import { createTestApp, type TestApp } from '../support/app';
import {
  createBot,
  createPaperAccount,
  sendSignal,
  startTestAlertWorker,
  waitForAlert,
} from '../support/engine';
import { registerUser, type Session } from '../support/users';
import { BinanceTestServer } from '../fakes/binance-server';
import { OkxTestServer } from '../fakes/okx-server';

/**
 * A futures bot trades at its own leverage and margin mode, whatever the account was left at (issue 17):
 * both are set on the symbol before its first entry. Binance keeps 20× (cross) until told otherwise: a 3×
 * bot sized for 3× but run at 20× is liquidated after about a 5 % move instead of about 33 %.
 */
const KEYS = { apiKey: 'marginKey00000000000000001', secret: 'margin-secret' };

let venue: BinanceTestServer;
let t: TestApp;
let alice: Session;
let worker: ReturnType<typeof startTestAlertWorker>;

beforeAll(async () => {
  venue = await BinanceTestServer.start({
    accounts: [{ ...KEYS, balances: { USDT: '1000' }, futuresWallet: '10000' }],
  });
  t = await createTestApp({}, { venueUrls: venue.venueUrls() });
  alice = await registerUser(t.app);
  worker = startTestAlertWorker(t, 'futures-margin');
});
afterAll(async () => {
  await worker?.stop();
  await t?.close();
  await venue?.close();
});

async function strategy(name: string, tradeCurrency = 'BTC') {
  const res = await callApi(t, alice, 'POST', '/api/strategies', {
    nickname: name,
    tradeCurrency,
    timeFrame: '1h',
  });
  expect(res.status, res.body).toBe(201);
  return res.json().results as { id: string; strategyKey: string; webhookSecret: string };
}

describe('a futures bot on Binance USD-M', () => {
  it('sets 3× isolated on the symbol before its entry on an account left at 20× cross', async () => {
    const account = await callApi(t, alice, 'POST', '/api/trading-accounts', {
      nickname: 'Binance futures',
      exchange: 'binance',
      marketType: 'future',
      apiKey: KEYS.apiKey,
      apiSecret: KEYS.secret,
    });
    expect(account.status, account.body).toBe(201);
    expect(venue.futuresSettings(KEYS.apiKey, 'BTCUSDT')).toEqual({ leverage: 20, marginType: 'CROSSED' });

    const btc = await strategy('3x');
    const bot = await createBot(t.app, alice, {
      nickname: '3x bot',
      strategyId: btc.id,
      tradingAccountId: account.json().results.id,
      fixedAmount: 100,
      leveragePercent: 300,
      isActive: true,
    });
    expect(bot).toMatchObject({ marginMode: 'isolated', leveragePercent: '300' });
    const { alertId } = await sendSignal(t.app, btc, { action: 'long', id: 'margin-long' });
    expect(await waitForAlert(t, alertId)).toBe('succeeded');

    expect(venue.futuresSettings(KEYS.apiKey, 'BTCUSDT')).toEqual({ leverage: 3, marginType: 'ISOLATED' });
    const view = await callApi(t, alice, 'GET', `/api/bots/${bot.id}`);
    expect(view.json().results).toMatchObject({ position: 'long', isTrading: true });
    // Set before the entry: the leverage call precedes the first order on the venue.
    const paths = venue.requests.map((r) => `${r.method} ${r.path}`);
    expect(paths.indexOf('POST /fapi/v1/leverage')).toBeGreaterThan(-1);
    expect(paths.indexOf('POST /fapi/v1/leverage')).toBeLessThan(paths.indexOf('POST /fapi/v1/order'));
  });
});

describe('a futures bot on the paper venue', () => {
  it('trades at its leverage with isolated margin, and the position shows its liquidation price', async () => {
    const account = await createPaperAccount(t.app, alice, { marketType: 'future' });
    const btc = await strategy('paper 5x');
    await createBot(t.app, alice, {
      nickname: 'paper 5x',
      strategyId: btc.id,
      tradingAccountId: account.id,
      fixedAmount: 100,
      leveragePercent: 500,
      isActive: true,
    });
    const { alertId } = await sendSignal(t.app, btc, { action: 'long', id: 'paper-margin-long' });
    expect(await waitForAlert(t, alertId)).toBe('succeeded');
    const row = (await t.app.services.repos.accounts.findById(account.id))!;
    const gateway = await t.app.services.venues.gateways.forAccount(row);
    const [position] = await gateway.fetchPositions();
    expect(position).toMatchObject({ side: 'long', leverage: '5' });
    // Isolated at 5×: liquidated about 20 % − 0.4 % below the entry.
    const ratio = Number(position!.liquidationPrice) / Number(position!.entryPrice);
    expect(ratio).toBeCloseTo(0.804, 3);
    // The trade keeps the leverage it was opened at; closed, its PnL % on margin is its PnL % × 5 (issue 19).
    const trades = await callApi(t, alice, 'GET', `/api/trades?accountId=${account.id}`);
    const [trade] = trades.json().results as { id: string; leveragePercent: string }[];
    expect(trade!.leveragePercent).toBe('500');
    const closed = await callApi(t, alice, 'POST', `/api/trades/${trade!.id}/complete`, {});
    expect(closed.status, closed.body).toBe(200);
    const detail = (await callApi(t, alice, 'GET', `/api/trades/${trade!.id}`)).json().results.trade as {
      status: string;
      pnlPercent: string;
      pnlMarginPercent: string;
    };
    expect(detail.status).toBe('closed');
    expect(Number(detail.pnlMarginPercent)).toBeCloseTo(Number(detail.pnlPercent) * 5, 8);
  });
});

describe('a futures bot on OKX (margin mode given with each order)', () => {
  const OKX = { apiKey: 'okxMarginKey0001', secret: 'okx-margin-secret', passphrase: 'Margin-Pass-1' };
  let okx: OkxTestServer;
  let app: TestApp;
  let bob: Session;
  let okxWorker: ReturnType<typeof startTestAlertWorker>;

  beforeAll(async () => {
    okx = await OkxTestServer.start({ accounts: [{ ...OKX, balances: { USDT: '10000' } }] });
    app = await createTestApp({}, { venueUrls: okx.venueUrls() });
    bob = await registerUser(app.app);
    okxWorker = startTestAlertWorker(app, 'futures-margin-okx');
  });
  afterAll(async () => {
    await okxWorker?.stop();
    await app?.close();
    await okx?.close();
  });

  const orderEntries = () =>
    okx.requests
      .filter((r) => r.method === 'POST' && r.path === '/api/v5/trade/batch-orders')
      .flatMap((r) => JSON.parse(r.body) as Record<string, unknown>[]);

  it('sets 3× isolated with the leverage call, and sends its entry and its exit isolated', async () => {
    const account = await callApi(app, bob, 'POST', '/api/trading-accounts', {
      nickname: 'OKX swaps',
      exchange: 'okx',
      marketType: 'future',
      apiKey: OKX.apiKey,
      apiSecret: OKX.secret,
      passphrase: OKX.passphrase,
    });
    expect(account.status, account.body).toBe(201);
    const res = await callApi(app, bob, 'POST', '/api/strategies', {
      nickname: 'okx 3x',
      tradeCurrency: 'BTC',
      timeFrame: '1h',
    });
    const btc = res.json().results as { id: string; strategyKey: string; webhookSecret: string };
    await createBot(app.app, bob, {
      nickname: 'okx 3x',
      strategyId: btc.id,
      tradingAccountId: account.json().results.id,
      fixedAmount: 200,
      leveragePercent: 300,
      isActive: true,
    });
    const long = await sendSignal(app.app, btc, { action: 'long', id: 'okx-margin-long' });
    expect(await waitForAlert(app, long.alertId)).toBe('succeeded');
    const leverage = okx.requests.find((r) => r.path === '/api/v5/account/set-leverage');
    expect(JSON.parse(leverage!.body)).toMatchObject({ lever: 3, mgnMode: 'isolated' });
    expect(orderEntries().map((o) => o['tdMode'])).toEqual(['isolated']);

    const exit = await sendSignal(app.app, btc, { action: 'exit', id: 'okx-margin-exit' });
    expect(await waitForAlert(app, exit.alertId)).toBe('succeeded');
    expect(orderEntries().map((o) => [o['side'], o['tdMode']])).toEqual([
      ['buy', 'isolated'],
      ['sell', 'isolated'],
    ]);
  });
});
