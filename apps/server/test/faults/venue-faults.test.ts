import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app';
import { createBot, sendSignal, startTestAlertWorker, waitForAlert } from '../support/engine';
import { registerUser, type Session } from '../support/users';
import { BinanceTestServer, type RecordedRequest } from '../fakes/binance-server';
import { sharedVenueThrottles, venueKey } from '../../src/exchange/venue-throttle';
import { callApi } from '../security/world';

/**
 * A real venue misbehaving under the engine (webhook → alert worker → bots → ccxt → Binance protocol
 * server): a timeout after the venue accepted an entry, and 429/418 answers with Retry-After. The
 * gateway-level mechanics are in test/exchange/ccxt-gateway-binance-spot.test.ts; here the whole path.
 */
const ONE = { apiKey: 'faultsKeyOne000000000000001', secret: 'faults-secret-one' };
const TWO = { apiKey: 'faultsKeyTwo000000000000002', secret: 'faults-secret-two' };
/** ccxt's timeout for this app: short, so a slow answer is a timeout in well under a second. */
const VENUE_TIMEOUT_MS = 400;

let venue: BinanceTestServer;
let t: TestApp;
let alice: Session;
let worker: ReturnType<typeof startTestAlertWorker>;
const accounts: string[] = [];

const isOrderPost = (method: string, path: string) => method === 'POST' && path === '/api/v3/order';
const orderPosts = (since = 0) => venue.requests.slice(since).filter((r) => isOrderPost(r.method, r.path));

async function strategyWithBots(name: string, accountIds: string[]) {
  const res = await callApi(t, alice, 'POST', '/api/strategies', {
    nickname: name,
    tradeCurrency: 'BTC',
    timeFrame: '1h',
  });
  expect(res.status, res.body).toBe(201);
  const strategy = res.json().results as { id: string; strategyKey: string; webhookSecret: string };
  const bots = [];
  for (const accountId of accountIds) {
    bots.push(
      await createBot(t.app, alice, {
        nickname: `${name} bot`,
        strategyId: strategy.id,
        tradingAccountId: accountId,
        fixedAmount: 100,
        isActive: true,
      }),
    );
  }
  return { strategy, bots };
}

async function entryOrdersOf(botIds: string[]) {
  const { rows } = await t.db.pool.query(
    `SELECT o.client_order_id, o.status, o.venue_order_id, o.filled FROM orders o JOIN trades tr ON tr.id = o.trade_id
     WHERE o.role = 'entry' AND tr.bot_id = ANY($1::uuid[])`,
    [botIds],
  );
  return rows as { client_order_id: string; status: string; venue_order_id: string | null; filled: string }[];
}

/** The app's shared throttle for this venue (process-wide, as in production). */
const venueThrottle = () => {
  const throttle = sharedVenueThrottles.get(
    venueKey({ exchangeId: 'binance', sandbox: false, baseUrl: venue.origin }),
  );
  if (!throttle) throw new Error('no throttle for the test venue yet');
  return throttle;
};

async function until(check: () => boolean, timeoutMs = 5_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function history(alertId: string) {
  const { rows } = await t.db.pool.query(
    'SELECT to_status FROM alert_events WHERE alert_id = $1 ORDER BY at, id',
    [alertId],
  );
  return rows.map((r) => r.to_status as string);
}

beforeAll(async () => {
  venue = await BinanceTestServer.start({
    accounts: [
      { ...ONE, balances: { USDT: '10000' } },
      { ...TWO, balances: { USDT: '10000' } },
    ],
  });
  t = await createTestApp({}, { venueUrls: venue.venueUrls(), venueTimeoutMs: VENUE_TIMEOUT_MS });
  alice = await registerUser(t.app);
  for (const [i, keys] of [ONE, TWO].entries()) {
    const res = await callApi(t, alice, 'POST', '/api/trading-accounts', {
      nickname: `Binance ${i + 1}`,
      exchange: 'binance',
      apiKey: keys.apiKey,
      apiSecret: keys.secret,
    });
    expect(res.status, res.body).toBe(201);
    accounts.push(res.json().results.id);
  }
  worker = startTestAlertWorker(t, 'venue-faults');
});
afterAll(async () => {
  await worker?.stop();
  await t?.close();
  await venue?.close();
});

describe('a venue that times out after accepting an entry order', () => {
  it('leaves the order unknown, then settles it by client order id without placing it twice', async () => {
    const { strategy, bots } = await strategyWithBots('Timeout', [accounts[0]!]);
    const before = venue.requests.length;
    // Processed by the venue at once, answered after ccxt has given up.
    venue.delayNext({ count: 1, ms: VENUE_TIMEOUT_MS * 3, match: isOrderPost });
    const { alertId } = await sendSignal(t.app, strategy, { action: 'long', id: 'timeout-1' });

    // What the books say in between: the venue has the order, we do not know it yet.
    const deadline = Date.now() + 5_000;
    let seen: string | undefined;
    while (Date.now() < deadline && seen !== 'unknown') {
      seen = (await entryOrdersOf([bots[0]!.id]))[0]?.status;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(seen).toBe('unknown');

    expect(await waitForAlert(t, alertId)).toBe('succeeded');
    const orders = await entryOrdersOf([bots[0]!.id]);
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ status: 'filled', filled: expect.stringMatching(/^0\.00\d+$/) });
    expect(orders[0]!.venue_order_id).not.toBeNull();
    // One order at the venue, found again by its client order id.
    expect(orderPosts(before)).toHaveLength(1);
    expect(venue.orderByClientId(orders[0]!.client_order_id)).toMatchObject({ status: 'FILLED' });
    expect(venue.requests.slice(before).some((r) => r.method === 'GET' && r.path === '/api/v3/order')).toBe(
      true,
    );
    expect(await history(alertId)).toEqual([
      'queued',
      'in_progress',
      'failed',
      'queued',
      'in_progress',
      'succeeded',
    ]);
    const bot = await callApi(t, alice, 'GET', `/api/bots/${bots[0]!.id}`);
    expect(bot.json().results).toMatchObject({ position: 'long', isTrading: true });
  });
});

