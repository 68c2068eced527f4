import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Decimal } from '../../src/exchange/decimal';
import { PaperGateway } from '../../src/exchange/paper/paper-gateway';
import { createPgPaperLedgerStore } from '../../src/exchange/paper/paper-ledger-pg';
import type { PaperLedger, PaperLedgerStore } from '../../src/exchange/paper/paper-ledger-store';
import { PaperVenue } from '../../src/exchange/paper/paper-venue';
import { InMemoryPaperLedgerStore } from '../fakes/in-memory-paper-ledger';
import { ScriptedMarket } from '../fakes/scripted-market';
import { createTestDatabase, type TestDatabase } from '../support/db';

const HOUR = 3_600_000;
/** 2026-01-05 00:00 UTC: a funding time. */
const DAY = Date.UTC(2026, 0, 5);

let database: TestDatabase | undefined;

async function pgAccount(db: TestDatabase['db']): Promise<string> {
  const user = await db.execute<{ id: string }>(
    sql`INSERT INTO users (email, password_hash, preferences)
        VALUES (${`funding-${Date.now()}-${Math.random()}@example.com`}, 'x', '{}'::jsonb) RETURNING id`,
  );
  const account = await db.execute<{ id: string }>(
    sql`INSERT INTO trading_accounts (user_id, nickname, exchange, market_type)
        VALUES (${user.rows[0]!.id}, 'Paper futures', 'paper', 'future') RETURNING id`,
  );
  return account.rows[0]!.id;
}

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});

/**
 * Issue 19: the paper venue charges funding on futures as Binance USD-M does — at 00:00, 08:00 and 16:00 UTC
 * on the position held then, 0.01 % of its notional at the venue's price (a long pays, a short receives) —
 * and lists the payments in `fetchFundingHistory`, the shape the real venues' gateways answer.
 */
describe.each([
  ['in memory', async () => ({ store: new InMemoryPaperLedgerStore() as PaperLedgerStore, id: 'fut' })],
  [
    'on PostgreSQL',
    async () => ({ store: createPgPaperLedgerStore(database!.db), id: await pgAccount(database!.db) }),
  ],
])('paper futures funding (%s)', (_name, makeStore) => {
  let now: number;
  let market: ScriptedMarket;
  let futures: PaperGateway;
  let spot: PaperGateway;

  const order = (side: 'buy' | 'sell', amount: string, clientOrderId: string, reduceOnly = false) =>
    futures.createOrder({ symbol: 'BTC/USDT', side, type: 'market', amount, clientOrderId, reduceOnly });
  const total = async () => new Decimal((await futures.fetchBalances())['USDT']!.total);

  beforeEach(async () => {
    now = DAY + 1 * HOUR;
    const { store, id } = await makeStore();
    market = new ScriptedMarket(() => now);
    const venue = new PaperVenue({ store, market, clock: () => now });
    await venue.fundAccount(id, { USDT: '10000' });
    futures = new PaperGateway(venue, id, 'future');
    spot = new PaperGateway(venue, id, 'spot');
  });

  it('a long held across two funding times pays twice; the balance moves by PnL − fees + funding', async () => {
    await order('buy', '0.1', 'open'); // at 65000 (the ask), fee 6.5
    now = DAY + 8 * HOUR + 60_000; // past 08:00: read, the payment is made
    expect(await futures.fetchFundingHistory('BTC/USDT')).toEqual([
      {
        id: `funding-BTC/USDT-${DAY + 8 * HOUR}`,
        symbol: 'BTC/USDT',
        amount: '-0.65', // 0.1 × 65000 × 0.0001
        currency: 'USDT',
        timestamp: DAY + 8 * HOUR,
      },
    ]);
    expect((await total()).toFixed()).toBe('9992.85'); // 10000 − 6.5 − 0.65

    market.mid = new Decimal('66000');
    now = DAY + 17 * HOUR; // past 16:00, nothing read in between: paid when the position changes
    market.book.bids = [[new Decimal('66000'), new Decimal('1')]];
    await order('sell', '0.1', 'close', true); // +100 PnL, fee 6.6
    const history = await futures.fetchFundingHistory('BTC/USDT');
    expect(history.map((p) => [p.timestamp, p.amount])).toEqual([
      [DAY + 8 * HOUR, '-0.65'],
      [DAY + 16 * HOUR, '-0.66'], // 0.1 × 66000 × 0.0001
    ]);
    const fills = await futures.fetchMyTrades('BTC/USDT');
    const pnl = new Decimal('0.1').times(66000 - 65000);
    const fees = fills.reduce((s, f) => s.plus(f.fee), new Decimal(0));
    const funding = history.reduce((s, p) => s.plus(p.amount), new Decimal(0));
    expect((await total()).minus(10000).toFixed()).toBe(pnl.minus(fees).plus(funding).toFixed());

    // Flat now: the next funding times charge nothing, and nothing is paid twice.
    now = DAY + 48 * HOUR;
    expect(await futures.fetchFundingHistory('BTC/USDT')).toHaveLength(2);
    expect(await futures.fetchFundingHistory('BTC/USDT', DAY + 9 * HOUR)).toHaveLength(1);
    expect(await futures.fetchPositions()).toEqual([]);
  });

  it('a position opened after a funding time pays nothing for it; a short receives', async () => {
    now = DAY + 8 * HOUR + 1; // just after 08:00
    await order('sell', '0.1', 'short'); // at 64990 (the bid)
    now = DAY + 15 * HOUR;
    expect(await futures.fetchFundingHistory('BTC/USDT')).toEqual([]);
    now = DAY + 16 * HOUR;
    expect((await futures.fetchFundingHistory('BTC/USDT')).map((p) => p.amount)).toEqual(['0.65']);
    // Read again at the same time and later within the period: paid once.
    now = DAY + 23 * HOUR;
    await futures.fetchBalances();
    expect(await futures.fetchFundingHistory('BTC/USDT')).toHaveLength(1);
  });

  it('a spot account lists no funding', async () => {
    expect(await spot.fetchFundingHistory('BTC/USDT')).toEqual([]);
  });
});

