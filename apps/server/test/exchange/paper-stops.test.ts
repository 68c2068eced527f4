import { beforeEach, describe, expect, it } from 'vitest';
import { Decimal } from '../../src/exchange/decimal';
import { InvalidOrderError, OrderNotFoundError } from '../../src/exchange/errors';
import type { VenueStops } from '../../src/exchange/gateway';
import { MarketSimulator } from '../../src/exchange/paper/market-simulator';
import { PaperGateway } from '../../src/exchange/paper/paper-gateway';
import {
  PaperVenue,
  type PaperFillEvent,
  type PaperOrderEvent,
  type PaperStopEvent,
} from '../../src/exchange/paper/paper-venue';
import { InMemoryPaperLedgerStore } from '../fakes/in-memory-paper-ledger';
import { ScriptedMarket } from '../fakes/scripted-market';

const SYMBOL = 'BTC/USDT';

describe('PaperGateway futures stops (issue 18) on a scripted market', () => {
  let now: number;
  let ids: number;
  let store: InMemoryPaperLedgerStore;
  let market: ScriptedMarket;
  let venue: PaperVenue;
  let futures: PaperGateway;
  let stops: VenueStops;
  let stopEvents: PaperStopEvent[];
  let orderEvents: PaperOrderEvent[];

  beforeEach(async () => {
    now = Date.UTC(2026, 0, 5, 12, 0, 0);
    ids = 0;
    store = new InMemoryPaperLedgerStore();
    market = new ScriptedMarket(() => now);
    venue = new PaperVenue({ store, market, clock: () => now, newId: () => `id${++ids}` });
    stopEvents = [];
    orderEvents = [];
    venue.events.on('stop', (event) => stopEvents.push(event));
    venue.events.on('order', (event) => orderEvents.push(event));
    await venue.fundAccount('fut', { USDT: '20000' });
    futures = new PaperGateway(venue, 'fut', 'future');
    stops = futures.stops!;
  });

  const open = (side: 'buy' | 'sell', amount: string, clientOrderId: string) =>
    futures.createOrder({ symbol: SYMBOL, side, type: 'market', amount, clientOrderId });

  /** A minute later the price is at `mid`, with one level of 1 BTC on each side around it. */
  const later = (mid: string, bid: string, ask: string) => {
    now += 60_000;
    market.moveTo(mid);
    market.book = {
      bids: [[new Decimal(bid), new Decimal('1')]],
      asks: [[new Decimal(ask), new Decimal('1')]],
    };
  };

  it('spot paper accounts have venue stops too (stop-limits)', () => {
    expect(new PaperGateway(venue, 'fut', 'spot').stops).not.toBeNull();
    expect(futures.stops).not.toBeNull();
  });

  it('rests a stop that reserves nothing and is not an open order; the tick triggers it on a long', async () => {
    await open('buy', '0.1', 'entry');
    const balancesBefore = await futures.fetchBalances();
    const stop = await stops.placeStop({
      symbol: 'BTC/USDT:USDT',
      side: 'sell',
      amount: '0.1',
      triggerPrice: '64000.00',
      clientOrderId: 'sl',
    });
    expect(stop).toEqual({
      venueOrderId: stop.venueOrderId,
      clientOrderId: 'sl',
      symbol: SYMBOL,
      side: 'sell',
      amount: '0.1',
      triggerPrice: '64000',
      limitPrice: null,
      status: 'open',
      triggeredOrderId: null,
      timestamp: now,
    });
    expect(await futures.fetchOpenOrders()).toEqual([]);
    expect(await futures.fetchBalances()).toEqual(balancesBefore);
    expect(await store.accountsWithOpenOrders()).toEqual(['fut']);

    // The price goes through the stop; nobody asks: the matching tick triggers it.
    later('63900', '63890.00', '63910.00');
    const triggeredAt = now;
    await venue.matchAll();

    const triggered = await stops.fetchStop(stop.venueOrderId, SYMBOL);
    expect(triggered).toMatchObject({ status: 'triggered', clientOrderId: 'sl' });
    const orderId = triggered.triggeredOrderId!;
    expect(orderId).toEqual(expect.any(String));
    expect(await futures.fetchOrder(orderId, SYMBOL)).toMatchObject({
      venueOrderId: orderId,
      clientOrderId: `stop-${stop.venueOrderId}`,
      type: 'market',
      side: 'sell',
      status: 'filled',
      amount: '0.1',
      filled: '0.1',
      average: '63890',
      fee: { cost: '6.389', currency: 'USDT' },
      reduceOnly: true,
      timestamp: triggeredAt,
    });
    const fills = await futures.fetchOrderFills(orderId, SYMBOL);
    expect(fills.map((f) => [f.price, f.amount, f.fee, f.takerOrMaker, f.timestamp])).toEqual([
      ['63890', '0.1', '6.389', 'taker', triggeredAt],
    ]);
    expect((await futures.fetchMyTrades(SYMBOL)).map((f) => f.venueOrderId)).toContain(orderId);
    // Margin 6500 back, PnL 0.1 × (63890 − 65000) = −111, fees 6.5 at entry and 6.389 at exit.
    expect((await futures.fetchBalances())['USDT']).toEqual({
      free: '19876.111',
      used: '0',
      total: '19876.111',
    });
    expect(await futures.fetchPositions()).toEqual([]);
    expect(await store.accountsWithOpenOrders()).toEqual([]);

    expect(stopEvents.map((e) => [e.stop.clientOrderId, e.stop.status, e.reported])).toEqual([
      ['sl', 'open', true],
      ['sl', 'triggered', false],
    ]);
    expect(stopEvents[1]!.stop.triggeredOrderId).toBe(orderId);
    expect(orderEvents.filter((e) => e.order.venueOrderId === orderId)).toMatchObject([
      { accountId: 'fut', marketType: 'future', reported: false, order: { status: 'filled' } },
    ]);
  });

  it('triggers a buy stop on a short, capped at the position when its amount is larger', async () => {
    await open('sell', '0.1', 'entry');
    const stop = await stops.placeStop({
      symbol: SYMBOL,
      side: 'buy',
      amount: '0.25',
      triggerPrice: '66000.00',
      clientOrderId: 'sl-short',
    });
    expect(stop).toMatchObject({ status: 'open', amount: '0.25' });

    later('66100', '66090.00', '66110.00');
    // Any read of the account matches it first.
    expect(await futures.fetchPositions()).toEqual([]);
    const triggered = await stops.fetchStopByClientId('sl-short', SYMBOL);
    expect(triggered.status).toBe('triggered');
    expect(await futures.fetchOrder(triggered.triggeredOrderId!, SYMBOL)).toMatchObject({
      side: 'buy',
      status: 'filled',
      amount: '0.1',
      filled: '0.1',
      average: '66110',
      fee: { cost: '6.611', currency: 'USDT' },
      reduceOnly: true,
    });
    // Short 0.1 at 64990 (margin 6499, fee 6.499), bought back at 66110: PnL −112, fee 6.611.
    expect((await futures.fetchBalances())['USDT']).toEqual({
      free: '19874.89',
      used: '0',
      total: '19874.89',
    });
  });

  it('expires without an order when the position is gone by the time it triggers', async () => {
    await open('buy', '0.1', 'entry');
    const stop = await stops.placeStop({
      symbol: SYMBOL,
      side: 'sell',
      amount: '0.1',
      triggerPrice: '64000.00',
      clientOrderId: 'sl',
    });
    await futures.createOrder({
      symbol: SYMBOL,
      side: 'sell',
      type: 'market',
      amount: '0.1',
      reduceOnly: true,
      clientOrderId: 'manual-close',
    });
    const tradesBefore = await futures.fetchMyTrades(SYMBOL);

    later('63900', '63890.00', '63910.00');
    await venue.matchAll();
    expect(await stops.fetchStop(stop.venueOrderId, SYMBOL)).toMatchObject({
      status: 'expired',
      triggeredOrderId: null,
    });
    expect(await futures.fetchMyTrades(SYMBOL)).toEqual(tradesBefore);
    expect(await store.accountsWithOpenOrders()).toEqual([]);
  });

  it('replays the path in order: a take-profit filled before the stop shrinks what the stop closes', async () => {
    await open('buy', '0.2', 'entry'); // 0.1 at 65000, 0.1 at 65010
    await futures.createOrder({
      symbol: SYMBOL,
      side: 'sell',
      type: 'limit',
      amount: '0.1',
      price: '65500.00',
      reduceOnly: true,
      clientOrderId: 'tp',
    });
    const stop = await stops.placeStop({
      symbol: SYMBOL,
      side: 'sell',
      amount: '0.2',
      triggerPrice: '64000.00',
      clientOrderId: 'sl',
    });
    // Up through the take-profit, then down through the stop; one pass at the end sees both.
    later('65600', '65590.00', '65610.00');
    later('63900', '63890.00', '63910.00');
    await venue.matchAll();
    const [tp] = (await futures.fetchMyTrades(SYMBOL)).slice(2);
    expect(tp).toMatchObject({ price: '65500', amount: '0.1', takerOrMaker: 'maker' });
    const triggered = await stops.fetchStop(stop.venueOrderId, SYMBOL);
    expect(await futures.fetchOrder(triggered.triggeredOrderId!, SYMBOL)).toMatchObject({
      status: 'filled',
      amount: '0.1',
      filled: '0.1',
    });
    expect(await futures.fetchPositions()).toEqual([]);
  });

  it('replays the path in order: a stop triggered first leaves the take-profit nothing to reduce', async () => {
    await open('buy', '0.2', 'entry');
    const tp = await futures.createOrder({
      symbol: SYMBOL,
      side: 'sell',
      type: 'limit',
      amount: '0.1',
      price: '65500.00',
      reduceOnly: true,
      clientOrderId: 'tp',
    });
    const stop = await stops.placeStop({
      symbol: SYMBOL,
      side: 'sell',
      amount: '0.2',
      triggerPrice: '64000.00',
      clientOrderId: 'sl',
    });
    later('63900', '63890.00', '63910.00');
    later('65600', '65590.00', '65610.00');
    await venue.matchAll();
    const triggered = await stops.fetchStop(stop.venueOrderId, SYMBOL);
    // (The scripted book has no history: the replayed order takes the book as the test left it.)
    expect(await futures.fetchOrder(triggered.triggeredOrderId!, SYMBOL)).toMatchObject({
      status: 'filled',
      filled: '0.2',
    });
    expect(await futures.fetchOrder(tp.venueOrderId, SYMBOL)).toMatchObject({
      status: 'expired',
      filled: '0',
    });
    expect(await futures.fetchPositions()).toEqual([]);
  });

  it('refuses a stop that would trigger at once (Binance -2021), or with no position to reduce', async () => {
    const place = (side: 'buy' | 'sell', triggerPrice: string, clientOrderId: string) =>
      stops.placeStop({ symbol: SYMBOL, side, amount: '0.1', triggerPrice, clientOrderId });
    await expect(place('sell', '64000.00', 'flat')).rejects.toThrow(/no long position/);
    await open('buy', '0.1', 'entry');
    await expect(place('buy', '66000.00', 'wrong-side')).rejects.toThrow(/no short position/);
    // The price is 65000: a sell stop at or above it would trigger at once.
    await expect(place('sell', '65000.00', 'at')).rejects.toThrow(/would immediately trigger/);
    await expect(place('sell', '65500.00', 'above')).rejects.toBeInstanceOf(InvalidOrderError);
    await expect(place('sell', '64000.001', 'off-tick')).rejects.toBeInstanceOf(InvalidOrderError);
    await expect(
      stops.placeStop({
        symbol: SYMBOL,
        side: 'sell',
        amount: '0.000001',
        triggerPrice: '64000',
        clientOrderId: 'dust',
      }),
    ).rejects.toBeInstanceOf(InvalidOrderError);
    await expect(
      venue.placeStop('fut', 'spot', {
        symbol: SYMBOL,
        side: 'sell',
        amount: '0.1',
        triggerPrice: '64000',
        clientOrderId: 'spot',
      }),
    ).rejects.toThrow(/needs a limit price/);
    await expect(
      stops.placeStop({
        symbol: SYMBOL,
        side: 'sell',
        amount: '0.1',
        triggerPrice: '64000',
        limitPrice: '63900',
        clientOrderId: 'limit',
      }),
    ).rejects.toThrow(/stop-markets/);
    // Nothing was placed by the refusals.
    for (const id of ['flat', 'wrong-side', 'at', 'above', 'off-tick', 'dust', 'spot', 'limit']) {
      await expect(stops.fetchStopByClientId(id, SYMBOL)).rejects.toBeInstanceOf(OrderNotFoundError);
    }
    expect(await store.accountsWithOpenOrders()).toEqual([]);
  });

  it('answers a second placement with a used client id with that stop, whatever its state', async () => {
    await open('buy', '0.1', 'entry');
    const request = {
      symbol: SYMBOL,
      side: 'sell' as const,
      amount: '0.1',
      triggerPrice: '64000.00',
      clientOrderId: 'sl',
    };
    const first = await stops.placeStop(request);
    const again = await stops.placeStop({ ...request, triggerPrice: '63000.00' });
    expect(again).toEqual(first);
    expect(store.snapshot('fut').stops).toHaveLength(1);

    later('63900', '63890.00', '63910.00');
    const afterTrigger = await stops.placeStop(request);
    expect(afterTrigger).toMatchObject({ venueOrderId: first.venueOrderId, status: 'triggered' });
    expect(store.snapshot('fut').stops).toHaveLength(1);
    // A stop's client id is its own namespace: an order may carry the same one.
    expect(
      await futures.createOrder({
        symbol: SYMBOL,
        side: 'buy',
        type: 'market',
        amount: '0.1',
        clientOrderId: 'sl',
      }),
    ).toMatchObject({ status: 'filled', clientOrderId: 'sl' });
  });

  it('cancels an open stop, which then never triggers; cancelling again or after a trigger answers its state', async () => {
    await open('buy', '0.2', 'entry');
    const place = (clientOrderId: string, amount: string) =>
      stops.placeStop({ symbol: SYMBOL, side: 'sell', amount, triggerPrice: '64000.00', clientOrderId });
    const cancelMe = await place('cancel-me', '0.1');
    const keep = await place('keep', '0.1');

    expect(await stops.cancelStop(cancelMe.venueOrderId, SYMBOL)).toMatchObject({
      venueOrderId: cancelMe.venueOrderId,
      status: 'cancelled',
    });
    expect(await stops.cancelStop(cancelMe.venueOrderId, SYMBOL)).toMatchObject({ status: 'cancelled' });

    later('63900', '63890.00', '63910.00');
    expect(await stops.cancelStop(keep.venueOrderId, SYMBOL)).toMatchObject({ status: 'triggered' });
    expect(await stops.fetchStop(cancelMe.venueOrderId, SYMBOL)).toMatchObject({
      status: 'cancelled',
      triggeredOrderId: null,
    });
    // Only the kept stop sold: 0.1 of the 0.2 is left.
    expect(await futures.fetchPositions()).toMatchObject([{ side: 'long', amount: '0.1' }]);
    expect(stopEvents.map((e) => [e.stop.clientOrderId, e.stop.status, e.reported])).toEqual([
      ['cancel-me', 'open', true],
      ['keep', 'open', true],
      ['cancel-me', 'cancelled', true],
      ['keep', 'triggered', false],
    ]);
  });

  it('answers OrderNotFoundError for a stop it does not know', async () => {
    await expect(stops.fetchStop('nope', SYMBOL)).rejects.toBeInstanceOf(OrderNotFoundError);
    await expect(stops.fetchStopByClientId('nope', SYMBOL)).rejects.toBeInstanceOf(OrderNotFoundError);
    await expect(stops.cancelStop('nope', SYMBOL)).rejects.toBeInstanceOf(OrderNotFoundError);
    // A regular order's id is not a stop's.
    const order = await open('buy', '0.1', 'entry');
    await expect(stops.fetchStop(order.venueOrderId, SYMBOL)).rejects.toBeInstanceOf(OrderNotFoundError);
  });
});

