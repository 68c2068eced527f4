import { describe, expect, it } from 'vitest';
import { Decimal } from '../../src/exchange/decimal';
import { MarketSimulator } from '../../src/exchange/paper/market-simulator';
import { PaperGateway } from '../../src/exchange/paper/paper-gateway';
import { PaperVenue, type PaperFillEvent, type PaperOrderEvent } from '../../src/exchange/paper/paper-venue';
import { InMemoryPaperLedgerStore } from '../fakes/in-memory-paper-ledger';

const START = Date.UTC(2026, 0, 5, 9, 0, 0);
const simulator = new MarketSimulator({ seed: 'kairos' });

function paperAccount(clock: () => number, balances: Record<string, string> = { USDT: '100000' }) {
  const venue = new PaperVenue({ store: new InMemoryPaperLedgerStore(), market: simulator, clock });
  const gateway = new PaperGateway(venue, 'acc');
  return { venue, gateway, funded: venue.fundAccount('acc', balances) };
}

/** First minute boundary after `from` where the simulated price is at or below `limit`. */
function firstTimeAtOrBelow(symbol: string, limit: Decimal, from: number): number {
  for (let t = from; t < from + 7 * 86_400_000; t += 60_000) {
    if (simulator.price(symbol, t).lte(limit)) return t;
  }
  throw new Error('price never got there');
}

