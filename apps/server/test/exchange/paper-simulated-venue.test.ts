import { describe, expect, it } from 'vitest';
import { Decimal } from '../../src/exchange/decimal';
import { MarketSimulator } from '../../src/exchange/paper/market-simulator';
import { PaperGateway } from '../../src/exchange/paper/paper-gateway';
import { PaperVenue, type PaperFillEvent } from '../../src/exchange/paper/paper-venue';
import { InMemoryPaperLedgerStore } from './in-memory-paper-ledger';

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