describe('a venue answering 429/418 with Retry-After', () => {
  it('stops every call to the venue for the whole ban, then places each order once', async () => {
    const { strategy, bots } = await strategyWithBots('Banned', accounts);
    const before = venue.requests.length;
    const BAN_MS = 4_500; // longer than the gateway waits in place: the alert itself is retried
    venue.failNext({ count: 1, status: 418, retryAfterSeconds: BAN_MS / 1000, match: isOrderPost });
    const { alertId } = await sendSignal(t.app, strategy, { action: 'long', id: 'ban-1' });

    // Once the app has taken the ban in, another account's market read waits it out instead of knocking.
    let ban: RecordedRequest | undefined;
    await until(() => {
      ban = venue.requests.slice(before).find((r) => r.status === 418);
      return Boolean(ban) && venueThrottle().pausedForMs() > 0;
    });
    const pausedFor = venueThrottle().pausedForMs();
    const bannedAt = Date.now();
    const read = await callApi(t, alice, 'GET', `/market/BTC-USDT?accountId=${accounts[1]}`);
    const readTook = Date.now() - bannedAt;

    expect(await waitForAlert(t, alertId, ['succeeded', 'dead'], 30_000)).toBe('succeeded');
    expect(read.status, read.body).toBe(200);
    expect(readTook).toBeGreaterThanOrEqual(pausedFor - 100);
    const after = venue.requests.slice(before);
    // A request already on its way when the ban came back may land; nothing may start during the ban.
    const duringBan = after.filter(
      (r) => r.receivedAt > bannedAt + 200 && r.receivedAt < bannedAt + pausedFor - 100,
    );
    expect(duringBan.map((r) => `${r.method} ${r.path}`)).toEqual([]);
    expect(after.filter((r) => r.status === 418 || r.status === 429)).toEqual([ban]);
    const orders = await entryOrdersOf(bots.map((b) => b.id));
    expect(orders.map((o) => o.status)).toEqual(['filled', 'filled']);
    expect(orderPosts(before).filter((r) => r.status === 200)).toHaveLength(2);
    expect(new Set(orders.map((o) => o.client_order_id)).size).toBe(2);
  });

  it('spaces retries by Retry-After on repeated 429s, with no burst, and places the order once', async () => {
    const { strategy, bots } = await strategyWithBots('Throttled', [accounts[0]!]);
    const before = venue.requests.length;
    venue.failNext({ count: 3, status: 429, retryAfterSeconds: 0.4, match: isOrderPost });
    const { alertId } = await sendSignal(t.app, strategy, { action: 'long', id: 'throttle-1' });
    expect(await waitForAlert(t, alertId, ['succeeded', 'dead'], 30_000)).toBe('succeeded');

    const posts = orderPosts(before);
    expect(posts.map((r) => r.status)).toEqual([429, 429, 429, 200]);
    // After each 429 the next call to the venue — any call — waits out the Retry-After.
    const after = venue.requests.slice(before);
    for (const limited of after.filter((r) => r.status === 429)) {
      const next = after.find((r) => r.receivedAt > limited.receivedAt);
      expect(next!.receivedAt - limited.receivedAt).toBeGreaterThanOrEqual(380);
    }
    expect(await entryOrdersOf(bots.map((b) => b.id))).toHaveLength(1);
  });
});