describe('PaperGateway on the market simulator', () => {
  it('fills a market order at the VWAP of the book it shows, fee 0.1 % of the cost', async () => {
    const { gateway, funded } = paperAccount(() => START);
    await funded;
    const book = await gateway.fetchOrderBook('ETH/USDT');
    const amount = new Decimal(book.asks[0]![1]).plus(book.asks[1]![1]).plus('0.5');
    const order = await gateway.createOrder({
      symbol: 'ETH/USDT',
      side: 'buy',
      type: 'market',
      amount: amount.toFixed(),
      clientOrderId: 'vwap',
    });
    let remaining = amount;
    let cost = new Decimal(0);
    let fee = new Decimal(0);
    for (const [price, size] of book.asks) {
      const take = Decimal.min(remaining, size);
      cost = cost.plus(take.times(price));
      fee = fee.plus(take.times(price).times('0.001').toDecimalPlaces(8, Decimal.ROUND_HALF_UP));
      remaining = remaining.minus(take);
      if (remaining.isZero()) break;
    }
    expect(order.status).toBe('filled');
    expect(order.fee).toEqual({ cost: fee.toFixed(), currency: 'USDT' });
    expect(order.average).toBe(cost.div(amount).toDecimalPlaces(12).toFixed());
    expect((await gateway.fetchBalances())['USDT']!.total).toBe(
      new Decimal(100000).minus(cost).minus(fee).toFixed(),
    );
  });

  it('walks deeper than the top of the book when an order needs it', async () => {
    const { gateway, funded } = paperAccount(() => START, { USDT: '100000000' });
    await funded;
    const book = await gateway.fetchOrderBook('BTC/USDT');
    const deep = book.asks.slice(0, 6);
    const amount = deep.reduce((total, [, size]) => total.plus(size), new Decimal(0));
    const order = await gateway.createOrder({
      symbol: 'BTC/USDT',
      side: 'buy',
      type: 'market',
      amount: amount.toFixed(),
      clientOrderId: 'deep',
    });
    expect(order.status).toBe('filled');
    expect(order.fills!.map((f) => [f.price, f.amount])).toEqual(deep.map(([p, a]) => [p, a]));
  });

  it('fills partially when an order is larger than the whole book', async () => {
    const { gateway, funded } = paperAccount(() => START, { USDT: '1000000000' });
    await funded;
    const book = await gateway.fetchOrderBook('SOL/USDT');
    const depth = book.asks.reduce((total, [, size]) => total.plus(size), new Decimal(0));
    const order = await gateway.createOrder({
      symbol: 'SOL/USDT',
      side: 'buy',
      type: 'market',
      amount: depth.times(2).toFixed(),
      clientOrderId: 'huge',
    });
    expect(order).toMatchObject({ status: 'expired', filled: depth.toFixed() });
  });

  it('fills resting orders from the price path, the same whether polled every minute or once', async () => {
    const symbol = 'BTC/USDT';
    const limit = simulator.price(symbol, START).times('0.997').toDecimalPlaces(2);
    const crossing = firstTimeAtOrBelow(symbol, limit, START);
    const end = crossing + 30 * 60_000;

    const results: Array<{ fills: unknown[]; events: PaperFillEvent[] }> = [];
    for (const pollEveryMinute of [true, false]) {
      let now = START;
      const { venue, gateway, funded } = paperAccount(() => now, { USDT: '1000000' });
      await funded;
      const events: PaperFillEvent[] = [];
      venue.events.on('fill', (event) => events.push(event));
      await gateway.createOrder({
        symbol,
        side: 'buy',
        type: 'limit',
        amount: '8',
        price: limit.toFixed(),
        clientOrderId: 'dip',
      });
      if (pollEveryMinute) {
        for (now = START; now <= end; now += 60_000) await venue.matchAll();
      }
      now = end;
      await venue.matchAll();
      results.push({ fills: await gateway.fetchMyTrades(symbol), events });
    }
    const [polled, once] = results;
    // Bigger than one minute's depth: it fills over several minutes.
    expect(polled!.fills.length).toBeGreaterThan(1);
    const shape = (fills: unknown[]) =>
      fills.map((fill) => {
        const { venueTradeId: _t, venueOrderId: _o, ...rest } = fill as Record<string, unknown>;
        return rest;
      });
    expect(shape(once!.fills)).toEqual(shape(polled!.fills));
    for (const fill of polled!.fills as Array<{ price: string; takerOrMaker: string; timestamp: number }>) {
      expect(fill).toMatchObject({ price: limit.toFixed(), takerOrMaker: 'maker' });
      expect(fill.timestamp).toBeGreaterThanOrEqual(crossing - 60_000);
    }
    expect(polled!.events.map((event) => event.fill.amount)).toEqual(
      (polled!.fills as Array<{ amount: string }>).map((fill) => fill.amount),
    );
  });

  it('answers an order with the fills it executed, and tells its own answers from news', async () => {
    let now = START;
    const { venue, gateway, funded } = paperAccount(() => now, { USDT: '1000000' });
    await funded;
    const events: PaperOrderEvent[] = [];
    venue.events.on('order', (event) => events.push(event));
    const book = await gateway.fetchOrderBook('ETH/USDT');
    const bought = await gateway.createOrder({
      symbol: 'ETH/USDT',
      side: 'buy',
      type: 'market',
      amount: new Decimal(book.asks[0]![1]).plus('0.5').toFixed(),
      clientOrderId: 'walk',
    });
    // Two levels of the book: two fills, listed with the answer exactly as the venue's trade list has them.
    expect(bought.fills).toHaveLength(2);
    expect(bought.fills!.reduce((total, f) => total.plus(f.amount), new Decimal(0)).toFixed()).toBe(
      bought.filled,
    );
    expect(await gateway.fetchMyTrades('ETH/USDT')).toEqual(bought.fills);
    // The same client order id again is that order, without fills of its own to report.
    const again = await gateway.createOrder({
      symbol: 'ETH/USDT',
      side: 'buy',
      type: 'market',
      amount: '0.5',
      clientOrderId: 'walk',
    });
    expect(again).toMatchObject({ venueOrderId: bought.venueOrderId, filled: bought.filled });
    expect(again.fills).toBeUndefined();

    const limit = simulator.price('BTC/USDT', START).times('0.997').toDecimalPlaces(2);
    const resting = await gateway.createOrder({
      symbol: 'BTC/USDT',
      side: 'buy',
      type: 'limit',
      amount: '0.01',
      price: limit.toFixed(),
      clientOrderId: 'dip',
    });
    expect(resting).toMatchObject({ status: 'open', fills: [] });
    const cancelMe = await gateway.createOrder({
      symbol: 'BTC/USDT',
      side: 'buy',
      type: 'limit',
      amount: '0.01',
      price: limit.times('0.5').toDecimalPlaces(2).toFixed(),
      clientOrderId: 'low',
    });
    expect(events.map((e) => [e.order.clientOrderId, e.reported])).toEqual([
      ['walk', true],
      ['dip', true],
      ['low', true],
    ]);

    // The tick fills the resting order: news nobody was told.
    events.length = 0;
    now = firstTimeAtOrBelow('BTC/USDT', limit, START) + 60_000;
    await venue.matchAll();
    expect(events.map((e) => [e.order.clientOrderId, e.order.status, e.reported])).toEqual([
      ['dip', 'filled', false],
    ]);
    events.length = 0;
    await gateway.cancelOrder(cancelMe.venueOrderId, 'BTC/USDT');
    expect(events.map((e) => [e.order.clientOrderId, e.order.status, e.reported])).toEqual([
      ['low', 'cancelled', true],
    ]);
  });

  it('leaves the stored checkpoint of an order nothing happened to for a minute', async () => {
    let now = START;
    const store = new InMemoryPaperLedgerStore();
    const venue = new PaperVenue({ store, market: simulator, clock: () => now });
    await venue.fundAccount('acc', { USDT: '10000' });
    const limit = simulator.price('BTC/USDT', START).times('0.5').toDecimalPlaces(2);
    await new PaperGateway(venue, 'acc').createOrder({
      symbol: 'BTC/USDT',
      side: 'buy',
      type: 'limit',
      amount: '0.01',
      price: limit.toFixed(),
      clientOrderId: 'far',
    });
    const stored = () => store.snapshot('acc').orders[0]!.checkedUntil;
    for (now = START + 1_000; now < START + 60_000; now += 1_000) await venue.matchAll();
    expect(stored()).toBe(START);
    now = START + 60_000;
    await venue.matchAll();
    expect(stored()).toBe(START + 60_000);
  });

  it('runs the matching tick on a timer until stopped', async () => {
    const symbol = 'ETH/USDT';
    const limit = simulator.price(symbol, START).times('0.998').toDecimalPlaces(2);
    let now = START;
    const { venue, gateway, funded } = paperAccount(() => now);
    await funded;
    await gateway.createOrder({
      symbol,
      side: 'buy',
      type: 'limit',
      amount: '0.5',
      price: limit.toFixed(),
      clientOrderId: 't',
    });
    const filled = new Promise<PaperFillEvent>((resolve) => venue.events.once('fill', resolve));
    now = firstTimeAtOrBelow(symbol, limit, START) + 60_000;
    venue.start(5);
    try {
      const event = await filled;
      expect(event).toMatchObject({ accountId: 'acc', marketType: 'spot', fill: { price: limit.toFixed() } });
    } finally {
      venue.stop();
    }
  });

  it('serves market data and accepts the futures symbol form', async () => {
    const { venue } = paperAccount(() => START);
    const futures = new PaperGateway(venue, 'acc', 'future');
    expect((await futures.fetchTicker('BTC/USDT:USDT')).last).toBe(
      simulator.price('BTC/USDT', START).toFixed(),
    );
    const candles = await futures.fetchCandles('BTC/USDT', '1h', undefined, 24);
    expect(candles).toHaveLength(24);
    const markets = await futures.listMarkets();
    expect(markets.find((m) => m.symbol === 'EUR/USDT')).toMatchObject({
      venueSymbol: 'EUR/USDT:USDT',
      type: 'swap',
    });
  });
});
