import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { OpenRequest } from '../../src/engine/trade-lifecycle';
import type { ExchangeGateway } from '../../src/exchange/gateway';
import { ScriptedMarket } from '../fakes/scripted-market';
import { createPaperAccount } from '../support/engine';
import { registerUser, type Session } from '../support/users';
import { VenueFaults } from '../fakes/venue-faults';
import { startTradesApp, type TradesApp } from '../support/trades-app';

/**
 * The lifecycle invariant on a venue that misbehaves (DESIGN §6): a refused or unanswered step never leaves a
 * position without its stop, fills the venue is slow to list never leave a trade without its quantity, and an
 * order whose outcome is unknown is looked up, never sent twice. Each case was reproduced on f6b2165.
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

let n = 0;
async function paperWithFaults() {
  const account = await createPaperAccount(t.app, alice);
  const row = (await t.app.services.repos.accounts.findById(account.id))!;
  const gateway = await t.app.services.venues.gateways.forAccount(row);
  return { accountId: account.id, gateway, faults: new VenueFaults(gateway) };
}

function openRequest(accountId: string, overrides: Partial<OpenRequest> = {}): OpenRequest {
  n += 1;
  return {
    userId: String(alice.user.id),
    botId: null,
    accountId,
    strategyId: null,
    alertId: null,
    symbol: 'BTC/USDT',
    side: 'long',
    clientOrderId: `invariant${n}entry`,
    quantity: '0.01',
    plan: {
      takeProfits: [{ role: 'tp1', percent: '2', sizePercent: '100' }],
      stopLossPercent: '1',
      breakEvenAfterTp1: true,
    },
    ...overrides,
  };
}

async function ordersOf(tradeId: string) {
  const { rows } = await t.db.pool.query(
    `SELECT client_order_id, role, status, amount, filled FROM orders WHERE trade_id = $1 ORDER BY created_at, role`,
    [tradeId],
  );
  return rows as { client_order_id: string; role: string; status: string; amount: string; filled: string }[];
}

/**
 * Each order's last error as stored (issue 21): its English, and the code and params the web says it from in
 * the user's language. By trade, or by the entry's client order id before its trade opened.
 */
async function errorsOf(where: { tradeId: string } | { clientOrderId: string }) {
  const { rows } = await t.db.pool.query(
    `SELECT role, status, last_error, last_error_code, last_error_params FROM orders
      WHERE ${'tradeId' in where ? 'trade_id' : 'client_order_id'} = $1 ORDER BY created_at, role`,
    ['tradeId' in where ? where.tradeId : where.clientOrderId],
  );
  return rows as {
    role: string;
    status: string;
    last_error: string | null;
    last_error_code: string | null;
    last_error_params: Record<string, string | number> | null;
  }[];
}

/** No error: what an order the venue answered keeps. */
const NO_ERROR = { last_error: null, last_error_code: null, last_error_params: null };

async function tradeRow(tradeId: string) {
  return (await t.app.services.repos.trades.findById(tradeId))!;
}

/** What the stop-loss watch sees: open trades with a stop price. */
async function watched(tradeId: string) {
  return (await t.app.services.repos.trades.openTradesWithStops()).some((r) => r.trade.id === tradeId);
}

/** BTC the paper account holds at the venue. */
async function heldAtVenue(gateway: ExchangeGateway) {
  return (await gateway.fetchBalances())['BTC']?.total ?? '0';
}