describe('reading a paper futures account that holds a position', () => {
  it('needs no transaction until a funding time has passed since the position last changed', async () => {
    let now = DAY + 1 * HOUR;
    const store = new InMemoryPaperLedgerStore();
    const market = new ScriptedMarket(() => now);
    const venue = new PaperVenue({ store, market, clock: () => now });
    await venue.fundAccount('idle', { USDT: '10000' });
    const futures = new PaperGateway(venue, 'idle', 'future');
    await futures.createOrder({
      symbol: 'BTC/USDT',
      side: 'buy',
      type: 'market',
      amount: '0.1',
      clientOrderId: 'hold',
    });
    const before = store.transactions;
    now = DAY + 7 * HOUR;
    await futures.fetchBalances();
    await futures.fetchPositions();
    expect(store.transactions).toBe(before); // nothing due: plain reads
    now = DAY + 8 * HOUR;
    expect((await futures.fetchBalances())['USDT']!.total).toBe('9992.85'); // settled in a transaction
    expect(store.transactions).toBe(before + 1);
    await futures.fetchBalances();
    expect(store.transactions).toBe(before + 1); // settled up to 08:00: plain again
  });
});

describe('the matching passes of a paper futures account with a resting stop', () => {
  it('read its positions once per funding period, and settle each funding time once', async () => {
    let now = DAY + 1 * HOUR;
    const inner = new InMemoryPaperLedgerStore();
    let positionReads = 0;
    const counting = (ledger: PaperLedger): PaperLedger =>
      new Proxy(ledger, {
        get(target, key) {
          if (key === 'positions') positionReads += 1;
          const value = Reflect.get(target, key) as unknown;
          return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        },
      });
    const store: PaperLedgerStore = {
      transact: (id, work) => inner.transact(id, (ledger) => work(counting(ledger))),
      read: (id, work) => inner.read(id, work),
      accountsWithOpenOrders: () => inner.accountsWithOpenOrders(),
    };
    const market = new ScriptedMarket(() => now);
    const venue = new PaperVenue({ store, market, clock: () => now });
    await venue.fundAccount('ticked', { USDT: '10000' });
    const futures = new PaperGateway(venue, 'ticked', 'future');
    await futures.createOrder({
      symbol: 'BTC/USDT',
      side: 'buy',
      type: 'market',
      amount: '0.1',
      clientOrderId: 'p',
    });
    await futures.stops!.placeStop({
      symbol: 'BTC/USDT',
      side: 'sell',
      amount: '0.1',
      triggerPrice: '60000',
      clientOrderId: 'guard',
    });

    const reads = async (passes: number) => {
      const before = positionReads;
      for (let i = 0; i < passes; i++) await venue.matchAll();
      return positionReads - before;
    };
    now = DAY + 2 * HOUR;
    expect(await reads(3)).toBe(0); // settled up to 00:00 when the stop was placed: nothing due
    now = DAY + 8 * HOUR + 1_000;
    expect(await reads(3)).toBe(1); // 08:00 passed: settled once
    now = DAY + 9 * HOUR;
    expect(await reads(2)).toBe(0);
    expect((await futures.fetchFundingHistory('BTC/USDT')).map((p) => [p.timestamp, p.amount])).toEqual([
      [DAY + 8 * HOUR, '-0.65'],
    ]);
  });
});
