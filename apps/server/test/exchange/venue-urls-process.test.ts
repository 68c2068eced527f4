import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { freePort } from '../../src/db/embedded-postgres';
import { spawnServer, waitForHealthy, type ServerProcess } from '../support/process';
import { GOOD_PASSWORD, uniqueEmail } from '../support/users';
import { BinanceTestServer } from '../fakes/binance-server';

/**
 * Kairos as an operator runs it — `src/server.ts` in its own process, every role — with KAIROS_VENUE_URLS
 * sending binanceusdm to the Binance protocol server: a user connects a USDⓈ-M account, a bot trades a
 * ladder strategy from a TradingView webhook, and an exit signal closes it. Only the public API is used.
 */
const TRADER = { apiKey: 'processKey0000000000000001', secret: 'process-secret' };

let venue: BinanceTestServer;
let db: TestDatabase;
let dataDir: string;
let kairos: ServerProcess;
let base: string;
let token: string;

async function call(method: string, url: string, body?: unknown, auth = true) {
  const res = await fetch(base + url, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(auth ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, text };
}

async function eventually<T>(read: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  let last: T = await read();
  while (!ok(last)) {
    if (Date.now() > deadline) throw new Error(`timed out; last: ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, 200));
    last = await read();
  }
  return last;
}

beforeAll(async () => {
  venue = await BinanceTestServer.start({ accounts: [{ ...TRADER, futuresWallet: '10000' }] });
  venue.setPrice('BTCUSDT', '65000.00');
  db = await createTestDatabase();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kairos-venue-urls-'));
  await startKairos();
}, 90_000);

/** `src/server.ts` in its own process (every role), on the test database. */
async function startKairos() {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  kairos = spawnServer({
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: db.url,
    KAIROS_DATA_DIR: dataDir,
    KAIROS_VENUE_URLS: JSON.stringify({ binanceusdm: venue.origin }),
    LOG_LEVEL: 'warn',
  });
  await waitForHealthy(port, 60_000);
}

afterAll(async () => {
  if (kairos && kairos.child.exitCode === null) {
    kairos.child.kill('SIGINT');
    await kairos.exited;
  }
  await db?.drop();
  await venue?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('a Kairos process with KAIROS_VENUE_URLS pointing binanceusdm at a protocol server', () => {
  it('trades a bot end to end: webhook → entry → ladder → exit signal', async () => {
    const email = uniqueEmail('venue-urls');
    const registered = await call(
      'POST',
      '/auth/register',
      { email, password: GOOD_PASSWORD, confirm_password: GOOD_PASSWORD },
      false,
    );
    expect(registered.status, registered.text).toBe(201);
    // Registration opens no session (issue 20): log in.
    const login = await call('POST', '/auth/login', { email, password: GOOD_PASSWORD }, false);
    expect(login.status, login.text).toBe(200);
    token = login.body.results.apiToken;

    const account = await call('POST', '/api/trading-accounts', {
      nickname: 'USDⓈ-M',
      exchange: 'binanceusdm',
      marketType: 'future',
      apiKey: TRADER.apiKey,
      apiSecret: TRADER.secret,
    });
    expect(account.status, account.text).toBe(201);
    expect(account.body.results.usdtBalance).toBe('10000');

    const strategy = await call('POST', '/api/strategies', {
      nickname: 'BTC ladder',
      tradeCurrency: 'BTC',
      timeFrame: '1h',
      takeProfits: [
        { role: 'tp1', percent: 1, sizePercent: 50 },
        { role: 'tp2', percent: 2, sizePercent: 50 },
      ],
      stopLossPercent: 1.5,
      breakEvenAfterTp1: true,
    });
    expect(strategy.status, strategy.text).toBe(201);
    const { id: strategyId, strategyKey, webhookSecret } = strategy.body.results;
    const bot = await call('POST', '/api/bots', {
      strategyId,
      tradingAccountId: account.body.results.id,
      fixedAmount: 650,
      leveragePercent: '200',
      isActive: true,
    });
    expect(bot.status, bot.text).toBe(201);
    const botId = bot.body.results.id;

    const signal = (action: string, id: string) =>
      call(
        'POST',
        '/webhooks/tradingview',
        { strategyKey, secret: webhookSecret, action, symbol: 'BTCUSDT', id },
        false,
      );
    expect((await signal('long', 'proc-1')).status).toBe(200);

    const openTrade = await eventually(
      async () => (await call('GET', `/api/trades?bot_id=${botId}&status=open`)).body.results[0],
      (trade) => trade !== undefined,
    );
    const detail = await eventually(
      async () => (await call('GET', `/api/trades/${openTrade.id}`)).body.results,
      (d) => d.ladder.every((l: { status: string }) => l.status === 'placed'),
    );
    expect(detail.trade.status).toBe('open');
    const quantity = detail.trade.quantity as string;
    const ladder = detail.ladder as { name: string; amount: string }[];
    expect(ladder.map((l) => l.name)).toEqual(['TP1', 'TP2']);
    expect(ladder.reduce((sum, l) => sum + Number(l.amount), 0)).toBeCloseTo(Number(quantity), 10);
    // The venue holds what the trade says, at the bot's leverage, and rests the ladder reduce-only.
    expect(venue.futuresSettings(TRADER.apiKey, 'BTCUSDT')).toEqual({ leverage: 2, marginType: 'ISOLATED' });
    expect(venue.positionAmount(TRADER.apiKey, 'BTCUSDT')).toBe(quantity);
    const resting = await eventually(
      async () => venue.liveOrders(TRADER.apiKey, 'BTCUSDT'),
      (orders) => orders.length >= ladder.length,
    );
    expect(resting.map((o) => [o.side, o.origQty, o.reduceOnly]).sort()).toEqual(
      ladder.map((l) => ['SELL', l.amount, true]).sort(),
    );

    expect((await signal('exit', 'proc-2')).status).toBe(200);
    const closed = await eventually(
      async () => (await call('GET', `/api/trades/${openTrade.id}`)).body.results,
      (d) => d.trade.status === 'closed',
    );
    expect(closed.trade).toMatchObject({ closeReason: expect.any(String), openQuantity: '0' });
    expect(venue.liveOrders(TRADER.apiKey, 'BTCUSDT')).toEqual([]);
    expect(venue.positionAmount(TRADER.apiKey, 'BTCUSDT')).toBe('0');
    expect(kairos.output()).not.toMatch(/"level":(50|60)/);
  }, 90_000);

  it("leaves a futures position protected by its stop on the venue while Kairos is killed, and books the venue's exit after", async () => {
    venue.setPrice('BTCUSDT', '65000.00');
    const strategy = await call('POST', '/api/strategies', {
      nickname: 'BTC stop only',
      tradeCurrency: 'BTC',
      timeFrame: '1h',
      stopLossPercent: 1,
      breakEvenAfterTp1: false,
    });
    expect(strategy.status, strategy.text).toBe(201);
    const accounts = (await call('GET', '/api/trading-accounts')).body.results as { id: string }[];
    // The first story's bot holds BTC/USDT on this account (one position per symbol): it goes first.
    for (const old of (await call('GET', '/api/bots')).body.results as { id: string }[])
      expect((await call('DELETE', `/api/bots/${old.id}`)).status).toBeLessThan(300);
    const bot = await call('POST', '/api/bots', {
      strategyId: strategy.body.results.id,
      tradingAccountId: accounts[0]!.id,
      fixedAmount: 650,
      isActive: true,
    });
    expect(bot.status, bot.text).toBe(201);
    const signal = await call(
      'POST',
      '/webhooks/tradingview',
      {
        strategyKey: strategy.body.results.strategyKey,
        secret: strategy.body.results.webhookSecret,
        action: 'long',
        symbol: 'BTCUSDT',
        id: 'proc-stop-1',
      },
      false,
    );
    expect(signal.status).toBe(200);
    const trade = await eventually(
      async () =>
        (await call('GET', `/api/trades?bot_id=${bot.body.results.id}&status=open`)).body.results[0],
      (x) => x !== undefined && x.quantity !== '0',
    );
    // The stop rests on Binance: reduce-only STOP_MARKET on the mark price, for what the trade holds.
    const [stop] = await eventually(
      async () => venue.liveAlgoOrders(TRADER.apiKey, 'BTCUSDT'),
      (orders) => orders.length === 1,
    );
    expect(stop).toMatchObject({
      side: 'SELL',
      orderType: 'STOP_MARKET',
      workingType: 'MARK_PRICE',
      reduceOnly: true,
    });
    expect(stop!.quantity).toBe(trade.quantity);

    // Kairos is killed; the market falls through the stop: Binance closes the position on its own.
    kairos.child.kill('SIGKILL');
    await kairos.exited;
    venue.setPrice('BTCUSDT', '64000.00');
    expect(venue.positionAmount(TRADER.apiKey, 'BTCUSDT')).toBe('0');
    expect(venue.algoOrderByClientId(stop!.clientAlgoId)?.algoStatus).toBe('FINISHED');

    await startKairos();
    const closed = await eventually(
      async () => (await call('GET', `/api/trades/${trade.id}`)).body.results,
      (d) => d.trade.status === 'closed',
      30_000,
    );
    expect(closed.trade).toMatchObject({ closeReason: 'stop loss', openQuantity: '0' });
    const exits = (closed.fills as { role: string; amount: string }[]).filter((f) => f.role !== 'entry');
    expect(exits.map((f) => [f.role, f.amount])).toEqual([['stop', trade.quantity]]);
    // Nothing twice: no second stop, no market exit of Kairos' own, the account flat.
    expect(venue.liveAlgoOrders(TRADER.apiKey, 'BTCUSDT')).toEqual([]);
    expect(venue.liveOrders(TRADER.apiKey, 'BTCUSDT')).toEqual([]);
    expect(venue.positionAmount(TRADER.apiKey, 'BTCUSDT')).toBe('0');
    expect(closed.orders.filter((o: { role: string }) => o.role !== 'entry')).toHaveLength(1);
  }, 120_000);
});