const stopOf = (tradeId: string) => t.app.services.engine.supervisor.stopClientOrderId(tradeId);
const isExit = (args: unknown[]) => (args[0] as { side: string }).side === 'sell';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a stop-out that meets a failure', () => {
  it('a refused exit leaves the trade open and watched, and the next attempt sends a new order', async () => {
    const { accountId, gateway, faults } = await paperWithFaults();
    const { supervisor } = t.app.services.engine;
    const opened = await supervisor.managedLifecycle.open(gateway, openRequest(accountId));
    expect(opened).toMatchObject({ status: 'open', quantity: '0.01' });
    expect(opened.stopLossPrice).not.toBeNull();

    faults.inject('createOrder', 'refused', { match: isExit });
    await supervisor.closeTrade(opened.id, stopOf(opened.id), 'stop loss', 'stop').catch(() => undefined);
    // Still protected: open, watched, the position untouched.
    expect((await tradeRow(opened.id)).status).toBe('open');
    expect(await watched(opened.id)).toBe(true);
    expect(await heldAtVenue(gateway)).not.toBe('0');
    // The refusal is kept with its code, the venue's own words as its reason.
    expect((await errorsOf({ tradeId: opened.id })).filter((o) => o.role === 'stop')).toEqual([
      {
        role: 'stop',
        status: 'rejected',
        last_error: 'Filter failure: NOTIONAL',
        last_error_code: 'INVALID_ORDER',
        last_error_params: { reason: 'Filter failure: NOTIONAL' },
      },
    ]);

    // The watch tries again once the back-off has passed: a new client id, never the refused row.
    await sleep(1_100);
    const closed = await supervisor.closeTrade(opened.id, stopOf(opened.id), 'stop loss', 'stop');
    expect(closed).toMatchObject({ status: 'closed', closeReason: 'stop loss' });
    const stops = (await ordersOf(opened.id)).filter((o) => o.role === 'stop');
    expect(stops.map((o) => o.status)).toEqual(['rejected', 'filled']);
    expect(new Set(stops.map((o) => o.client_order_id)).size).toBe(2);
    expect(Number(await heldAtVenue(gateway))).toBeLessThan(0.0001);
    expect((await errorsOf({ tradeId: opened.id })).filter((o) => o.role === 'stop')[1]).toMatchObject(
      NO_ERROR,
    );
  });

  it('a take-profit cancel that times out leaves the trade open with its take-profit, then exits on the next pass', async () => {
    const { accountId, gateway, faults } = await paperWithFaults();
    const { supervisor } = t.app.services.engine;
    const opened = await supervisor.managedLifecycle.open(gateway, openRequest(accountId));
    expect((await ordersOf(opened.id)).find((o) => o.role === 'tp1')?.status).toBe('open');

    faults.inject('cancelOrder', 'timeout');
    await supervisor.closeTrade(opened.id, stopOf(opened.id), 'stop loss', 'stop').catch(() => undefined);
    expect((await tradeRow(opened.id)).status).toBe('open');
    expect(await watched(opened.id)).toBe(true);
    expect((await ordersOf(opened.id)).some((o) => o.role === 'stop')).toBe(false);

    await t.app.services.engine.reconciler.reconcileAccount({ id: accountId }, { sweep: true });
    const closed = await supervisor.closeTrade(opened.id, stopOf(opened.id), 'stop loss', 'stop');
    expect(closed.status).toBe('closed');
    const orders = await ordersOf(opened.id);
    expect(orders.find((o) => o.role === 'tp1')?.status).toBe('cancelled');
    expect(orders.filter((o) => o.role === 'stop').map((o) => o.status)).toEqual(['filled']);
  });

  it('a take-profit the venue no longer knows (cancel and lookup: not found) does not block the exit', async () => {
    const { accountId, gateway, faults } = await paperWithFaults();
    const { supervisor } = t.app.services.engine;
    const opened = await supervisor.managedLifecycle.open(gateway, openRequest(accountId));
    // The take-profit ended at the venue long ago and the venue has since forgotten it.
    const tp = (await t.app.services.repos.trades.ordersOfTrade(opened.id)).find((o) => o.role === 'tp1')!;
    await gateway.cancelOrder(tp.venueOrderId!, tp.symbol);
    await t.db.pool.query(`UPDATE orders SET updated_at = now() - interval '5 days' WHERE id = $1`, [tp.id]);
    faults.inject('cancelOrder', 'notFound').inject('fetchOrder', 'notFound');
    const closed = await supervisor.closeTrade(opened.id, stopOf(opened.id), 'stop loss', 'stop');
    expect(closed).toMatchObject({ status: 'closed', closeReason: 'stop loss' });
    const orders = await ordersOf(opened.id);
    expect(orders.filter((o) => o.role === 'stop').map((o) => o.status)).toEqual(['filled']);
    expect(orders.find((o) => o.role === 'tp1')?.status).toBe('cancelled');
    expect((await errorsOf({ tradeId: opened.id })).find((o) => o.role === 'tp1')).toEqual({
      role: 'tp1',
      status: 'cancelled',
      last_error: 'The venue no longer knows this order',
      last_error_code: 'ORDER_FORGOTTEN',
      last_error_params: null,
    });
  });

  it('supervision resends the exit of a closing trade that has no live exit', async () => {
    const { accountId, gateway } = await paperWithFaults();
    const { supervisor } = t.app.services.engine;
    const opened = await supervisor.managedLifecycle.open(gateway, openRequest(accountId));
    // What f6b2165 left behind after a refused exit: closing, no live exit.
    await t.db.pool.query(`UPDATE trades SET status = 'closing', close_reason = 'stop loss' WHERE id = $1`, [
      opened.id,
    ]);
    const after = await supervisor.supervise(opened.id);
    expect(after).toMatchObject({ status: 'closed', closeReason: 'stop loss' });
    expect(Number(await heldAtVenue(gateway))).toBeLessThan(0.0001);
  });
});

