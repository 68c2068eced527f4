import { sql } from 'drizzle-orm';
import { generateDrizzleJson, generateMigration } from 'drizzle-kit/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as paperSchema from '../../src/db/schema/paper';
import { PaperGateway, paperVenueStops } from '../../src/exchange/paper/paper-gateway';
import { createPgPaperLedgerStore } from '../../src/exchange/paper/paper-ledger-pg';
import type { PaperLedgerStore } from '../../src/exchange/paper/paper-ledger-store';
import { Decimal } from '../../src/exchange/decimal';
import { InsufficientFundsError, InvalidOrderError, OrderNotFoundError } from '../../src/exchange/errors';
import { PaperVenue, type PaperStopEvent } from '../../src/exchange/paper/paper-venue';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { ScriptedMarket } from '../fakes/scripted-market';

/**
 * The paper ledger on a real PostgreSQL. Until the paper tables have a migration of their own, the test
 * creates them from the Drizzle schema (the same DDL drizzle-kit would generate).
 */
async function ensurePaperTables(db: TestDatabase['db']) {
  const existing = await db.execute<{ name: string | null }>(sql`SELECT to_regclass('paper_orders') AS name`);
  if (existing.rows[0]?.name) return;
  const statements = await generateMigration(
    generateDrizzleJson({}),
    generateDrizzleJson({ ...paperSchema }),
  );
  for (const statement of statements) await db.execute(sql.raw(statement));
}

async function createPaperAccount(db: TestDatabase['db'], nickname: string): Promise<string> {
  const user = await db.execute<{ id: string }>(
    sql`INSERT INTO users (email, password_hash, preferences)
        VALUES (${`${nickname}-${Date.now()}-${Math.random()}@example.com`}, 'x', '{}'::jsonb) RETURNING id`,
  );
  const account = await db.execute<{ id: string }>(
    sql`INSERT INTO trading_accounts (user_id, nickname, exchange) VALUES (${user.rows[0]!.id}, ${nickname}, 'paper') RETURNING id`,
  );
  return account.rows[0]!.id;
}

/** The store, its batch transactions counted. */
function countingTransactions(store: PaperLedgerStore) {
  const transactions = { count: 0 };
  const counting: PaperLedgerStore = {
    ...store,
    transactMany: ((ids, work) => {
      transactions.count += 1;
      return store.transactMany!(ids, work);
    }) as typeof store.transactMany,
  };
  return { store: counting, transactions };
}

/** The store on `database`, its batch transactions and every statement sent on a transaction's connection counted. */
function countingStatements(database: TestDatabase) {
  let statements = 0;
  const pool = database.db.$client;
  const countingPool = Object.assign(Object.create(pool) as typeof pool, {
    connect: async () => {
      const client = await pool.connect();
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      return Object.assign(Object.create(client) as typeof client, {
        query: (...args: unknown[]) => {
          statements += 1;
          return query(...args);
        },
        release: (error?: Error | boolean) => client.release(error),
      });
    },
  });
  const counted = countingTransactions(
    createPgPaperLedgerStore(
      new Proxy(database.db, {
        get: (target, key) => (key === '$client' ? countingPool : Reflect.get(target, key)),
      }),
    ),
  );
  return { ...counted, statements: () => statements };
}

/** The store, each of its batch transactions failing as a whole (a lost connection). */
function failingBatches(store: PaperLedgerStore): PaperLedgerStore {
  return {
    ...store,
    transactMany: (() => Promise.reject(new Error('connection lost'))) as typeof store.transactMany,
  };
}

/** `count` new paper accounts funded with `funds`, each long 0.05 BTC on futures (client id `<prefix>-entry`). */
async function longAccounts(
  database: TestDatabase,
  paper: PaperVenue,
  prefix: string,
  count: number,
  funds: Record<string, string>,
): Promise<string[]> {
  const ids = await Promise.all(
    Array.from({ length: count }, (_, i) => createPaperAccount(database.db, `${prefix}-${i}`)),
  );
  for (const id of ids) {
    await paper.fundAccount(id, funds);
    await new PaperGateway(paper, id, 'future').createOrder({
      symbol: 'BTC/USDT',
      side: 'buy',
      type: 'market',
      amount: '0.05',
      clientOrderId: `${prefix}-entry`,
    });
  }
  return ids;
}

