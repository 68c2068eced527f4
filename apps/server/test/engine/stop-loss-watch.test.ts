import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startStopLossWatch, type StopLossWatchOptions } from '../../src/engine/stop-loss-watch';
import { createStopWatchRepo } from '../../src/engine/stop-watch-repo';
import type { ExchangeGateway } from '../../src/exchange/gateway';
import { ScriptedMarket } from '../fakes/scripted-market';
import { createPaperAccount, manualOpenRequest } from '../support/engine';
import { registerUser, type Session } from '../support/users';
import { asUser, eventually, startTradesApp, type TradesApp } from '../support/trades-app';

/**
 * The stop-loss watch (issue 18) on the paper venue over a real database: the open stopped trades held in
 * memory and re-read in the background, every price checked at once against them, each trade acted on once
 * at a time, exits side by side across accounts.
 */
const market = new ScriptedMarket(() => Date.now());
let t: TradesApp;
let alice: Session;
let seq = 0;
let watch: { stop(): Promise<void> } | undefined;

/**
 * A long at 65,000 with a stop `stopLossPercent` under it: 0.02 BTC on a fresh spot account (stop 1 %: 64,350),
 * or on `accountId`'s. Its one take-profit (+20 %) holds all its coins, so no spot stop rests on the venue
 * beside it (a spot stop sells what no take-profit holds): the watch is its only stop.
 */
async function openTrade(options: { accountId?: string; quantity?: string; stopLossPercent?: string } = {}) {
  seq += 1;
  market.moveTo('65000');
  const accountId = options.accountId ?? (await createPaperAccount(t.app, alice)).id;
  const account = (await t.app.services.repos.accounts.findById(accountId))!;
  const gateway = await t.app.services.venues.gateways.forAccount(account);
  const trade = await t.app.services.engine.supervisor.managedLifecycle.open(
    gateway,
    manualOpenRequest({
      userId: String(alice.user.id),
      accountId,
      clientOrderId: `swatch${process.pid}x${seq}`,
      quantity: options.quantity ?? '0.02',
      plan: {
        takeProfits: [{ role: 'tp1', percent: '20', sizePercent: '100' }],
        stopLossPercent: options.stopLossPercent ?? '1',
        breakEvenAfterTp1: false,
      },
    }),
  );
  expect(trade.status).toBe('open');
  return { trade, accountId, gateway };
}

/**
 * The watch over `accountIds`' trades only (other tests' trades stay out of it), counting its database reads
 * and the exits it asks the supervisor for; resolves once it has read the trades.
 */
async function watchAccounts(accountIds: string[], options: StopLossWatchOptions) {
  const { repos, venues, engine } = t.app.services;
  const counts = { reads: 0, closes: [] as string[] };
  watch = startStopLossWatch(
    {
      trades: {
        openTradesWithStops: async () => {
          counts.reads += 1;
          return (await repos.trades.openTradesWithStops()).filter((r) =>
            accountIds.includes(r.trade.tradingAccountId),
          );
        },
      },
      gateways: venues.gateways,
      supervisor: {
        stopClientOrderId: engine.supervisor.stopClientOrderId,
        closeTrade: (...args) => {
          counts.closes.push(args[0]);
          return engine.supervisor.closeTrade(...args);
        },
      },
      venueStops: engine.venueStops,
      log: t.app.log,
    },
    { paperIntervalMs: 20, ...options },
  );
  await readsPast(counts, 0);
  return counts;
}

/** Waits for the watch to have read the trades more than `n` times. */
const readsPast = (counts: { reads: number }, n: number) =>
  eventually(
    async () => counts.reads,
    (reads) => reads > n,
  );

/** Waits for the trade to be closed by its stop. */
async function closedByStop(id: string) {
  const closed = await eventually(
    () => tradeOf(id),
    (x) => x?.status === 'closed',
    5_000,
  );
  expect(closed).toMatchObject({ closeReason: 'stop loss' });
}

/** Every order `gateway` is sent from now on, with when it came. */
function recordOrders(gateway: ExchangeGateway) {
  const sent: { clientOrderId: string; at: number }[] = [];
  const createOrder = gateway.createOrder.bind(gateway);
  gateway.createOrder = (request) => {
    sent.push({ clientOrderId: request.clientOrderId, at: Date.now() });
    return createOrder(request);
  };
  return sent;
}

const tradeOf = (id: string) => t.app.services.repos.trades.findById(id);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  market.moveTo('65000');
  t = await startTradesApp({ paperVenueOptions: { market } });
  alice = await registerUser(t.app);
});
afterEach(async () => {
  await watch?.stop();
  watch = undefined;
});
afterAll(async () => {
  await t.close();
});