describe('fills the venue is slow to list', () => {
  it('an entry whose fills are not listed still gets its quantity, price and stop from the order, then its real fills', async () => {
    const { accountId, gateway, faults } = await paperWithFaults();
    const { supervisor, reconciler } = t.app.services.engine;
    faults.lagTrades();
    const opened = await supervisor.managedLifecycle.open(gateway, openRequest(accountId));
    expect(opened.status).toBe('open');
    expect(opened.quantity).toBe('0.01');
    expect(opened.entryPrice).not.toBeNull();
    expect(opened.stopLossPrice).not.toBeNull();
    const { rows: inferred } = await t.db.pool.query(
      `SELECT amount, inferred FROM fills WHERE trade_id = $1`,
      [opened.id],
    );
    expect(inferred).toEqual([{ amount: '0.01', inferred: true }]);

    faults.clear();
    for (let i = 0; i < 2; i++) await reconciler.reconcileAccount({ id: accountId }, { sweep: true });
    const { rows: real } = await t.db.pool.query(
      `SELECT inferred, fee FROM fills WHERE trade_id = $1 AND order_id IN (SELECT id FROM orders WHERE role = 'entry')`,
      [opened.id],
    );
    expect(real.length).toBeGreaterThan(0);
    expect(real.every((r) => r.inferred === false)).toBe(true);
    const trade = await tradeRow(opened.id);
    expect(trade.quantity).toBe('0.01');
    expect(Number(trade.commission)).toBeGreaterThan(0);
  });
});

/** The orders that reached the venue (its spot stop's placement, `stop: true`, is not one). */
const orders = (faults: { sent: { stop?: boolean; clientOrderId: string }[] }) =>
  faults.sent.filter((s) => !s.stop);

