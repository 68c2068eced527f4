import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Decimal } from '../../src/exchange/decimal';
import { PaperGateway } from '../../src/exchange/paper/paper-gateway';
import { createPgPaperLedgerStore } from '../../src/exchange/paper/paper-ledger-pg';
import { PaperVenue } from '../../src/exchange/paper/paper-venue';
import { ScriptedMarket } from '../fakes/scripted-market';
import { createTestDatabase, type TestDatabase } from '../support/db';

/** 2026-01-05 01:00 UTC: an hour after a funding time. */
const START = Date.UTC(2026, 0, 5, 1);

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

/** A paper futures account's row (the PostgreSQL ledger keys on it). */
async function futuresAccount(): Promise<string> {
  const user = await database.db.execute<{ id: string }>(
    sql`INSERT INTO users (email, password_hash, preferences)
        VALUES (${`liquidation-${Math.random()}@example.com`}, 'x', '{}'::jsonb) RETURNING id`,
  );
  const account = await database.db.execute<{ id: string }>(
    sql`INSERT INTO trading_accounts (user_id, nickname, exchange, market_type)
        VALUES (${user.rows[0]!.id}, 'Paper futures', 'paper', 'future') RETURNING id`,
  );
  return account.rows[0]!.id;
}

/**
 * Issue 19: the paper venue liquidates a futures position its margin no longer holds — margin balance below
 * 0.4 % of its notional at entry — at the mark price — closing it at the mark price with an order of its own
 * (`liquidation-…`, flagged `liquidation` as ccxt venues flag theirs), cancelling the position's resting stops
 * (as Binance expires a liquidated position's stop orders: the stop did not fire), and
 * taking a loss beyond the wallet itself: the account's USDT never goes below zero.
 */
describe('paper futures liquidation', () => {
  let now: number;
  let market: ScriptedMarket;
  let venue: PaperVenue;
  let futures: PaperGateway;
  let id: string;

  const usdt = async () => new Decimal((await futures.fetchBalances())['USDT']!.total);
  const long = (amount: string) =>
    futures.createOrder({ symbol: 'BTC/USDT', side: 'buy', type: 'market', amount, clientOrderId: 'entry' });

  beforeEach(async () => {
    now = START;
    market = new ScriptedMarket(() => now);
    venue = new PaperVenue({ store: createPgPaperLedgerStore(database.db), market, clock: () => now });
    id = await futuresAccount();
    await venue.fundAccount(id, { USDT: '1000' });
    futures = new PaperGateway(venue, id, 'future');
    await venue.setLeverage(id, 'BTC/USDT', 10);
  });

  it('a cross long the price falls through is closed at the mark by an order flagged a liquidation, its stop cancelled, USDT at zero not below', async () => {
    await long('0.1'); // 6,500 USDT of BTC at 65,000 on 1,000 USDT: liquidated near 55,250
    await futures.stops!.placeStop({
      symbol: 'BTC/USDT',
      side: 'sell',
      amount: '0.1',
      triggerPrice: '30000',
      clientOrderId: 'guard',
    });
    const [position] = await futures.fetchPositions();
    expect(position).toMatchObject({ side: 'long', amount: '0.1', leverage: '10' });

    now += 60_000;
    market.moveTo('57000'); // a loss of 800: still above the maintenance margin
    await venue.matchAll();
    expect(await futures.fetchPositions()).toHaveLength(1);

    now += 60_000;
    market.moveTo('40000'); // through the liquidation price, and past where the wallet is empty
    await venue.matchAll();
    expect(await futures.fetchPositions()).toEqual([]);
    expect((await usdt()).toFixed()).toBe('0');

    const stop = await futures.stops!.fetchStopByClientId('guard', 'BTC/USDT');
    expect(stop).toMatchObject({ status: 'cancelled', triggeredOrderId: null });
    const fills = await futures.fetchMyTrades('BTC/USDT');
    const liquidation = await futures.fetchOrder(fills.at(-1)!.venueOrderId, 'BTC/USDT');
    expect(liquidation).toMatchObject({
      liquidation: true,
      side: 'sell',
      type: 'market',
      reduceOnly: true,
      status: 'filled',
      filled: '0.1',
      average: '40000',
    });
    expect(liquidation.clientOrderId).toMatch(/^liquidation-/);
    expect(fills.at(-1)).toMatchObject({
      price: '40000',
      amount: '0.1',
      venueOrderId: liquidation.venueOrderId,
    });
  });

  it('an isolated long is liquidated on its own margin; the wallet keeps the rest', async () => {
    await venue.setMarginMode(id, 'BTC/USDT', 'isolated');
    await long('0.1');
    const [position] = await futures.fetchPositions();
    const liquidationPrice = new Decimal(position!.liquidationPrice ?? '0');
    const entry = new Decimal(position!.entryPrice ?? '0');
    // Its margin (a tenth of the entry) used up but the maintenance (0.4 %): 90.4 % of the entry.
    expect(liquidationPrice.div(entry).toNumber()).toBeCloseTo(0.904, 4);

    now += 60_000;
    market.moveTo(liquidationPrice.plus(200).toFixed());
    // Nothing rests on this account: its next matching pass checks it.
    await venue.matchRestingOrders(id);
    expect(await futures.fetchPositions()).toHaveLength(1);

    now += 60_000;
    market.moveTo(liquidationPrice.minus(100).toFixed());
    await venue.matchRestingOrders(id);
    expect(await futures.fetchPositions()).toEqual([]);
    // The margin (about 600) is lost, not the wallet's other 400.
    const left = await usdt();
    expect(left.gt(300)).toBe(true);
    expect(left.lt(450)).toBe(true);
  });
});
