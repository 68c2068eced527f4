import { Decimal } from '../../src/exchange/decimal';
import type { Candle, Ticker } from '../../src/exchange/gateway';
import type { PaperMarketData, PathSegment, SimulatedBook } from '../../src/exchange/paper/market-simulator';
import type { PaperMarketSpec } from '../../src/exchange/paper/paper-markets';
import { PaperVenue } from '../../src/exchange/paper/paper-venue';
import { InMemoryPaperLedgerStore } from './in-memory-paper-ledger';

/**
 * A paper market whose book and price path the test writes by hand, so fills and fees can be checked to
 * the last decimal. `moveTo(price)` appends a straight piece of path ending now.
 */
export class ScriptedMarket implements PaperMarketData {
  readonly spec: PaperMarketSpec = {
    symbol: 'BTC/USDT',
    base: 'BTC',
    quote: 'USDT',
    startPrice: '65000',
    priceTick: '0.01',
    amountStep: '0.00001',
    minAmount: '0.00001',
    minNotional: '5',
    annualVolatility: 0.5,
    levelDepthQuote: 10_000,
    halfSpreadBps: 1,
  };
  mid = new Decimal('65000');
  book: SimulatedBook = {
    asks: [
      [new Decimal('65000.00'), new Decimal('0.1')],
      [new Decimal('65010.00'), new Decimal('0.2')],
      [new Decimal('65020.00'), new Decimal('0.5')],
    ],
    bids: [
      [new Decimal('64990.00'), new Decimal('0.1')],
      [new Decimal('64980.00'), new Decimal('0.2')],
      [new Decimal('64970.00'), new Decimal('0.5')],
    ],
  };
  /** What resting orders can fill per crossed segment. */
  depthPerSegment = new Decimal('1');
  private readonly moves: Array<{ at: number; price: Decimal }> = [];

  constructor(private readonly clock: () => number) {}

  moveTo(price: string): void {
    this.moves.push({ at: this.clock(), price: new Decimal(price) });
    this.mid = new Decimal(price);
  }

  listMarkets() {
    return [this.spec];
  }
  getMarket(symbol: string) {
    return symbol === this.spec.symbol ? this.spec : undefined;
  }
  price() {
    return this.mid;
  }
  orderBook(_symbol: string, _time: number, levels = 25): SimulatedBook {
    return { asks: this.book.asks.slice(0, levels), bids: this.book.bids.slice(0, levels) };
  }
  crossingDepth() {
    return this.depthPerSegment;
  }
  *pathSegments(_symbol: string, from: number, to: number): Iterable<PathSegment> {
    let previous: Decimal | null = null;
    for (const move of this.moves) {
      const before: Decimal = previous ?? move.price;
      previous = move.price;
      if (move.at <= from || move.at > to) continue;
      yield {
        start: from,
        end: move.at,
        low: Decimal.min(before, move.price),
        high: Decimal.max(before, move.price),
      };
    }
  }
  candles(): Candle[] {
    return [];
  }
  ticker(symbol: string, time: number): Ticker {
    return {
      symbol,
      last: this.mid.toFixed(),
      bid: null,
      ask: null,
      high: null,
      low: null,
      open: null,
      changePercent: null,
      baseVolume: null,
      quoteVolume: null,
      timestamp: time,
    };
  }
}

/**
 * A paper venue on a scripted market and an in-memory ledger, at a clock the test moves (`clock.now`), its ids
 * counted ('id1', 'id2', …).
 */
export function scriptedPaperVenue(start = Date.UTC(2026, 0, 5, 12, 0, 0)) {
  const clock = { now: start };
  let ids = 0;
  const store = new InMemoryPaperLedgerStore();
  const market = new ScriptedMarket(() => clock.now);
  const venue = new PaperVenue({ store, market, clock: () => clock.now, newId: () => `id${++ids}` });
  /** A minute later the price is at `mid`, with one level of 1 BTC on each side around it. */
  const later = (mid: string, bid: string, ask: string) => {
    clock.now += 60_000;
    market.moveTo(mid);
    market.book = {
      bids: [[new Decimal(bid), new Decimal('1')]],
      asks: [[new Decimal(ask), new Decimal('1')]],
    };
  };
  return { clock, store, market, venue, later };
}