describe('an entry whose create call timed out', () => {
  it('is looked up, never re-sent by a retry, and settled when the venue shows it', async () => {
    const { accountId, gateway, faults } = await paperWithFaults();
    const { supervisor } = t.app.services.engine;
    const req = openRequest(accountId, {
      plan: { takeProfits: [], stopLossPercent: '1', breakEvenAfterTp1: false },
    });
    faults.inject('createOrder', 'timeout');
    await expect(supervisor.managedLifecycle.open(gateway, req)).rejects.toThrow();
    // The alert's retry, seconds later: the venue does not show the order yet.
    await expect(supervisor.managedLifecycle.open(gateway, req)).rejects.toThrow();
    expect(orders(faults).map((s) => s.clientOrderId)).toEqual([req.clientOrderId]);
    // It arrives; the next retry finds it.
    await faults.deliverLate(req.clientOrderId);
    const trade = await supervisor.managedLifecycle.open(gateway, req);
    expect(trade).toMatchObject({ status: 'open', quantity: '0.01' });
    expect(orders(faults)).toHaveLength(1);
  });

  it('is declared lost only after 30 s of lookups, then placed with a new client id', async () => {
    const { accountId, gateway, faults } = await paperWithFaults();
    const { supervisor } = t.app.services.engine;
    const req = openRequest(accountId, {
      plan: { takeProfits: [], stopLossPercent: '1', breakEvenAfterTp1: false },
    });
    faults.inject('createOrder', 'timeout');
    await expect(supervisor.managedLifecycle.open(gateway, req)).rejects.toThrow();
    // No answer: its outcome unknown, with the transport's words as its reason.
    expect(await errorsOf({ clientOrderId: req.clientOrderId })).toEqual([
      {
        role: 'entry',
        status: 'unknown',
        last_error: 'Request timed out',
        last_error_code: 'UNKNOWN_OUTCOME',
        last_error_params: { reason: 'Request timed out' },
      },
    ]);
    await t.db.pool.query(
      `UPDATE orders SET updated_at = now() - interval '31 seconds' WHERE client_order_id = $1`,
      [req.clientOrderId],
    );
    const trade = await supervisor.managedLifecycle.open(gateway, req);
    expect(trade.status).toBe('open');
    expect(orders(faults)).toHaveLength(2);
    expect(orders(faults)[1]!.clientOrderId).not.toBe(req.clientOrderId);
    const entries = (await ordersOf(trade.id)).filter((o) => o.role === 'entry');
    expect(entries.map((o) => o.status).sort()).toEqual(['filled', 'rejected']);
    const lost = { last_error: 'The venue never received this order', last_error_code: 'ORDER_LOST' };
    expect(
      (await errorsOf({ tradeId: trade.id }))
        .filter((o) => o.role === 'entry')
        .sort((a, b) => a.status.localeCompare(b.status)),
    ).toEqual([
      { role: 'entry', status: 'filled', ...NO_ERROR },
      { role: 'entry', status: 'rejected', ...lost, last_error_params: null },
    ]);
  });
});

