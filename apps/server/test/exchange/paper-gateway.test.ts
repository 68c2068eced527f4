import { beforeEach, describe, expect, it } from 'vitest';
import { InsufficientFundsError, InvalidOrderError, OrderNotFoundError } from '../../src/exchange/errors';
import { PaperGateway } from '../../src/exchange/paper/paper-gateway';
import { PaperVenue, type PaperFillEvent } from '../../src/exchange/paper/paper-venue';
import { InMemoryPaperLedgerStore } from '../fakes/in-memory-paper-ledger';
import { ScriptedMarket } from '../fakes/scripted-market';

describe('PaperGateway on a scripted book', () => {
  let now: number;
  let store: InMemoryPaperLedgerStore;
  let market: ScriptedMarket;
  let venue: PaperVenue;
  let spot: PaperGateway;
  let fills: PaperFillEvent[];
  let ids: number;

  beforeEach(async () => {
    now = Date.UTC(2026, 0, 5, 12, 0, 0);
    ids = 0;
    store = new InMemoryPaperLedgerStore();
    market = new ScriptedMarket(() => now);
    venue = new PaperVenue({ store, market, clock: () => now, newId: () => `id${++ids}` });
    fills = [];
    venue.events.on('fill', (event) => fills.push(event));
    await venue.fundAccount('acc-1', { USDT: '20000' });
    spot = new PaperGateway(venue, 'acc-1', 'spot');
  });

  it('funds a new account once', async () => {
    expect(await venue.fundAccount('acc-1', { USDT: '999' })).toBe(false);
    expect(await spot.fetchBalances()).toEqual({ USDT: { free: '20000', used: '0', total: '20000' } });
  });

  it('fills a market buy across levels, charging the taker fee to the cent', async () => {
    const order = await spot.createOrder({
      symbol: 'BTC/USDT',
      side: 'buy',
      type: 'market',
      amount: '0.25',
      clientOrderId: 'buy1',
    });
    // 0.1 @ 65000 = 6500.00 and 0.15 @ 65010 = 9751.50; fees 0.1 % = 6.50 + 9.7515.
    expect(order).toMatchObject({
      status: 'filled',
      filled: '0.25',
      average: '65006',
      fee: { cost: '16.2515', currency: 'USDT' },
      clientOrderId: 'buy1',
    });
    expect(await spot.fetchBalances()).toEqual({
      USDT: { free: '3732.2485', used: '0', total: '3732.2485' },
      BTC: { free: '0.25', used: '0', total: '0.25' },
    });
    const trades = await spot.fetchMyTrades('BTC/USDT');
    expect(trades.map((t) => [t.price, t.amount, t.cost, t.fee, t.takerOrMaker])).toEqual([
      ['65000', '0.1', '6500', '6.5', 'taker'],
      ['65010', '0.15', '9751.5', '9.7515', 'taker'],
    ]);
    expect(fills.map((event) => event.fill.venueTradeId)).toEqual(trades.map((t) => t.venueTradeId));
    expect(fills[1]!.order.status).toBe('filled');
  });

  it('rests a limit sell, fills it as maker when the price crosses, and releases the reserve', async () => {
    await spot.createOrder({
      symbol: 'BTC/USDT',
      side: 'buy',
      type: 'market',
      amount: '0.3',
      clientOrderId: 'b',
    });
    const sell = await spot.createOrder({
      symbol: 'BTC/USDT',
      side: 'sell',
      type: 'limit',
      amount: '0.2',
      price: '65100.00',
      clientOrderId: 's',
    });
    expect(sell.status).toBe('open');
    expect((await spot.fetchBalances())['BTC']).toEqual({ free: '0.1', used: '0.2', total: '0.3' });

    now += 60_000;
    market.moveTo('65050');
    expect((await spot.fetchOrder(sell.venueOrderId, 'BTC/USDT')).status).toBe('open');

    now += 60_000;
    market.moveTo('65120');
    const filled = await spot.fetchOrder(sell.venueOrderId, 'BTC/USDT');
    // 0.2 @ 65100 = 13020.00, maker fee 13.02.
    expect(filled).toMatchObject({
      status: 'filled',
      filled: '0.2',
      average: '65100',
      fee: { cost: '13.02' },
    });
    const balances = await spot.fetchBalances();
    expect(balances['BTC']).toEqual({ free: '0.1', used: '0', total: '0.1' });
    // 20000 − (6500 + 0.2 × 65010 = 19502 + fees 19.502) + 13020 − 13.02
    expect(balances['USDT']).toEqual({ free: '13485.478', used: '0', total: '13485.478' });
    expect((await spot.fetchMyTrades('BTC/USDT')).at(-1)).toMatchObject({
      takerOrMaker: 'maker',
      price: '65100',
    });
  });

  it('reserves quote for a resting buy and gives it back exactly on cancel', async () => {
    const buy = await spot.createOrder({
      symbol: 'BTC/USDT',
      side: 'buy',
      type: 'limit',
      amount: '0.1',
      price: '64000.00',
      clientOrderId: 'lb',
    });
    // 0.1 × 64000 × (1 + 0.1 % maker fee)
    expect((await spot.fetchBalances())['USDT']).toEqual({ free: '13593.6', used: '6406.4', total: '20000' });
    expect(await spot.fetchOpenOrders('BTC/USDT')).toHaveLength(1);
    const cancelled = await spot.cancelOrder(buy.venueOrderId, 'BTC/USDT');
    expect(cancelled.status).toBe('cancelled');
    expect((await spot.fetchBalances())['USDT']).toEqual({ free: '20000', used: '0', total: '20000' });
    await expect(spot.cancelOrder(buy.venueOrderId, 'BTC/USDT')).rejects.toBeInstanceOf(OrderNotFoundError);
  });

  it('takes what a marketable limit order can, and rests the rest', async () => {
    await venue.fundAccount('rich', { USDT: '50000' });
    const rich = new PaperGateway(venue, 'rich');
    const order = await rich.createOrder({
      symbol: 'BTC/USDT',
      side: 'buy',
      type: 'limit',
      amount: '0.5',
      price: '65010.00',
      clientOrderId: 'ml',
    });
    // Takes 0.1 @ 65000 and 0.2 @ 65010; 0.2 rests at 65010.
    expect(order).toMatchObject({ status: 'partially_filled', filled: '0.3', average: '65006.666666666667' });
    // Paid 6500 + 13002 + fees 19.502; reserved 0.2 × 65010 × 1.001 = 13015.002.
    expect((await rich.fetchBalances())['USDT']).toEqual({
      free: '17463.496',
      used: '13015.002',
      total: '30478.498',
    });
  });

  it('fills partially when the size exceeds the book, market orders expire for the rest', async () => {
    await venue.fundAccount('whale', { USDT: '1000000' });
    const whale = new PaperGateway(venue, 'whale');
    const order = await whale.createOrder({
      symbol: 'BTC/USDT',
      side: 'buy',
      type: 'market',
      amount: '1',
      clientOrderId: 'big',
    });
    // The whole ask side holds 0.8 BTC.
    expect(order).toMatchObject({ status: 'expired', filled: '0.8', amount: '1' });
    expect((await whale.fetchBalances())['BTC']!.total).toBe('0.8');
  });

  it('fills a large resting order over several crossings, limited by the depth each time', async () => {
    market.depthPerSegment = market.depthPerSegment.div(4); // 0.25 per crossing
    const buy = await spot.createOrder({
      symbol: 'BTC/USDT',
      side: 'buy',
      type: 'limit',
      amount: '0.3',
      price: '64900.00',
      clientOrderId: 'slow',
    });
    now += 60_000;
    market.moveTo('64890');
    expect(await spot.fetchOrder(buy.venueOrderId, 'BTC/USDT')).toMatchObject({
      status: 'partially_filled',
      filled: '0.25',
    });
    now += 60_000;
    market.moveTo('64880');
    expect(await spot.fetchOrder(buy.venueOrderId, 'BTC/USDT')).toMatchObject({
      status: 'filled',
      filled: '0.3',
    });
    expect((await spot.fetchBalances())['USDT']!.used).toBe('0');
  });

  it('refuses an order it cannot pay for, changing nothing', async () => {
    await expect(
      spot.createOrder({
        symbol: 'BTC/USDT',
        side: 'buy',
        type: 'market',
        amount: '0.4',
        clientOrderId: 'x',
      }),
    ).rejects.toBeInstanceOf(InsufficientFundsError);
    await expect(
      spot.createOrder({
        symbol: 'BTC/USDT',
        side: 'sell',
        type: 'market',
        amount: '0.01',
        clientOrderId: 'y',
      }),
    ).rejects.toBeInstanceOf(InsufficientFundsError);
    expect(await spot.fetchBalances()).toEqual({ USDT: { free: '20000', used: '0', total: '20000' } });
    expect(store.snapshot('acc-1').orders).toEqual([]);
    await expect(spot.fetchOrderByClientId('x', 'BTC/USDT')).rejects.toBeInstanceOf(OrderNotFoundError);
  });

  it('refuses amounts off the step, prices off the tick and orders under the minimum value', async () => {
    const base = { symbol: 'BTC/USDT', side: 'buy' as const, clientOrderId: 'v' };
    await expect(spot.createOrder({ ...base, type: 'market', amount: '0.000001' })).rejects.toBeInstanceOf(
      InvalidOrderError,
    );
    await expect(
      spot.createOrder({ ...base, type: 'limit', amount: '0.01', price: '64000.001' }),
    ).rejects.toBeInstanceOf(InvalidOrderError);
    await expect(
      spot.createOrder({ ...base, type: 'limit', amount: '0.00001', price: '64000' }),
    ).rejects.toBeInstanceOf(InvalidOrderError);
  });

  it('is idempotent on clientOrderId: a second create returns the first order and trades once', async () => {
    const request = {
      symbol: 'BTC/USDT',
      side: 'buy' as const,
      type: 'market' as const,
      amount: '0.1',
      clientOrderId: 'once',
    };
    const [a, b] = await Promise.all([spot.createOrder(request), spot.createOrder(request)]);
    const c = await spot.createOrder({ ...request, amount: '0.2' });
    expect(b.venueOrderId).toBe(a.venueOrderId);
    expect(c.venueOrderId).toBe(a.venueOrderId);
    expect((await spot.fetchBalances())['BTC']!.total).toBe('0.1');
    expect(await spot.fetchMyTrades('BTC/USDT')).toHaveLength(1);
  });

  it('on spot, reduce-only may sell holdings but never buy', async () => {
    await expect(
      spot.createOrder({
        symbol: 'BTC/USDT',
        side: 'buy',
        type: 'market',
        amount: '0.1',
        reduceOnly: true,
        clientOrderId: 'r1',
      }),
    ).rejects.toBeInstanceOf(InvalidOrderError);
    await expect(
      spot.createOrder({
        symbol: 'BTC/USDT',
        side: 'sell',
        type: 'market',
        amount: '0.1',
        reduceOnly: true,
        clientOrderId: 'r2',
      }),
    ).rejects.toBeInstanceOf(InvalidOrderError);
    await spot.createOrder({
      symbol: 'BTC/USDT',
      side: 'buy',
      type: 'market',
      amount: '0.1',
      clientOrderId: 'r3',
    });
    const tp = await spot.createOrder({
      symbol: 'BTC/USDT',
      side: 'sell',
      type: 'limit',
      amount: '0.1',
      price: '66000.00',
      reduceOnly: true,
      clientOrderId: 'r4',
    });
    expect(tp).toMatchObject({ status: 'open', reduceOnly: true });
  });
});