describe('the stop-loss watch', () => {
  const stopId = (id: string) => t.app.services.engine.supervisor.stopClientOrderId(id);

  it('exits a crossed trade on the next price, without waiting for a database read', async () => {
    const { trade, gateway } = await openTrade();
    expect(trade.stopLossPrice).toBe('64350');
    const sent = recordOrders(gateway);
    const counts = await watchAccounts([trade.tradingAccountId], { refreshMs: 60_000 });
    await sleep(100);

    const crossedAt = Date.now();
    market.moveTo('64000');
    await closedByStop(trade.id);
    expect(sent.map((s) => s.clientOrderId)).toEqual([stopId(trade.id)]);
    // Sent within a few price reads of the crossing, and on the one database read made at the start.
    expect(sent[0]!.at - crossedAt).toBeLessThan(1_000);
    expect(counts.reads).toBe(1);
  });

  it('picks up a trade opened after it started once it re-read the trades', async () => {
    const first = await openTrade();
    const counts = await watchAccounts([first.accountId], { refreshMs: 100 });
    // A second trade on the same account (spot: several trades per symbol), opened after the first read.
    const later = await openTrade({ accountId: first.accountId, quantity: '0.01', stopLossPercent: '2' });
    expect(later.trade.stopLossPrice).toBe('63700');
    await readsPast(counts, counts.reads);

    // Through the later trade's stop (63,700) and the first's (64,350): both exit.
    market.moveTo('63500');
    await closedByStop(first.trade.id);
    await closedByStop(later.trade.id);
  });

  it('leaves a trade whose stop moved away since its last read open (re-checked under the trade lock)', async () => {
    const { trade, gateway } = await openTrade();
    const sent = recordOrders(gateway);
    const counts = await watchAccounts([trade.tradingAccountId], { refreshMs: 60_000 });
    // The user moves the stop to 63,000; the watch still holds 64,350 in memory.
    const moved = await asUser(t.app, alice).put(`/api/trades/${trade.id}`, { stopLossPrice: '63000' });
    expect(moved.status).toBe(200);

    market.moveTo('64000');
    await sleep(600);
    expect(await tradeOf(trade.id)).toMatchObject({ status: 'open', stopLossPrice: '63000' });
    expect(sent).toEqual([]);
    // Asked once: the trade is left alone until the watch has read it again.
    expect(counts.closes).toEqual([trade.id]);
  });

  it('exits a trade once however often the price crosses its stop', async () => {
    const { trade, gateway } = await openTrade();
    const sent = recordOrders(gateway);
    const counts = await watchAccounts([trade.tradingAccountId], { refreshMs: 150 });
    for (let i = 0; i < 10; i++) {
      market.moveTo(i % 2 === 0 ? '64000' : '64500');
      await sleep(60);
    }
    market.moveTo('64000');
    await closedByStop(trade.id);
    await sleep(400);
    expect(sent.map((s) => s.clientOrderId)).toEqual([stopId(trade.id)]);
    expect(counts.closes).toEqual([trade.id]);
  });

  it('exits trades of two accounts side by side: a slow venue account holds back no other', async () => {
    const slow = await openTrade();
    const fast = await openTrade();
    // The slow account's venue holds its exit order until released.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const createOrder = slow.gateway.createOrder.bind(slow.gateway);
    slow.gateway.createOrder = async (request) => {
      await held;
      return createOrder(request);
    };
    await watchAccounts([slow.accountId, fast.accountId], { refreshMs: 60_000 });

    market.moveTo('64000');
    await closedByStop(fast.trade.id);
    expect((await tradeOf(slow.trade.id))!.status).not.toBe('closed');
    release();
    await closedByStop(slow.trade.id);
  });

  it("reads what the trades repo reads, only the columns it needs, each account's row again once it changed", async () => {
    const { trade, accountId } = await openTrade();
    const { repos } = t.app.services;
    const slim = createStopWatchRepo(t.db.db);
    const mine = async <R extends { trade: { tradingAccountId: string } }>(read: () => Promise<R[]>) =>
      (await read()).filter((r) => r.trade.tradingAccountId === accountId);
    const [full] = await mine(() => repos.trades.openTradesWithStops());
    const [read] = await mine(() => slim.openTradesWithStops());
    expect(read).toEqual({
      trade: {
        id: trade.id,
        symbol: 'BTC/USDT',
        side: 'long',
        stopLossPrice: '64350',
        tradingAccountId: accountId,
      },
      account: full!.account,
      restsOnVenue: false,
    });

    await t.db.pool.query(
      `UPDATE trading_accounts SET nickname = 'renamed', updated_at = now() WHERE id = $1`,
      [accountId],
    );
    const [again] = await mine(() => slim.openTradesWithStops());
    expect(again!.account.nickname).toBe('renamed');
  });
});