describe('an entry the venue asks to wait, or refuses', () => {
  it('keeps a rate limit with its code while it waits, and clears it once the entry is sent again', async () => {
    const { accountId, gateway, faults } = await paperWithFaults();
    const { supervisor } = t.app.services.engine;
    const req = openRequest(accountId, {
      plan: { takeProfits: [], stopLossPercent: '1', breakEvenAfterTp1: false },
    });
    faults.inject('createOrder', 'rateLimited');
    await expect(supervisor.managedLifecycle.open(gateway, req)).rejects.toThrow();
    expect(await errorsOf({ clientOrderId: req.clientOrderId })).toEqual([
      {
        role: 'entry',
        status: 'submitted',
        last_error: 'Too many requests',
        last_error_code: 'RATE_LIMITED',
        last_error_params: { reason: 'Too many requests' },
      },
    ]);
    const trade = await supervisor.managedLifecycle.open(gateway, req);
    expect(trade.status).toBe('open');
    expect(await errorsOf({ tradeId: trade.id })).toEqual([{ role: 'entry', status: 'filled', ...NO_ERROR }]);
  });

  it('keeps the paper venue’s refusal of the balance with its code and params', async () => {
    const { accountId, gateway } = await paperWithFaults();
    const { supervisor } = t.app.services.engine;
    // 10 BTC at about 65 000 USDT: far more than the paper account's 10 000 USDT.
    const req = openRequest(accountId, { quantity: '10' });
    await expect(supervisor.managedLifecycle.open(gateway, req)).rejects.toThrow();
    const [entry] = await errorsOf({ clientOrderId: req.clientOrderId });
    expect(entry).toMatchObject({
      role: 'entry',
      status: 'rejected',
      last_error_code: 'INSUFFICIENT_FUNDS',
      last_error_params: { variant: 'balance', asset: 'USDT', needed: expect.any(String) },
    });
    expect(entry!.last_error).toBe(
      `Insufficient USDT: ${entry!.last_error_params!.needed} needed, ${entry!.last_error_params!.available} available`,
    );
  });

  it("says a refused entry's reason with the venue's refusal nested, its code and params, on the error and the trade", async () => {
    const { accountId, gateway } = await paperWithFaults();
    const { supervisor, executor } = t.app.services.engine;
    const req = openRequest(accountId);
    // The venue's answer is a refusal the entry's row keeps (returned, not thrown: the executor's answer is
    // stood in for here), with its code and params as the executor stores them.
    const refusal = {
      lastError: 'Insufficient USDT: 650 needed, 10 available',
      lastErrorCode: 'INSUFFICIENT_FUNDS',
      lastErrorParams: { variant: 'balance', asset: 'USDT', needed: '650', available: '10' },
    };
    vi.spyOn(executor, 'place').mockImplementationOnce(async (_gateway, row) => ({
      order: await t.app.services.repos.trades.updateOrder(row.id, { status: 'rejected', ...refusal }),
    }));
    const refused = await supervisor.managedLifecycle.open(gateway, req).catch((e: unknown) => e);
    // ORDER_REJECTED says the venue's refusal under `reason` (its English, code and params): the web says it
    // in the user's language, not the English alone.
    const params = {
      reason: refusal.lastError,
      'reason.code': 'INSUFFICIENT_FUNDS',
      'reason.variant': 'balance',
      'reason.asset': 'USDT',
      'reason.needed': '650',
      'reason.available': '10',
    };
    expect(refused).toMatchObject({ code: 'ORDER_REJECTED', params });
    expect((refused as Error).message).toBe(refusal.lastError);
    const { rows } = await t.db.pool.query(
      `SELECT t.status, t.error, t.error_code, t.error_params FROM trades t
         JOIN orders o ON o.trade_id = t.id WHERE o.client_order_id = $1`,
      [req.clientOrderId],
    );
    expect(rows).toEqual([
      { status: 'error', error: refusal.lastError, error_code: 'ORDER_REJECTED', error_params: params },
    ]);
  });
});

describe('an order the venue does not find', () => {
  it('is not given up while fresh: the exit waits, the trade stays open and watched', async () => {
    const { accountId, gateway, faults } = await paperWithFaults();
    const { supervisor } = t.app.services.engine;
    const opened = await supervisor.managedLifecycle.open(gateway, openRequest(accountId));
    faults.inject('cancelOrder', 'notFound').inject('fetchOrder', 'notFound');
    await expect(supervisor.closeTrade(opened.id, stopOf(opened.id), 'stop loss', 'stop')).rejects.toThrow(
      /not found by the venue yet/,
    );
    expect((await tradeRow(opened.id)).status).toBe('open');
    expect((await ordersOf(opened.id)).find((o) => o.role === 'tp1')?.status).toBe('open');
    expect(await watched(opened.id)).toBe(true);
  });
});

