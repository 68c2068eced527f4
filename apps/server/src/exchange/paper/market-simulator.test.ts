import { describe, expect, it } from 'vitest';
import { Decimal, isMultipleOf } from '../decimal';
import { MarketSimulator, SIMULATION_EPOCH_MS } from './market-simulator';

const NOW = Date.UTC(2026, 0, 5, 12, 34, 56, 789);
const HOUR = 3_600_000;

describe('MarketSimulator', () => {
  it('lists at least 10 USDT pairs and EUR/USDT, with realistic filters', () => {
    const symbols = new MarketSimulator().listMarkets().map((market) => market.symbol);
    expect(symbols.filter((symbol) => symbol.endsWith('/USDT')).length).toBeGreaterThanOrEqual(11);
    for (const base of [
      'BTC',
      'ETH',
      'SOL',
      'BNB',
      'XRP',
      'ADA',
      'DOGE',
      'AVAX',
      'LINK',
      'DOT',
      'LTC',
      'EUR',
    ]) {
      expect(symbols).toContain(`${base}/USDT`);
    }
  });

  it('gives the same prices for the same seed, in any order and any instance', () => {
    const times = [NOW, NOW - 37 * HOUR, NOW + 1_234, SIMULATION_EPOCH_MS + 86_400_000 * 400 + 59_999];
    const a = new MarketSimulator({ seed: 'replay' });
    const b = new MarketSimulator({ seed: 'replay' });
    const forward = times.map((t) => a.price('BTC/USDT', t).toFixed());
    const backward = [...times]
      .reverse()
      .map((t) => b.price('BTC/USDT', t).toFixed())
      .reverse();
    expect(backward).toEqual(forward);
    expect(new MarketSimulator({ seed: 'other' }).price('BTC/USDT', NOW).toFixed()).not.toBe(forward[0]);
  });

  it('starts every market at its start price and keeps it in a realistic range for years', () => {
    const simulator = new MarketSimulator();
    for (const market of simulator.listMarkets()) {
      const start = new Decimal(market.startPrice);
      expect(simulator.price(market.symbol, SIMULATION_EPOCH_MS).toFixed()).toBe(start.toFixed());
      for (let day = 0; day < 1_000; day += 7) {
        const price = simulator.price(market.symbol, SIMULATION_EPOCH_MS + day * 86_400_000);
        expect(price.div(start).toNumber()).toBeGreaterThan(0.25);
        expect(price.div(start).toNumber()).toBeLessThan(4);
        expect(isMultipleOf(price, new Decimal(market.priceTick))).toBe(true);
      }
    }
  });

  it('moves continuously: prices between two minute boundaries lie between them', () => {
    const simulator = new MarketSimulator();
    const minuteStart = Math.floor(NOW / 60_000) * 60_000;
    const a = simulator.price('ETH/USDT', minuteStart);
    const b = simulator.price('ETH/USDT', minuteStart + 60_000);
    const mid = simulator.price('ETH/USDT', minuteStart + 30_000);
    expect(mid.gte(Decimal.min(a, b))).toBe(true);
    expect(mid.lte(Decimal.max(a, b))).toBe(true);
  });

  it('builds candles that chain (close = next open) and contain their open and close', () => {
    const simulator = new MarketSimulator();
    for (const timeframe of ['1m', '15m', '1h', '1d', '1w'] as const) {
      const candles = simulator.candles('SOL/USDT', timeframe, undefined, 50, NOW);
      expect(candles).toHaveLength(50);
      for (let i = 0; i < candles.length; i++) {
        const c = candles[i]!;
        expect(new Decimal(c.high).gte(Decimal.max(c.open, c.close))).toBe(true);
        expect(new Decimal(c.low).lte(Decimal.min(c.open, c.close))).toBe(true);
        if (i > 0) expect(c.open).toBe(candles[i - 1]!.close);
      }
      expect(candles.at(-1)!.close).toBe(simulator.price('SOL/USDT', NOW).toFixed());
    }
  });

  it("keeps a day's candle consistent with its hourly candles", () => {
    const simulator = new MarketSimulator();
    const dayStart = Date.UTC(2025, 10, 3);
    const [day] = simulator.candles('BTC/USDT', '1d', dayStart, 1, NOW);
    const hours = simulator.candles('BTC/USDT', '1h', dayStart, 24, NOW);
    expect(day!.open).toBe(hours[0]!.open);
    expect(day!.close).toBe(hours[23]!.close);
    expect(day!.high).toBe(Decimal.max(...hours.map((h) => h.high)).toFixed());
    expect(day!.low).toBe(Decimal.min(...hours.map((h) => h.low)).toFixed());
  });

  it('opens weekly candles on Monday 00:00 UTC', () => {
    const [week] = new MarketSimulator().candles('BTC/USDT', '1w', undefined, 1, NOW);
    expect(new Date(week!.time).toISOString()).toBe('2026-01-05T00:00:00.000Z');
  });

  it('quotes a book around the mid: ordered levels on the tick, sizes on the step', () => {
    const simulator = new MarketSimulator();
    const spec = simulator.getMarket('XRP/USDT')!;
    const mid = simulator.price('XRP/USDT', NOW);
    const book = simulator.orderBook('XRP/USDT', NOW);
    expect(book.bids).toHaveLength(25);
    expect(book.asks).toHaveLength(25);
    expect(book.bids[0]![0].lt(mid)).toBe(true);
    expect(book.asks[0]![0].gt(mid)).toBe(true);
    for (const side of [book.bids, book.asks]) {
      for (const [price, size] of side) {
        expect(isMultipleOf(price, new Decimal(spec.priceTick))).toBe(true);
        expect(isMultipleOf(size, new Decimal(spec.amountStep))).toBe(true);
        expect(size.gt(0)).toBe(true);
      }
    }
    for (let i = 1; i < 25; i++) {
      expect(book.bids[i]![0].lt(book.bids[i - 1]![0])).toBe(true);
      expect(book.asks[i]![0].gt(book.asks[i - 1]![0])).toBe(true);
    }
    expect(simulator.orderBook('XRP/USDT', NOW)).toEqual(book);
  });

  it('answers a kept price or book exactly as it computes a new one, whatever was asked before', () => {
    // The simulator keeps each symbol's last price and books: asked in any order, at any depth, the answers
    // equal a fresh simulator's.
    const kept = new MarketSimulator();
    const asks: Array<[string, number, number | undefined]> = [];
    for (let i = 0; i < 40; i++)
      asks.push([i % 3 === 0 ? 'ETH/USDT' : 'BTC/USDT', NOW + (i % 7) * 13_001, [1, 5, undefined][i % 3]]);
    for (const [symbol, time, levels] of [...asks, ...asks.reverse()]) {
      const fresh = new MarketSimulator();
      expect(kept.price(symbol, time).toFixed()).toBe(fresh.price(symbol, time).toFixed());
      expect(kept.orderBook(symbol, time, levels)).toEqual(fresh.orderBook(symbol, time, levels));
    }
  });

  it('cuts the path into contiguous minute pieces', () => {
    const simulator = new MarketSimulator();
    const segments = [...simulator.pathSegments('LTC/USDT', NOW - 150_000, NOW)];
    expect(segments[0]!.start).toBe(NOW - 150_000);
    expect(segments.at(-1)!.end).toBe(NOW);
    for (let i = 1; i < segments.length; i++) expect(segments[i]!.start).toBe(segments[i - 1]!.end);
    for (const segment of segments) expect(segment.low.lte(segment.high)).toBe(true);
    expect(segments).toHaveLength(3);
  });

  it('reports the same 24 h ticker however often it is asked within a minute', () => {
    const asked = new MarketSimulator();
    const times = [NOW - 20_000, NOW - 1, NOW, NOW + 3_000, NOW + 60_000, NOW - HOUR];
    for (const t of times) asked.ticker('ETH/USDT', t);
    for (const t of times) {
      expect(asked.ticker('ETH/USDT', t)).toEqual(new MarketSimulator().ticker('ETH/USDT', t));
    }
  });

  it('builds the first levels of a book the same whatever its depth', () => {
    const simulator = new MarketSimulator();
    const top = simulator.orderBook('SOL/USDT', NOW, 3);
    const full = simulator.orderBook('SOL/USDT', NOW);
    expect(top.asks).toEqual(full.asks.slice(0, 3));
    expect(top.bids).toEqual(full.bids.slice(0, 3));
  });

  it('reports a 24 h ticker consistent with the book and the path', () => {
    const simulator = new MarketSimulator();
    const ticker = simulator.ticker('DOGE/USDT', NOW);
    const book = simulator.orderBook('DOGE/USDT', NOW, 1);
    expect(ticker.last).toBe(simulator.price('DOGE/USDT', NOW).toFixed());
    expect(ticker.bid).toBe(book.bids[0]![0].toFixed());
    expect(ticker.ask).toBe(book.asks[0]![0].toFixed());
    expect(ticker.open).toBe(simulator.price('DOGE/USDT', NOW - 86_400_000).toFixed());
    expect(new Decimal(ticker.high!).gte(ticker.last!)).toBe(true);
    expect(new Decimal(ticker.low!).lte(ticker.last!)).toBe(true);
  });
});
