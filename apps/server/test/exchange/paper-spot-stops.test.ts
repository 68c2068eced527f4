import { beforeEach, describe, expect, it } from 'vitest';
import { InsufficientFundsError, InvalidOrderError, OrderNotFoundError } from '../../src/exchange/errors';
import type { StopOrderRequest, VenueStops } from '../../src/exchange/gateway';
import { PaperGateway, paperVenueStops } from '../../src/exchange/paper/paper-gateway';
import type { PaperStopEvent } from '../../src/exchange/paper/paper-venue';
import { scriptedPaperVenue } from '../fakes/scripted-market';

const SYMBOL = 'BTC/USDT';

describe('paper spot stop-limits (issue 18) on a scripted market', () => {
  let paper: ReturnType<typeof scriptedPaperVenue>;
  let spot: PaperGateway;
  let stops: VenueStops;
  let stopEvents: PaperStopEvent[];

  beforeEach(async () => {
    paper = scriptedPaperVenue();
    stopEvents = [];
    paper.venue.events.on('stop', (event) => stopEvents.push(event));
    await paper.venue.fundAccount('acc', { USDT: '10000', BTC: '0.3' });
    spot = new PaperGateway(paper.venue, 'acc', 'spot');
    stops = paperVenueStops(paper.venue, 'acc', 'spot');
  });

  const later = (mid: string, bid: string, ask: string) => paper.later(mid, bid, ask);

  const stopLimit = (over: Partial<StopOrderRequest> = {}): StopOrderRequest => ({
    symbol: SYMBOL,
    side: 'sell',
    amount: '0.2',
    triggerPrice: '64000.00',
    limitPrice: '63700.00',
    clientOrderId: 'sl',
    ...over,
  });

  it('reserves the coins it sells at its placement; triggered, its limit order sells at the limit or better', async () => {
    const stop = await stops.placeStop(stopLimit());
    expect(stop).toEqual({
      venueOrderId: stop.venueOrderId,
      clientOrderId: 'sl',
      symbol: SYMBOL,
      side: 'sell',
      amount: '0.2',
      triggerPrice: '64000',
      limitPrice: '63700',
      status: 'open',
      triggeredOrderId: null,
      timestamp: paper.clock.now,
    });
    expect((await spot.fetchBalances())['BTC']).toEqual({ free: '0.1', used: '0.2', total: '0.3' });
    // Not an open order while it waits (its limit order works only once triggered), as on the ccxt venues.
    expect(await spot.fetchOpenOrders(SYMBOL)).toEqual([]);
    expect(await spot.fetchOpenOrders()).toEqual([]);
    // What is left free is all another sell may take.
    await expect(
      spot.createOrder({ symbol: SYMBOL, side: 'sell', type: 'market', amount: '0.2', clientOrderId: 'm' }),
    ).rejects.toBeInstanceOf(InsufficientFundsError);

    // Through the trigger, the bid still above the limit: nobody asks, the tick triggers it.
    later('63900', '63890.00', '63910.00');
    const triggeredAt = paper.clock.now;
    await paper.venue.matchAll();
    const triggered = await stops.fetchStop(stop.venueOrderId, SYMBOL);
    expect(triggered).toMatchObject({ status: 'triggered', limitPrice: '63700' });
    const orderId = triggered.triggeredOrderId!;
    expect(await spot.fetchOrder(orderId, SYMBOL)).toMatchObject({
      venueOrderId: orderId,
      clientOrderId: `stop-${stop.venueOrderId}`,
      type: 'limit',
      side: 'sell',
      price: '63700',
      status: 'filled',
      amount: '0.2',
      filled: '0.2',
      average: '63890',
      reduceOnly: false,
    });
    const fills = await spot.fetchOrderFills(orderId, SYMBOL);
    expect(fills.map((f) => [f.price, f.amount, f.fee, f.takerOrMaker, f.timestamp])).toEqual([
      ['63890', '0.2', '12.778', 'taker', triggeredAt],
    ]);
    // 0.2 × 63890 = 12778 less its 0.1 % fee.
    expect(await spot.fetchBalances()).toEqual({
      BTC: { free: '0.1', used: '0', total: '0.1' },
      USDT: { free: '22765.222', used: '0', total: '22765.222' },
    });
    expect(await paper.store.accountsWithOpenOrders()).toEqual([]);
    expect(stopEvents.map((e) => [e.marketType, e.stop.status, e.reported])).toEqual([
      ['spot', 'open', true],
      ['spot', 'triggered', false],
    ]);
  });

  it('rests its limit order when the price gapped below the limit, filled as a maker once the price is back', async () => {
    const stop = await stops.placeStop(stopLimit());
    later('63500', '63490.00', '63510.00');
    const triggered = await stops.fetchStop(stop.venueOrderId, SYMBOL);
    expect(triggered.status).toBe('triggered');
    const orderId = triggered.triggeredOrderId!;
    expect(await spot.fetchOrder(orderId, SYMBOL)).toMatchObject({ status: 'open', filled: '0' });
    expect((await spot.fetchOpenOrders(SYMBOL)).map((o) => o.venueOrderId)).toEqual([orderId]);
    expect((await spot.fetchBalances())['BTC']).toEqual({ free: '0.1', used: '0.2', total: '0.3' });

    later('63800', '63790.00', '63810.00');
    expect(await spot.fetchOrder(orderId, SYMBOL)).toMatchObject({
      status: 'filled',
      filled: '0.2',
      average: '63700',
    });
    expect((await spot.fetchOrderFills(orderId, SYMBOL)).map((f) => f.takerOrMaker)).toEqual(['maker']);
    expect((await spot.fetchBalances())['BTC']).toEqual({ free: '0.1', used: '0', total: '0.1' });
  });

  it('is not matched as an order before its trigger, however far the price rises through its limit', async () => {
    const stop = await stops.placeStop(stopLimit());
    later('66000', '65990.00', '66010.00');
    await paper.venue.matchAll();
    expect(await stops.fetchStop(stop.venueOrderId, SYMBOL)).toMatchObject({ status: 'open' });
    expect((await spot.fetchMyTrades(SYMBOL)).length).toBe(0);
    expect((await spot.fetchBalances())['BTC']).toEqual({ free: '0.1', used: '0.2', total: '0.3' });
  });

  it('cancelling releases what it reserved; a triggered one answers its state and its order works on', async () => {
    const cancelled = await stops.placeStop(stopLimit({ clientOrderId: 'c1', amount: '0.1' }));
    const kept = await stops.placeStop(
      stopLimit({ clientOrderId: 'c2', amount: '0.1', limitPrice: '63000.00' }),
    );
    expect((await spot.fetchBalances())['BTC']).toEqual({ free: '0.1', used: '0.2', total: '0.3' });
    expect(await stops.cancelStop(cancelled.venueOrderId, SYMBOL)).toMatchObject({
      status: 'cancelled',
      triggeredOrderId: null,
    });
    expect((await spot.fetchBalances())['BTC']).toEqual({ free: '0.2', used: '0.1', total: '0.3' });
    expect(await stops.cancelStop(cancelled.venueOrderId, SYMBOL)).toMatchObject({ status: 'cancelled' });

    later('62900', '62890.00', '62910.00');
    const answer = await stops.cancelStop(kept.venueOrderId, SYMBOL);
    expect(answer).toMatchObject({ status: 'triggered' });
    expect(await spot.fetchOrder(answer.triggeredOrderId!, SYMBOL)).toMatchObject({ status: 'open' });
    // The working limit order is an order like any: cancelled as one, it frees the rest.
    await spot.cancelOrder(answer.triggeredOrderId!, SYMBOL);
    expect((await spot.fetchBalances())['BTC']).toEqual({ free: '0.3', used: '0', total: '0.3' });
  });

  it('refuses a spot stop without a limit price, with too little free, or one that would trigger at once', async () => {
    await expect(
      stops.placeStop(stopLimit({ limitPrice: undefined, clientOrderId: 'no-limit' })),
    ).rejects.toThrow(/needs a limit price/);
    const short = stops.placeStop(stopLimit({ amount: '0.4', clientOrderId: 'too-much' }));
    await expect(short).rejects.toBeInstanceOf(InsufficientFundsError);
    await expect(short).rejects.toThrow(/BTC/);
    await expect(
      stops.placeStop(stopLimit({ triggerPrice: '65000.00', clientOrderId: 'at' })),
    ).rejects.toThrow(/would immediately trigger/);
    await expect(
      stops.placeStop(stopLimit({ limitPrice: '63700.001', clientOrderId: 'off-tick' })),
    ).rejects.toBeInstanceOf(InvalidOrderError);
    for (const id of ['no-limit', 'too-much', 'at', 'off-tick']) {
      await expect(stops.fetchStopByClientId(id, SYMBOL)).rejects.toBeInstanceOf(OrderNotFoundError);
    }
    expect(await spot.fetchBalances()).toEqual({
      BTC: { free: '0.3', used: '0', total: '0.3' },
      USDT: { free: '10000', used: '0', total: '10000' },
    });
    expect(await paper.store.accountsWithOpenOrders()).toEqual([]);
  });

  it('a buy stop-limit reserves its cost at the limit with the fee', async () => {
    await stops.placeStop(
      stopLimit({
        side: 'buy',
        amount: '0.1',
        triggerPrice: '66000.00',
        limitPrice: '66300.00',
        clientOrderId: 'b',
      }),
    );
    // 0.1 × 66300 × 1.001
    expect((await spot.fetchBalances())['USDT']).toEqual({
      free: '3363.37',
      used: '6636.63',
      total: '10000',
    });
    later('66100', '66090.00', '66110.00');
    expect((await stops.fetchStopByClientId('b', SYMBOL)).status).toBe('triggered');
    // Bought at 66110 with a 6.611 fee; the rest of the reservation is free again.
    expect(await spot.fetchBalances()).toEqual({
      BTC: { free: '0.4', used: '0', total: '0.4' },
      USDT: { free: '3382.389', used: '0', total: '3382.389' },
    });
  });
});