describe('reconciliation with one bad order', () => {
  it('logs and retries that order, and reconciles the rest of the account', async () => {
    const { accountId, gateway, faults } = await paperWithFaults();
    const { supervisor, reconciler } = t.app.services.engine;
    const a = await supervisor.managedLifecycle.open(gateway, openRequest(accountId));
    const b = await supervisor.managedLifecycle.open(gateway, openRequest(accountId));
    const tpOf = async (id: string) =>
      (await t.app.services.repos.trades.ordersOfTrade(id)).find((o) => o.role === 'tp1')!;
    const [tpA, tpB] = [await tpOf(a.id), await tpOf(b.id)];
    // Both take-profits cancelled at the venue behind Kairos' back; looking up A's fails every time.
    await gateway.cancelOrder(tpA.venueOrderId!, 'BTC/USDT');
    await gateway.cancelOrder(tpB.venueOrderId!, 'BTC/USDT');
    faults.inject('fetchOrder', 'refused', {
      count: Infinity,
      match: (args) => args[0] === tpA.venueOrderId,
    });

    await reconciler.reconcileAccount({ id: accountId }, { sweep: false });
    expect((await tpOf(b.id)).status).toBe('cancelled');
    expect((await tpOf(a.id)).status).toBe('open');
    faults.clear();
    await reconciler.reconcileAccount({ id: accountId }, { sweep: false });
    expect((await tpOf(a.id)).status).toBe('cancelled');
  });
});

describe('sizing with room for the stop', () => {
  const sizing = (fixedAmount: string) => ({
    fixedAmount,
    portfolioPercent: null,
    leveragePercent: '100',
    stableCoin: 'USDT',
  });
  const plan = { takeProfits: [], stopLossPercent: '10', breakEvenAfterTp1: false };

  it('refuses an entry that meets the minimum at its price but not at its stop, and sends nothing', async () => {
    const { accountId, gateway, faults } = await paperWithFaults();
    const req = openRequest(accountId, { quantity: undefined, sizing: sizing('5.2'), plan });
    await expect(t.app.services.engine.supervisor.managedLifecycle.open(gateway, req)).rejects.toThrow(
      /Too small for its stop: at the stop price 58500/,
    );
    expect(faults.sent).toEqual([]);
  });

  it('opens the same entry when it clears the minimum at its stop too', async () => {
    const { accountId, gateway } = await paperWithFaults();
    const req = openRequest(accountId, { quantity: undefined, sizing: sizing('6'), plan });
    const trade = await t.app.services.engine.supervisor.managedLifecycle.open(gateway, req);
    expect(trade.status).toBe('open');
  });
});

describe('a bot stopped with its position', () => {
  it('stays holding (and watched) while its exit is refused, and is out once the exit filled', async () => {
    const { accountId, gateway, faults } = await paperWithFaults();
    const strategy = await t.app.inject({
      method: 'POST',
      url: '/api/strategies',
      headers: { authorization: `Bearer ${alice.apiToken}` },
      payload: { nickname: 'Stop me', tradeCurrency: 'BTC', timeFrame: '1h' },
    });
    const bot = await t.app.inject({
      method: 'POST',
      url: '/api/bots',
      headers: { authorization: `Bearer ${alice.apiToken}` },
      payload: {
        nickname: 'Stopped',
        strategyId: strategy.json().results.id,
        tradingAccountId: accountId,
        fixedAmount: 650,
        isActive: true,
      },
    });
    const botId = bot.json().results.id as string;
    const { supervisor } = t.app.services.engine;
    const opened = await supervisor.managedLifecycle.open(gateway, openRequest(accountId, { botId }));
    await t.app.services.repos.botPositions.setMany([{ botId, position: 'long', tradeId: null }]);

    faults.inject('createOrder', 'refused', { match: isExit });
    await t.app.services.engine.closeBotPosition(botId, 'bot stopped').catch(() => undefined);
    const position = async () =>
      (await t.db.pool.query('SELECT position FROM bots WHERE id = $1', [botId])).rows[0].position;
    expect(await position()).toBe('long');
    expect((await tradeRow(opened.id)).status).toBe('open');
    expect(await watched(opened.id)).toBe(true);

    await sleep(1_100);
    await t.app.services.engine.closeBotPosition(botId, 'bot stopped');
    expect((await tradeRow(opened.id)).status).toBe('closed');
    expect(await position()).toBe('out');
  });
});