describe('PaperGateway futures', () => {
  let now: number;
  let market: ScriptedMarket;
  let venue: PaperVenue;
  let futures: PaperGateway;

  beforeEach(async () => {
    now = Date.UTC(2026, 0, 5, 12, 0, 0);
    const store = new InMemoryPaperLedgerStore();
    market = new ScriptedMarket(() => now);
    venue = new PaperVenue({ store, market, clock: () => now });
    await venue.fundAccount('fut', { USDT: '10000' });
    futures = new PaperGateway(venue, 'fut', 'future');
  });

  it('reduce-only cannot open a position, nor increase or flip one', async () => {
    await expect(
      futures.createOrder({
        symbol: 'BTC/USDT',
        side: 'sell',
        type: 'market',
        amount: '0.1',
        reduceOnly: true,
        clientOrderId: 'a',
      }),
    ).rejects.toBeInstanceOf(InvalidOrderError);
    await futures.createOrder({
      symbol: 'BTC/USDT',
      side: 'buy',
      type: 'market',
      amount: '0.1',
      clientOrderId: 'b',
    });
    await expect(
      futures.createOrder({
        symbol: 'BTC/USDT',
        side: 'buy',
        type: 'market',
        amount: '0.1',
        reduceOnly: true,
        clientOrderId: 'c',
      }),
    ).rejects.toBeInstanceOf(InvalidOrderError);
    await expect(
      futures.createOrder({
        symbol: 'BTC/USDT',
        side: 'sell',
        type: 'market',
        amount: '0.2',
        reduceOnly: true,
        clientOrderId: 'd',
      }),
    ).rejects.toBeInstanceOf(InvalidOrderError);
    expect(await futures.fetchPositions()).toMatchObject([
      { symbol: 'BTC/USDT', side: 'long', amount: '0.1' },
    ]);
  });

  it('opens with margin at the chosen leverage and realises PnL when reducing', async () => {
    await futures.setLeverage('BTC/USDT', 5);
    await futures.createOrder({
      symbol: 'BTC/USDT',
      side: 'buy',
      type: 'market',
      amount: '0.1',
      clientOrderId: 'open',
    });
    // Margin 6500 / 5 = 1300, fee 6.5.
    expect((await futures.fetchBalances())['USDT']).toEqual({
      free: '8693.5',
      used: '1300',
      total: '9993.5',
    });
    expect(await futures.fetchPositions()).toEqual([
      {
        symbol: 'BTC/USDT',
        side: 'long',
        amount: '0.1',
        entryPrice: '65000',
        markPrice: '65000',
        unrealizedPnl: '0',
        leverage: '5',
        liquidationPrice: null,
      },
    ]);

    // Take profit: the bid side moved up.
    market.book.bids = [[market.mid.plus(990), market.book.bids[0]![1]]];
    const close = await futures.createOrder({
      symbol: 'BTC/USDT',
      side: 'sell',
      type: 'market',
      amount: '0.1',
      reduceOnly: true,
      clientOrderId: 'close',
    });
    expect(close).toMatchObject({ status: 'filled', average: '65990', fee: { cost: '6.599' } });
    // +99 PnL (0.1 × 990), fees 6.5 + 6.599.
    expect((await futures.fetchBalances())['USDT']).toEqual({
      free: '10085.901',
      used: '0',
      total: '10085.901',
    });
    expect(await futures.fetchPositions()).toEqual([]);
  });

  it('refuses an order whose margin exceeds the balance', async () => {
    await expect(
      futures.createOrder({
        symbol: 'BTC/USDT',
        side: 'buy',
        type: 'market',
        amount: '0.2',
        clientOrderId: 'big',
      }),
    ).rejects.toBeInstanceOf(InsufficientFundsError);
  });
});