describe('PaperVenue on PostgreSQL (createPgPaperLedgerStore)', () => {
  let database: TestDatabase;
  let now: number;
  let market: ScriptedMarket;

  const venue = () =>
    new PaperVenue({ store: createPgPaperLedgerStore(database.db), market, clock: () => now });

  beforeAll(async () => {
    database = await createTestDatabase();
    await ensurePaperTables(database.db);
    now = Date.UTC(2026, 0, 5, 12);
    market = new ScriptedMarket(() => now);
  });
  afterAll(() => database?.drop());

  it('keeps balances, orders and fills exact across a restart', async () => {
    const accountId = await createPaperAccount(database.db, 'restart');
    const first = venue();
    expect(await first.fundAccount(accountId, { USDT: '20000' })).toBe(true);
    const gateway = new PaperGateway(first, accountId);
    const buy = await gateway.createOrder({
      symbol: 'BTC/USDT',
      side: 'buy',
      type: 'market',
      amount: '0.25',
      clientOrderId: 'pg-buy',
    });
    expect(buy).toMatchObject({
      status: 'filled',
      average: '65006',
      fee: { cost: '16.2515', currency: 'USDT' },
    });
    const sell = await gateway.createOrder({
      symbol: 'BTC/USDT',
      side: 'sell',
      type: 'limit',
      amount: '0.1',
      price: '65100.00',
      clientOrderId: 'pg-tp',
      reduceOnly: true,
    });

    // A new process: same database, fresh objects.
    const restarted = new PaperGateway(venue(), accountId);
    expect(await restarted.fetchBalances()).toEqual({
      BTC: { free: '0.15', used: '0.1', total: '0.25' },
      USDT: { free: '3732.2485', used: '0', total: '3732.2485' },
    });
    expect((await restarted.fetchOpenOrders()).map((o) => o.clientOrderId)).toEqual(['pg-tp']);
    expect((await restarted.fetchMyTrades('BTC/USDT')).map((f) => [f.price, f.amount, f.fee])).toEqual([
      ['65000', '0.1', '6.5'],
      ['65010', '0.15', '9.7515'],
    ]);

    now += 60_000;
    market.moveTo('65150');
    expect(await restarted.fetchOrder(sell.venueOrderId, 'BTC/USDT')).toMatchObject({
      status: 'filled',
      fee: { cost: '6.51' },
      reduceOnly: true,
    });
    expect((await restarted.fetchBalances())['USDT']).toEqual({
      free: '10235.7385',
      used: '0',
      total: '10235.7385',
    });
  });

  it('places one order for one client order id, even from two processes at once', async () => {
    const accountId = await createPaperAccount(database.db, 'race');
    await venue().fundAccount(accountId, { USDT: '20000' });
    const processes = [venue(), venue()];
    const request = {
      symbol: 'BTC/USDT',
      side: 'buy' as const,
      type: 'market' as const,
      amount: '0.1',
      clientOrderId: 'same-id',
    };
    const orders = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        new PaperGateway(processes[i % 2]!, accountId).createOrder(request),
      ),
    );
    expect(new Set(orders.map((o) => o.venueOrderId)).size).toBe(1);
    const balances = await new PaperGateway(venue(), accountId).fetchBalances();
    expect(balances['BTC']!.total).toBe('0.1');
    expect(balances['USDT']!.total).toBe('13493.5');
  });

  it('lists accounts with resting orders for the matching tick, and cancels back to the cent', async () => {
    const accountId = await createPaperAccount(database.db, 'tick');
    const paper = venue();
    await paper.fundAccount(accountId, { USDT: '1000' });
    const gateway = new PaperGateway(paper, accountId);
    const order = await gateway.createOrder({
      symbol: 'BTC/USDT',
      side: 'buy',
      type: 'limit',
      amount: '0.01',
      price: '60000.00',
      clientOrderId: 'rest',
    });
    expect(await createPgPaperLedgerStore(database.db).accountsWithOpenOrders()).toContain(accountId);
    expect((await gateway.fetchBalances())['USDT']).toEqual({ free: '399.4', used: '600.6', total: '1000' });
    await gateway.cancelOrder(order.venueOrderId, 'BTC/USDT');
    expect((await gateway.fetchBalances())['USDT']).toEqual({ free: '1000', used: '0', total: '1000' });
    expect(await createPgPaperLedgerStore(database.db).accountsWithOpenOrders()).not.toContain(accountId);
  });

  it('fills several resting orders in one pass and writes them together with their fills and balances', async () => {
    const accountId = await createPaperAccount(database.db, 'several');
    const paper = venue();
    await paper.fundAccount(accountId, { USDT: '10000' });
    const gateway = new PaperGateway(paper, accountId);
    const limit = (price: string, clientOrderId: string) =>
      gateway.createOrder({
        symbol: 'BTC/USDT',
        side: 'buy',
        type: 'limit',
        amount: '0.01',
        price,
        clientOrderId,
      });
    await limit('64000.00', 'dip-1');
    await limit('63000.00', 'dip-2');
    expect((await gateway.fetchBalances())['USDT']).toEqual({
      free: '8728.73',
      used: '1271.27',
      total: '10000',
    });

    now += 60_000;
    market.moveTo('62000');
    // Balances with orders resting: matched first, in the same transaction.
    expect(await gateway.fetchBalances()).toEqual({
      BTC: { free: '0.02', used: '0', total: '0.02' },
      USDT: { free: '8728.73', used: '0', total: '8728.73' },
    });
    const fills = await gateway.fetchMyTrades('BTC/USDT');
    expect(fills.map((f) => [f.price, f.amount, f.takerOrMaker])).toEqual([
      ['64000', '0.01', 'maker'],
      ['63000', '0.01', 'maker'],
    ]);
    expect(await gateway.fetchOpenOrders()).toEqual([]);
  });

  it('keeps futures positions and leverage', async () => {
    const accountId = await createPaperAccount(database.db, 'futures');
    await venue().fundAccount(accountId, { USDT: '5000' });
    const futures = new PaperGateway(venue(), accountId, 'future');
    await futures.setLeverage('BTC/USDT', 3);
    await futures.createOrder({
      symbol: 'BTC/USDT',
      side: 'sell',
      type: 'market',
      amount: '0.1',
      clientOrderId: 'short',
    });
    const positions = await new PaperGateway(venue(), accountId, 'future').fetchPositions();
    // Sold 0.1 at the best bid 64990; margin 6499 / 3 rounded up at 12 decimals.
    expect(positions).toMatchObject([{ side: 'short', amount: '0.1', entryPrice: '64990', leverage: '3' }]);
    expect((await futures.fetchBalances())['USDT']).toEqual({
      free: '2827.167666666666',
      used: '2166.333333333334',
      total: '4993.501',
    });
  });

  it('places orders asked for at once in one transaction over their accounts, refusing only the one that cannot pay', async () => {
    const [rich, poor, other, margin] = await Promise.all(
      ['batch-rich', 'batch-poor', 'batch-other', 'batch-futures'].map((n) =>
        createPaperAccount(database.db, n),
      ),
    );
    const { store: counting, transactions } = countingTransactions(createPgPaperLedgerStore(database.db));
    const batched = new PaperVenue({ store: counting, market, clock: () => now });
    await batched.fundAccount(rich!, { USDT: '20000' });
    await batched.fundAccount(poor!, { USDT: '10' });
    await batched.fundAccount(other!, { USDT: '20000' });
    await batched.fundAccount(margin!, { USDT: '10000' });
    const fills: string[] = [];
    batched.events.on('fill', (e) => fills.push(e.fill.venueOrderId));
    const buy = (accountId: string, clientOrderId: string, marketType: 'spot' | 'future' = 'spot') =>
      new PaperGateway(batched, accountId, marketType)
        .createOrder({ symbol: 'BTC/USDT', side: 'buy', type: 'market', amount: '0.1', clientOrderId })
        .catch((e: unknown) => e);
    const [a1, a2, b1, c1, again, d1] = await Promise.all([
      buy(rich!, 'a1'),
      buy(rich!, 'a2'),
      buy(poor!, 'b1'),
      buy(other!, 'c1'),
      buy(rich!, 'a1'),
      buy(margin!, 'd1', 'future'),
    ]);
    expect(transactions.count).toBe(1);
    expect(a1).toMatchObject({ status: 'filled', filled: '0.1', clientOrderId: 'a1' });
    expect(a2).toMatchObject({ status: 'filled', filled: '0.1', clientOrderId: 'a2' });
    expect(c1).toMatchObject({ status: 'filled', filled: '0.1' });
    expect(d1).toMatchObject({ status: 'filled', filled: '0.1' });
    expect(b1).toBeInstanceOf(InsufficientFundsError);
    // The same client order id twice is one order.
    expect((again as { venueOrderId: string }).venueOrderId).toBe(
      (a1 as { venueOrderId: string }).venueOrderId,
    );
    expect(fills).toHaveLength(4);

    const reread = (accountId: string, marketType: 'spot' | 'future' = 'spot') =>
      new PaperGateway(venue(), accountId, marketType);
    expect((await reread(rich!).fetchBalances())['BTC']!.total).toBe('0.2');
    expect((await reread(other!).fetchBalances())['BTC']!.total).toBe('0.1');
    // The refused order changed nothing, and left no empty balance behind.
    expect(await reread(poor!).fetchBalances()).toEqual({ USDT: { free: '10', used: '0', total: '10' } });
    expect(await reread(poor!).fetchMyTrades('BTC/USDT')).toEqual([]);
    expect(await reread(margin!, 'future').fetchPositions()).toMatchObject([{ side: 'long', amount: '0.1' }]);
  });

  it('keeps futures stops across a restart, and triggers the one the price went through meanwhile at the first pass', async () => {
    const accountId = await createPaperAccount(database.db, 'stops');
    const book = market.book;
    now += 60_000;
    market.moveTo('65000');
    try {
      const first = venue();
      await first.fundAccount(accountId, { USDT: '20000' });
      const gateway = new PaperGateway(first, accountId, 'future');
      await gateway.createOrder({
        symbol: 'BTC/USDT',
        side: 'buy',
        type: 'market',
        amount: '0.1',
        clientOrderId: 'stop-entry',
      });
      const stop = await gateway.stops!.placeStop({
        symbol: 'BTC/USDT',
        side: 'sell',
        amount: '0.1',
        triggerPrice: '64000.00',
        clientOrderId: 'stop-sl',
      });
      const untouched = await gateway.stops!.placeStop({
        symbol: 'BTC/USDT',
        side: 'sell',
        amount: '0.1',
        triggerPrice: '60000.00',
        clientOrderId: 'stop-far',
      });
      expect(await createPgPaperLedgerStore(database.db).accountsWithOpenOrders()).toContain(accountId);

      // Kairos stops. Meanwhile the price dips through the stop and comes back above it.
      now += 5 * 60_000;
      market.moveTo('63900');
      const crossedAt = now;
      now += 5 * 60_000;
      market.moveTo('64500');
      market.book = {
        bids: [[new Decimal('63890.00'), new Decimal('1')]],
        asks: [[new Decimal('63910.00'), new Decimal('1')]],
      };

      // A new process on the same database: its first matching pass replays the path it missed.
      const restarted = venue();
      const stopEvents: PaperStopEvent[] = [];
      restarted.events.on('stop', (event) => stopEvents.push(event));
      await restarted.matchAll();
      expect(stopEvents.map((e) => [e.stop.clientOrderId, e.stop.status])).toEqual([
        ['stop-sl', 'triggered'],
      ]);

      const again = new PaperGateway(venue(), accountId, 'future');
      const triggered = await again.stops!.fetchStopByClientId('stop-sl', 'BTC/USDT');
      expect(triggered).toMatchObject({
        venueOrderId: stop.venueOrderId,
        status: 'triggered',
        amount: '0.1',
        triggerPrice: '64000',
      });
      expect(await again.fetchOrder(triggered.triggeredOrderId!, 'BTC/USDT')).toMatchObject({
        type: 'market',
        status: 'filled',
        filled: '0.1',
        average: '63890',
        fee: { cost: '6.389', currency: 'USDT' },
        reduceOnly: true,
        timestamp: crossedAt,
      });
      const fills = await again.fetchOrderFills(triggered.triggeredOrderId!, 'BTC/USDT');
      expect(fills.map((f) => [f.price, f.amount, f.fee, f.timestamp])).toEqual([
        ['63890', '0.1', '6.389', crossedAt],
      ]);
      expect(await again.fetchPositions()).toEqual([]);
      // Margin 6500 back, PnL −111, fees 6.5 + 6.389.
      expect((await again.fetchBalances())['USDT']).toEqual({
        free: '19876.111',
        used: '0',
        total: '19876.111',
      });
      // The far stop still rests (nothing left to reduce: it expires when its trigger is crossed).
      expect(await again.stops!.fetchStop(untouched.venueOrderId, 'BTC/USDT')).toMatchObject({
        status: 'open',
      });
      expect(await again.stops!.cancelStop(untouched.venueOrderId, 'BTC/USDT')).toMatchObject({
        status: 'cancelled',
      });
      expect(await createPgPaperLedgerStore(database.db).accountsWithOpenOrders()).not.toContain(accountId);
      // Stops are not open orders.
      expect(await again.fetchOpenOrders()).toEqual([]);
    } finally {
      market.book = book;
    }
  });

  it('reads resting orders and stops together for a pass: the take-profit the path reached first fills before the stop', async () => {
    const accountId = await createPaperAccount(database.db, 'resting');
    now += 60_000;
    market.moveTo('65000');
    const paper = venue();
    await paper.fundAccount(accountId, { USDT: '20000' });
    const gateway = new PaperGateway(paper, accountId, 'future');
    await gateway.createOrder({
      symbol: 'BTC/USDT',
      side: 'buy',
      type: 'market',
      amount: '0.2',
      clientOrderId: 'resting-entry',
    });
    const tp = await gateway.createOrder({
      symbol: 'BTC/USDT',
      side: 'sell',
      type: 'limit',
      amount: '0.1',
      price: '65500.00',
      reduceOnly: true,
      clientOrderId: 'resting-tp',
    });
    const stop = await gateway.stops!.placeStop({
      symbol: 'BTC/USDT',
      side: 'sell',
      amount: '0.2',
      triggerPrice: '64000.00',
      clientOrderId: 'resting-sl',
    });
    expect(await gateway.fetchOpenOrders()).toMatchObject([{ venueOrderId: tp.venueOrderId }]);

    now += 60_000;
    market.moveTo('65600');
    now += 60_000;
    market.moveTo('63900');
    await paper.matchAll();

    expect(await gateway.fetchOrder(tp.venueOrderId, 'BTC/USDT')).toMatchObject({
      status: 'filled',
      average: '65500',
    });
    const triggered = await gateway.stops!.fetchStop(stop.venueOrderId, 'BTC/USDT');
    expect(triggered.status).toBe('triggered');
    expect(await gateway.fetchOrder(triggered.triggeredOrderId!, 'BTC/USDT')).toMatchObject({
      status: 'filled',
      amount: '0.1',
      filled: '0.1',
    });
    expect(await gateway.fetchPositions()).toEqual([]);
    expect(await createPgPaperLedgerStore(database.db).accountsWithOpenOrders()).not.toContain(accountId);
  });

  it('keeps spot stop-limits across a restart: the reservation, the limit price, and the limit order once triggered', async () => {
    const accountId = await createPaperAccount(database.db, 'spot-stops');
    const book = market.book;
    now += 60_000;
    market.moveTo('65000');
    try {
      const first = venue();
      await first.fundAccount(accountId, { USDT: '1000', BTC: '0.3' });
      const stops = paperVenueStops(first, accountId, 'spot');
      const request = {
        symbol: 'BTC/USDT',
        side: 'sell' as const,
        amount: '0.2',
        triggerPrice: '64000.00',
        limitPrice: '63700.00',
        clientOrderId: 'spot-sl',
      };
      const stop = await stops.placeStop(request);
      expect(stop).toMatchObject({ status: 'open', limitPrice: '63700', triggeredOrderId: null });
      const cancelMe = await stops.placeStop({ ...request, amount: '0.1', clientOrderId: 'spot-cancel' });
      expect(await stops.cancelStop(cancelMe.venueOrderId, 'BTC/USDT')).toMatchObject({
        status: 'cancelled',
        limitPrice: '63700',
      });

      const reread = () => new PaperGateway(venue(), accountId, 'spot');
      expect((await reread().fetchBalances())['BTC']).toEqual({ free: '0.1', used: '0.2', total: '0.3' });
      expect(
        await paperVenueStops(venue(), accountId, 'spot').fetchStopByClientId('spot-sl', 'BTC/USDT'),
      ).toEqual(stop);

      // Kairos stops; the price goes through the trigger, the bid still above the limit.
      now += 5 * 60_000;
      market.moveTo('63900');
      market.book = {
        bids: [[new Decimal('63890.00'), new Decimal('1')]],
        asks: [[new Decimal('63910.00'), new Decimal('1')]],
      };
      await venue().matchAll();
      const triggered = await paperVenueStops(venue(), accountId, 'spot').fetchStop(
        stop.venueOrderId,
        'BTC/USDT',
      );
      expect(triggered).toMatchObject({ status: 'triggered', limitPrice: '63700' });
      expect(await reread().fetchOrder(triggered.triggeredOrderId!, 'BTC/USDT')).toMatchObject({
        type: 'limit',
        price: '63700',
        status: 'filled',
        average: '63890',
      });
      expect(await reread().fetchBalances()).toEqual({
        BTC: { free: '0.1', used: '0', total: '0.1' },
        USDT: { free: '13765.222', used: '0', total: '13765.222' },
      });
      expect(await createPgPaperLedgerStore(database.db).accountsWithOpenOrders()).not.toContain(accountId);
    } finally {
      market.book = book;
    }
  });

  it('places stops asked for at once in one transaction over their accounts, in as many statements however many they are', async () => {
    const counted = countingStatements(database);
    const { store: counting, transactions } = counted;
    const batched = new PaperVenue({ store: counting, market, clock: () => now });
    now += 60_000;
    market.moveTo('65000');

    const accounts = (prefix: string, count: number) =>
      longAccounts(database, batched, prefix, count, { USDT: '20000', BTC: '0.1' });
    const stop = (
      accountId: string,
      marketType: 'spot' | 'future',
      clientOrderId: string,
      triggerPrice = '64000.00',
    ) =>
      paperVenueStops(batched, accountId, marketType)
        .placeStop({
          symbol: 'BTC/USDT',
          side: 'sell',
          amount: '0.05',
          triggerPrice,
          ...(marketType === 'spot' ? { limitPrice: '63700.00' } : {}),
          clientOrderId,
        })
        .catch((e: unknown) => e);

    const small = await accounts('stop-batch-small', 2);
    const before = { transactions: transactions.count, statements: counted.statements() };
    const answers = await Promise.all([
      stop(small[0]!, 'future', 'sl-a'),
      stop(small[1]!, 'future', 'sl-b'),
      stop(small[0]!, 'spot', 'sl-spot'),
      stop(small[1]!, 'future', 'sl-through', '65500.00'),
    ]);
    expect(transactions.count - before.transactions).toBe(1);
    const smallStatements = counted.statements() - before.statements;
    // BEGIN with the locks, two reads, the orders' write (the spot stop-limit's order), the stops', COMMIT.
    expect(smallStatements).toBe(6);
    expect(answers[0]).toMatchObject({ clientOrderId: 'sl-a', status: 'open', limitPrice: null });
    expect(answers[1]).toMatchObject({ clientOrderId: 'sl-b', status: 'open' });
    expect(answers[2]).toMatchObject({ clientOrderId: 'sl-spot', status: 'open', limitPrice: '63700' });
    expect(answers[3]).toBeInstanceOf(InvalidOrderError);
    // The same client id again, in a batch (placed alone after it), is the same stop.
    const [dup, other] = await Promise.all([
      stop(small[0]!, 'future', 'sl-a'),
      stop(small[1]!, 'spot', 'sl-c'),
    ]);
    expect((dup as { venueOrderId: string }).venueOrderId).toBe(
      (answers[0] as { venueOrderId: string }).venueOrderId,
    );
    expect(other).toMatchObject({ clientOrderId: 'sl-c', status: 'open' });
    const reread = (accountId: string, marketType: 'spot' | 'future') =>
      paperVenueStops(venue(), accountId, marketType);
    expect(await reread(small[0]!, 'spot').fetchStopByClientId('sl-spot', 'BTC/USDT')).toEqual(answers[2]);
    expect(await reread(small[1]!, 'future').fetchStopByClientId('sl-b', 'BTC/USDT')).toEqual(answers[1]);
    await expect(
      reread(small[1]!, 'future').fetchStopByClientId('sl-through', 'BTC/USDT'),
    ).rejects.toBeInstanceOf(OrderNotFoundError);
    // The spot stop-limit holds the coins it sells.
    expect((await new PaperGateway(venue(), small[0]!, 'spot').fetchBalances())['BTC']).toEqual({
      free: '0.05',
      used: '0.05',
      total: '0.1',
    });

    // Three times as many stops over three times as many accounts: one transaction, as many statements.
    const large = await accounts('stop-batch-large', 6);
    const again = { transactions: transactions.count, statements: counted.statements() };
    const many = await Promise.all(
      large.flatMap((id, i) => [stop(id, 'future', `sl-l${i}`), stop(id, 'spot', `sl-ls${i}`)]),
    );
    expect(transactions.count - again.transactions).toBe(1);
    expect(counted.statements() - again.statements).toBe(smallStatements);
    expect(many.filter((answer) => answer instanceof Error)).toEqual([]);
    expect(many.map((answer) => (answer as { status: string }).status)).toEqual(many.map(() => 'open'));
  });

  it('places each stop of a batch that failed as a whole on its own', async () => {
    const failing = failingBatches(createPgPaperLedgerStore(database.db));
    const paper = new PaperVenue({ store: failing, market, clock: () => now });
    const ids = await Promise.all([1, 2].map((i) => createPaperAccount(database.db, `stop-failed-${i}`)));
    for (const id of ids) await paper.fundAccount(id, { BTC: '0.1' });
    const answers = await Promise.all(
      ids.map((id, i) =>
        paperVenueStops(paper, id, 'spot')
          .placeStop({
            symbol: 'BTC/USDT',
            side: 'sell',
            amount: i === 0 ? '0.05' : '0.5',
            triggerPrice: '64000.00',
            limitPrice: '63700.00',
            clientOrderId: 'alone',
          })
          .catch((e: unknown) => e),
      ),
    );
    expect(answers[0]).toMatchObject({ status: 'open', clientOrderId: 'alone' });
    expect(answers[1]).toBeInstanceOf(InsufficientFundsError);
  });

  it("matches the tick's accounts in one transaction a group, in as many statements however many they are", async () => {
    const counted = countingStatements(database);
    // This test's accounts only: what earlier tests left resting would make the count theirs.
    const ours = new Set<string>();
    const store: PaperLedgerStore = {
      ...counted.store,
      accountsWithOpenOrders: async () =>
        (await counted.store.accountsWithOpenOrders()).filter((id) => ours.has(id)),
    };
    const batched = new PaperVenue({ store, market, clock: () => now });
    now += 60_000;
    market.moveTo('65000');
    /** `count` futures accounts, each long 0.05 BTC with a take-profit resting at 65,500. */
    async function withTakeProfits(prefix: string, count: number) {
      const ids = await longAccounts(database, batched, prefix, count, { USDT: '20000' });
      for (const id of ids) {
        ours.add(id);
        await new PaperGateway(batched, id, 'future').createOrder({
          symbol: 'BTC/USDT',
          side: 'sell',
          type: 'limit',
          amount: '0.05',
          price: '65500.00',
          reduceOnly: true,
          clientOrderId: `${prefix}-tp`,
        });
      }
      return ids;
    }
    const filledBy = (fills: { accountId: string }[], ids: string[]) =>
      ids.map((id) => fills.filter((fill) => fill.accountId === id).length);
    const fills: { accountId: string }[] = [];
    batched.events.on('fill', (event: { accountId: string }) => fills.push(event));

    const small = await withTakeProfits('tick-small', 2);
    now += 60_000;
    market.moveTo('65600');
    const before = { transactions: counted.transactions.count, statements: counted.statements() };
    fills.length = 0; // the entries'
    await batched.matchAll();
    expect(counted.transactions.count - before.transactions).toBe(1);
    const smallStatements = counted.statements() - before.statements;
    // BEGIN with the locks, the two reads of what the accounts hold, the orders' and fills' write, the
    // positions', COMMIT.
    expect(smallStatements).toBe(6);
    expect(filledBy(fills, small)).toEqual([1, 1]);
    for (const id of small) {
      expect(
        await new PaperGateway(venue(), id, 'future').fetchOrderByClientId('tick-small-tp', 'BTC/USDT'),
      ).toMatchObject({ status: 'filled', average: '65500', filled: '0.05' });
      expect(await new PaperGateway(venue(), id, 'future').fetchPositions()).toEqual([]);
    }

    // Four times as many accounts: one transaction, as many statements; each filled once.
    market.moveTo('65000');
    const large = await withTakeProfits('tick-large', 8);
    now += 60_000;
    market.moveTo('65600');
    const again = { transactions: counted.transactions.count, statements: counted.statements() };
    fills.length = 0;
    await batched.matchAll();
    expect(counted.transactions.count - again.transactions).toBe(1);
    expect(counted.statements() - again.statements).toBe(smallStatements);
    expect(filledBy(fills, [...small, ...large])).toEqual([0, 0, ...large.map(() => 1)]);
  });

  it('matches the accounts of a group that failed as a whole one at a time', async () => {
    const failing = failingBatches(createPgPaperLedgerStore(database.db));
    const paper = new PaperVenue({ store: failing, market, clock: () => now });
    now += 60_000;
    market.moveTo('65000');
    const id = await createPaperAccount(database.db, 'tick-failed');
    await paper.fundAccount(id, { USDT: '20000' });
    const gateway = new PaperGateway(paper, id, 'future');
    await gateway.createOrder({
      symbol: 'BTC/USDT',
      side: 'buy',
      type: 'market',
      amount: '0.05',
      clientOrderId: 'tick-failed-entry',
    });
    await gateway.createOrder({
      symbol: 'BTC/USDT',
      side: 'sell',
      type: 'limit',
      amount: '0.05',
      price: '65500.00',
      reduceOnly: true,
      clientOrderId: 'tick-failed-tp',
    });
    now += 60_000;
    market.moveTo('65600');
    await paper.matchAll();
    expect(
      await new PaperGateway(venue(), id, 'future').fetchOrderByClientId('tick-failed-tp', 'BTC/USDT'),
    ).toMatchObject({ status: 'filled', average: '65500' });
  });
});
