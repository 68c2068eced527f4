import { Decimal } from '@kairos/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedMarket } from '../fakes/scripted-market';
import { createPaperAccount } from '../support/engine';
import { registerUser, type Session } from '../support/users';
import { asUser, eventually, startTradesApp, type TradesApp } from '../support/trades-app';

/**
 * Issue 21: an open trade's answers carry the venue's last price and what the position makes at it (trade
 * detail, the trades list, the dashboard's open positions), and they follow the price when it moves.
 */
let t: TradesApp;
let alice: Session;
let bob: Session;
let api: ReturnType<typeof asUser>;
let spot: { id: string };
let futures: { id: string };
const market = new ScriptedMarket(() => Date.now());

type Marked = {
  id: string;
  status: string;
  entryPrice: string;
  commission: string;
  openQuantity: string;
  currentPrice?: string | null;
  unrealisedPnl?: string | null;
  unrealisedPnlPercent?: string | null;
  unrealisedPnlMarginPercent?: string | null;
  estimatedClosePnl?: string | null;
};

beforeAll(async () => {
  t = await startTradesApp({ paperVenueOptions: { market } });
  [alice, bob] = await Promise.all([registerUser(t.app), registerUser(t.app)]);
  api = asUser(t.app, alice);
  spot = await createPaperAccount(t.app, alice);
  futures = await createPaperAccount(t.app, alice, { nickname: 'Paper futures', marketType: 'future' });
});
afterAll(() => t.close());

const detailOf = async (id: string) => (await api.get(`/api/trades/${id}`)).body.results.trade as Marked;
/** The detail once it is priced at `price` (one price serves every answer for a moment). */
const pricedAt = (id: string, price: string) =>
  eventually(
    () => detailOf(id),
    (d) => d.currentPrice === price,
  );

/** What the position makes at `price`, from the trade's own figures (no exit yet: every fee counts). */
function expected(d: Marked, side: 'long' | 'short', price: string) {
  const move = new Decimal(price).minus(d.entryPrice).times(side === 'long' ? 1 : -1);
  const pnl = move.times(d.openQuantity).minus(d.commission);
  return {
    pnl: pnl.toDecimalPlaces(8).toFixed(),
    percent: pnl.div(new Decimal(d.entryPrice).times(d.openQuantity)).times(100).toDecimalPlaces(4).toFixed(),
  };
}

describe('open trades marked at the last price', () => {
  let longId: string;
  let shortId: string;

  it('a spot long: the detail says the price and the unrealised PnL, and follows the price up and down', async () => {
    market.moveTo('65000');
    const res = await api.post('/api/trades', {
      accountId: spot.id,
      symbol: 'BTC/USDT',
      side: 'long',
      amount: '0.01',
      takeProfits: [{ percent: 10, sizePercent: 50 }],
    });
    expect(res.status).toBe(201);
    longId = res.body.results.trade.id;

    market.moveTo('66000');
    const up = await pricedAt(longId, '66000');
    const upWant = expected(up, 'long', '66000');
    expect(up.unrealisedPnl).toBe(upWant.pnl);
    expect(up.unrealisedPnlPercent).toBe(upWant.percent);
    expect(new Decimal(up.unrealisedPnl!).gt(0)).toBe(true);
    // Spot: no margin figure; closing now costs the estimated 0.1 % taker fee on top.
    expect(up.unrealisedPnlMarginPercent).toBeNull();
    expect(up.estimatedClosePnl).toBe(
      new Decimal(up.unrealisedPnl!)
        .minus(new Decimal('66000').times(up.openQuantity).times('0.001'))
        .toFixed(),
    );

    market.moveTo('64000');
    const down = await pricedAt(longId, '64000');
    expect(down.unrealisedPnl).toBe(expected(down, 'long', '64000').pnl);
    expect(new Decimal(down.unrealisedPnl!).lt(0)).toBe(true);
    // The move of 2,000 on what is held, to the decimal.
    expect(new Decimal(up.unrealisedPnl!).minus(down.unrealisedPnl!).toFixed()).toBe(
      new Decimal('2000').times(up.openQuantity).toFixed(),
    );
  });

  it('the ladder says what pushing its resting take-profit to market now would give', async () => {
    const { ladder } = (await api.get(`/api/trades/${longId}`)).body.results;
    const [tp1] = ladder as { pushable: boolean; amount: string; estimatedPushPnl?: string | null }[];
    expect(tp1!.pushable).toBe(true);
    const d = await detailOf(longId);
    const want = new Decimal(d.currentPrice!)
      .minus(d.entryPrice)
      .times(tp1!.amount)
      .minus(new Decimal(d.currentPrice!).times(tp1!.amount).times('0.001'));
    expect(tp1!.estimatedPushPnl).toBe(want.toDecimalPlaces(8).toFixed());
  });

  it('a futures short gains as the price falls; a manual trade has no bot leverage, so no margin figure', async () => {
    market.moveTo('64000');
    const res = await api.post('/api/trades', {
      accountId: futures.id,
      symbol: 'BTC/USDT',
      side: 'short',
      amount: '0.01',
    });
    expect(res.status).toBe(201);
    shortId = res.body.results.trade.id;
    market.moveTo('63000');
    const d = await pricedAt(shortId, '63000');
    expect(d.unrealisedPnl).toBe(expected(d, 'short', '63000').pnl);
    expect(new Decimal(d.unrealisedPnl!).gt(0)).toBe(true);
    expect(d.unrealisedPnlMarginPercent).toBeNull();
    // The exit is estimated at what the entry paid (the paper venue's 0.1 %), above the usual 0.05 % of futures.
    const exitFee = new Decimal('63000').times(d.openQuantity).times('0.001');
    expect(new Decimal(d.unrealisedPnl!).minus(exitFee).minus(d.estimatedClosePnl!).abs().lt('0.01')).toBe(
      true,
    );
  });

  it('the trades list and the dashboard open positions carry the same figures; ended trades none', async () => {
    const d = await pricedAt(longId, '63000');
    const list = (await api.get('/api/trades?pageSize=50')).body.results as Marked[];
    const row = list.find((r) => r.id === longId)!;
    expect(row).toMatchObject({ currentPrice: '63000', unrealisedPnl: d.unrealisedPnl });

    const dash = (await api.get('/api/dashboard?include=openPositions')).body.results;
    expect(dash.openPositions.map((p: { tradeId: string }) => p.tradeId).sort()).toEqual(
      [longId, shortId].sort(),
    );
    const pos = dash.openPositions.find((p: { tradeId: string }) => p.tradeId === longId);
    expect(pos).toMatchObject({
      accountNickname: expect.any(String),
      symbol: 'BTC/USDT',
      side: 'long',
      quantity: d.openQuantity,
      currentPrice: '63000',
      unrealisedPnl: d.unrealisedPnl,
      unrealisedPnlPercent: d.unrealisedPnlPercent,
    });

    // Closed: no price, no unrealised PnL.
    const closed = await api.post(`/api/trades/${shortId}/complete`, {});
    expect(closed.status).toBeLessThan(300);
    const ended = await eventually(
      () => detailOf(shortId),
      (x) => x.status === 'closed',
    );
    expect(ended.currentPrice ?? null).toBeNull();
    expect(ended.unrealisedPnl ?? null).toBeNull();
  });

  it('another user sees none of it', async () => {
    const other = asUser(t.app, bob);
    expect((await other.get(`/api/trades/${longId}`)).status).toBe(404);
    expect((await other.get('/api/dashboard?include=openPositions')).body.results.openPositions).toEqual([]);
  });
});