describe('PaperGateway futures stops on the market simulator', () => {
  const START = Date.UTC(2026, 0, 5, 9, 0, 0);
  const simulator = new MarketSimulator({ seed: 'kairos' });

  /** First minute mark after `from` where the simulated price is at or below `price`. */
  function firstTimeAtOrBelow(price: Decimal, from: number): number {
    for (let t = from; t < from + 14 * 86_400_000; t += 60_000) {
      if (simulator.price(SYMBOL, t).lte(price)) return t;
    }
    throw new Error('price never got there');
  }

  async function longWithStop(clock: () => number) {
    const store = new InMemoryPaperLedgerStore();
    const venue = new PaperVenue({ store, market: simulator, clock });
    await venue.fundAccount('acc', { USDT: '100000' });
    const gateway = new PaperGateway(venue, 'acc', 'future');
    await gateway.createOrder({
      symbol: SYMBOL,
      side: 'buy',
      type: 'market',
      amount: '0.1',
      clientOrderId: 'e',
    });
    const trigger = simulator.price(SYMBOL, START).times('0.99').toDecimalPlaces(2);
    const stop = await gateway.stops!.placeStop({
      symbol: SYMBOL,
      side: 'sell',
      amount: '0.1',
      triggerPrice: trigger.toFixed(),
      clientOrderId: 'sl',
    });
    return { venue, gateway, stop, trigger };
  }

  it('triggers where the path crossed, the same whether matched every minute or once after a long pause', async () => {
    let now = START;
    const polled = await longWithStop(() => now);
    const paused = await longWithStop(() => now);
    const crossedAt = firstTimeAtOrBelow(polled.trigger, START);
    const end = crossedAt + 3_600_000;
    for (now = START + 60_000; now <= end; now += 60_000) await polled.venue.matchAll();
    now = end;
    // The other venue was not looked at since the stop was placed (Kairos stopped): its first pass replays.
    await paused.venue.matchAll();

    const outcomes = await Promise.all(
      [polled, paused].map(async ({ gateway, stop }) => {
        const triggered = await gateway.stops!.fetchStop(stop.venueOrderId, SYMBOL);
        const fills = await gateway.fetchOrderFills(triggered.triggeredOrderId!, SYMBOL);
        return { status: triggered.status, fills: fills.map((f) => [f.price, f.amount, f.fee, f.timestamp]) };
      }),
    );
    expect(outcomes[0]!.status).toBe('triggered');
    expect(outcomes[0]!.fills.length).toBeGreaterThan(0);
    expect(outcomes[0]!.fills.map((f) => f[3])).toEqual(outcomes[0]!.fills.map(() => crossedAt));
    expect(outcomes[1]).toEqual(outcomes[0]);
    expect(await paused.gateway.fetchPositions()).toEqual([]);
  });

  it('is triggered by the running matching tick', async () => {
    let now = START;
    const { venue, stop, trigger } = await longWithStop(() => now);
    const triggered = new Promise<PaperStopEvent>((resolve) => venue.events.once('stop', resolve));
    const fill = new Promise<PaperFillEvent>((resolve) => venue.events.once('fill', resolve));
    now = firstTimeAtOrBelow(trigger, START) + 60_000;
    venue.start(5);
    try {
      expect(await triggered).toMatchObject({
        accountId: 'acc',
        marketType: 'future',
        reported: false,
        stop: { venueOrderId: stop.venueOrderId, status: 'triggered' },
      });
      expect((await fill).fill).toMatchObject({ side: 'sell', amount: '0.1', takerOrMaker: 'taker' });
    } finally {
      venue.stop();
    }
  });
});
