import { Decimal, ceilToStep, floorToStep, roundToStep } from '../decimal';
import { TIMEFRAME_MS, type Candle, type Ticker, type Timeframe } from '../gateway';
import { PAPER_MARKETS, type PaperMarketSpec } from './paper-markets';
import { hashString, normalAt, uniformAt } from './seeded-random';

/**
 * Deterministic, replayable market for the paper venue. The price of a symbol at time t is a pure function
 * of (seed, symbol, t): a mean-reverting daily walk, bridged minute by minute by a geometric random walk, and
 * linear inside each minute. Nothing is stored, so every process (and every restart) sees the same market.
 *
 * The walk is model generation in floating point; everything handed out (prices, sizes, candles) is a
 * Decimal rounded to the market's tick or step, and all money arithmetic happens on those.
 */

/** What the paper venue needs from a market: the simulator, or a scripted fake in tests. */
export interface PaperMarketData {
  listMarkets(): readonly PaperMarketSpec[];
  getMarket(symbol: string): PaperMarketSpec | undefined;
  /** Mid price at `time`, on the tick. */
  price(symbol: string, time: number): Decimal;
  orderBook(symbol: string, time: number, levels?: number): SimulatedBook;
  /** Quantity resting orders can fill at `limit` during the minute of `time` when the price reached `extreme`. */
  crossingDepth(
    symbol: string,
    side: 'buy' | 'sell',
    limit: Decimal,
    extreme: Decimal,
    time: number,
  ): Decimal;
  /** Straight pieces of the price path inside (from, to]: resting orders are checked against each. */
  pathSegments(symbol: string, from: number, to: number): Iterable<PathSegment>;
  candles(
    symbol: string,
    timeframe: Timeframe,
    since: number | undefined,
    limit: number,
    now: number,
  ): Candle[];
  ticker(symbol: string, time: number): Ticker;
}

export interface SimulatedBook {
  /** Best first: [price, amount]. The simulator's books are shared by its callers (kept): read them only. */
  bids: Array<[Decimal, Decimal]>;
  asks: Array<[Decimal, Decimal]>;
}

export interface PathSegment {
  start: number;
  end: number;
  low: Decimal;
  high: Decimal;
}

export const SIMULATION_EPOCH_MS = Date.UTC(2024, 0, 1);
const MINUTE_MS = 60_000;
const MINUTES_PER_DAY = 1440;
const DAY_MS = 86_400_000;
/** Pull of the daily level back toward the start price, per day: keeps prices realistic over years. */
const MEAN_REVERSION_PER_DAY = 0.02;
const BOOK_LEVELS = 25;
/** How many books of one symbol are kept (`orderBook`): a few milliseconds of tops and whole books. */
const BOOKS_KEPT = 8;
/** Distance between book levels, in basis points of the mid. */
const LEVEL_SPACING_BPS = 2;
/** Weekly candles open on Monday 00:00 UTC (1970-01-05 was a Monday). */
const WEEK_ORIGIN_MS = 4 * DAY_MS;
const DAY_PATH_CACHE = 512;
/** Largest 1-minute wick, in minute sigmas. */
const WICK_SIGMAS = 0.6;

interface DaySummary {
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

class SymbolPath {
  private readonly stream: number;
  private readonly sigmaDay: number;
  readonly sigmaMinute: number;
  private readonly logStart: number;
  private readonly dayLevels: number[] = [0];
  private readonly dayPaths = new Map<number, Float64Array>();
  private readonly daySummaries = new Map<number, DaySummary>();
  /** The last window of whole minutes summed for a 24 h ticker: the same for every call within a minute. */
  private lastWindow: { from: number; to: number; summary: DaySummary } | null = null;

  constructor(
    readonly spec: PaperMarketSpec,
    seed: string,
  ) {
    this.stream = hashString(`${seed}:${spec.symbol}`);
    this.sigmaDay = spec.annualVolatility / Math.sqrt(365);
    this.sigmaMinute = this.sigmaDay / Math.sqrt(MINUTES_PER_DAY);
    this.logStart = Math.log(Number(spec.startPrice));
  }

  /** Log-price offset at the start of `day` (days since the epoch). */
  private dayLevel(day: number): number {
    for (let d = this.dayLevels.length; d <= day; d++) {
      const previous = this.dayLevels[d - 1]!;
      const shock = normalAt(this.stream, d - 1, 0, 0);
      this.dayLevels.push(previous * (1 - MEAN_REVERSION_PER_DAY) + this.sigmaDay * shock);
    }
    return this.dayLevels[day]!;
  }

  /** Offsets at the 1,441 minute boundaries of `day`: a random walk bridged onto the two daily levels. */
  private dayPath(day: number): Float64Array {
    const cached = this.dayPaths.get(day);
    if (cached) return cached;
    const from = this.dayLevel(day);
    const to = this.dayLevel(day + 1);
    const walk = new Float64Array(MINUTES_PER_DAY + 1);
    for (let k = 1; k <= MINUTES_PER_DAY; k++) {
      walk[k] = walk[k - 1]! + this.sigmaMinute * normalAt(this.stream, day, 1, k);
    }
    const drift = walk[MINUTES_PER_DAY]! - (to - from);
    for (let k = 0; k <= MINUTES_PER_DAY; k++) {
      walk[k] = from + walk[k]! - (drift * k) / MINUTES_PER_DAY;
    }
    this.dayPaths.set(day, walk);
    if (this.dayPaths.size > DAY_PATH_CACHE) {
      this.dayPaths.delete(this.dayPaths.keys().next().value!);
    }
    return walk;
  }

  /** Log price at minute boundary `minute` (minutes since the epoch; earlier times sit at the start). */
  logAtMinute(minute: number): number {
    if (minute <= 0) return this.logStart + this.dayLevel(0);
    const day = Math.floor(minute / MINUTES_PER_DAY);
    return this.logStart + this.dayPath(day)[minute - day * MINUTES_PER_DAY]!;
  }

  /** Log price at `time`: linear between the two minute boundaries around it. */
  logAt(time: number): number {
    const offset = time - SIMULATION_EPOCH_MS;
    if (offset <= 0) return this.logAtMinute(0);
    const minute = Math.floor(offset / MINUTE_MS);
    const fraction = (offset - minute * MINUTE_MS) / MINUTE_MS;
    const a = this.logAtMinute(minute);
    if (fraction === 0) return a;
    return a + (this.logAtMinute(minute + 1) - a) * fraction;
  }

  /**
   * Candle of completed minute `minute` in log space, from the boundaries `open` → `close`. Wicks are
   * cosmetic (matching follows the path itself) and at most WICK_SIGMAS × sigmaMinute.
   */
  private minuteCandle(minute: number, open: number, close: number): DaySummary {
    const wick = WICK_SIGMAS * this.sigmaMinute;
    const move = Math.abs(close - open) / this.sigmaMinute;
    const quoteVolume =
      this.spec.levelDepthQuote * 0.4 * (0.2 + uniformAt(this.stream, minute, 4, 0)) * (1 + move);
    return {
      open,
      close,
      high: Math.max(open, close) + wick * uniformAt(this.stream, minute, 2, 0),
      low: Math.min(open, close) - wick * uniformAt(this.stream, minute, 3, 0),
      volume: quoteVolume / Math.exp(close),
    };
  }

  /** `summarise(from, to)`, remembered for the last window asked (callers must not change the result). */
  windowSummary(from: number, to: number, summarise: () => DaySummary): DaySummary {
    const last = this.lastWindow;
    if (last && last.from === from && last.to === to) return last.summary;
    const summary = summarise();
    this.lastWindow = { from, to, summary };
    return summary;
  }

  daySummary(day: number): DaySummary {
    const cached = this.daySummaries.get(day);
    if (cached) return cached;
    const summary = this.aggregateMinutes(day * MINUTES_PER_DAY, (day + 1) * MINUTES_PER_DAY);
    this.daySummaries.set(day, summary);
    return summary;
  }

  /** Candle over completed minutes [fromMinute, toMinute), walking the cached day paths directly. */
  aggregateMinutes(fromMinute: number, toMinute: number): DaySummary {
    let result: DaySummary | null = null;
    let minute = Math.max(0, fromMinute);
    while (minute < toMinute) {
      const day = Math.floor(minute / MINUTES_PER_DAY);
      const path = this.dayPath(day);
      const dayStart = day * MINUTES_PER_DAY;
      const until = Math.min(toMinute, dayStart + MINUTES_PER_DAY);
      for (; minute < until; minute++) {
        const k = minute - dayStart;
        const candle = this.minuteCandle(minute, this.logStart + path[k]!, this.logStart + path[k + 1]!);
        if (!result) {
          result = candle;
          continue;
        }
        if (candle.high > result.high) result.high = candle.high;
        if (candle.low < result.low) result.low = candle.low;
        result.close = candle.close;
        result.volume += candle.volume;
      }
    }
    if (result) return result;
    const flat = this.logAtMinute(Math.max(0, fromMinute));
    return { open: flat, close: flat, high: flat, low: flat, volume: 0 };
  }
}

export interface MarketSimulatorOptions {
  /** Same seed, same market, in every process and on every run. */
  seed?: string;
  markets?: readonly PaperMarketSpec[];
}

export class MarketSimulator implements PaperMarketData {
  private readonly paths = new Map<string, SymbolPath>();
  private readonly specs: readonly PaperMarketSpec[];
  /**
   * Each symbol's last price and last books, by time (and depth): a fan-out asks for the same millisecond's
   * price and book once per order, and both are pure functions of the symbol and the time.
   */
  private readonly lastPrice = new Map<string, { time: number; price: Decimal }>();
  private readonly lastBooks = new Map<string, Map<string, SimulatedBook>>();

  constructor(options: MarketSimulatorOptions = {}) {
    this.specs = options.markets ?? PAPER_MARKETS;
    const seed = options.seed ?? 'kairos';
    for (const spec of this.specs) this.paths.set(spec.symbol, new SymbolPath(spec, seed));
  }

  listMarkets(): readonly PaperMarketSpec[] {
    return this.specs;
  }

  getMarket(symbol: string): PaperMarketSpec | undefined {
    return this.paths.get(symbol)?.spec;
  }

  private path(symbol: string): SymbolPath {
    const path = this.paths.get(symbol);
    if (!path) throw new RangeError(`Unknown paper market ${symbol}`);
    return path;
  }

  private toPrice(path: SymbolPath, log: number): Decimal {
    const tick = new Decimal(path.spec.priceTick);
    const price = roundToStep(new Decimal(Math.exp(log).toPrecision(15)), tick);
    return price.gt(0) ? price : tick;
  }

  price(symbol: string, time: number): Decimal {
    const last = this.lastPrice.get(symbol);
    if (last?.time === time) return last.price;
    const path = this.path(symbol);
    const price = this.toPrice(path, path.logAt(time));
    this.lastPrice.set(symbol, { time, price });
    return price;
  }

  private levelSize(path: SymbolPath, mid: Decimal, minute: number, side: number, level: number): Decimal {
    const spec = path.spec;
    const stream = hashString(`${spec.symbol}:book`);
    const noise = 0.6 + 0.8 * uniformAt(stream, minute, side, level);
    const quote = spec.levelDepthQuote * (1 + 0.25 * level) * noise;
    const size = floorToStep(new Decimal(quote.toFixed(6)).div(mid), new Decimal(spec.amountStep));
    return Decimal.max(size, new Decimal(spec.minAmount));
  }

  private geometry(spec: PaperMarketSpec, mid: Decimal) {
    const tick = new Decimal(spec.priceTick);
    const halfSpread = Decimal.max(tick, ceilToStep(mid.times(spec.halfSpreadBps).div(10_000), tick));
    const spacing = Decimal.max(tick, roundToStep(mid.times(LEVEL_SPACING_BPS).div(10_000), tick));
    return { tick, halfSpread, spacing };
  }

  orderBook(symbol: string, time: number, levels = BOOK_LEVELS): SimulatedBook {
    const key = `${time}|${levels}`;
    let books = this.lastBooks.get(symbol);
    const known = books?.get(key);
    if (known) return known;
    const book = this.buildBook(symbol, time, levels);
    if (!books) this.lastBooks.set(symbol, (books = new Map()));
    // The last few books of the symbol (the top and the whole book of the last milliseconds).
    if (books.size >= BOOKS_KEPT) books.delete(books.keys().next().value!);
    books.set(key, book);
    return book;
  }

  private buildBook(symbol: string, time: number, levels: number): SimulatedBook {
    const path = this.path(symbol);
    const mid = this.price(symbol, time);
    const minute = Math.floor((time - SIMULATION_EPOCH_MS) / MINUTE_MS);
    const { tick, halfSpread, spacing } = this.geometry(path.spec, mid);
    const bids: Array<[Decimal, Decimal]> = [];
    const asks: Array<[Decimal, Decimal]> = [];
    for (let i = 0; i < Math.min(levels, BOOK_LEVELS); i++) {
      const bid = floorToStep(mid.minus(halfSpread).minus(spacing.times(i)), tick);
      const ask = ceilToStep(mid.plus(halfSpread).plus(spacing.times(i)), tick);
      if (bid.gt(0)) bids.push([bid, this.levelSize(path, mid, minute, 0, i)]);
      asks.push([ask, this.levelSize(path, mid, minute, 1, i)]);
    }
    return { bids, asks };
  }

  crossingDepth(
    symbol: string,
    side: 'buy' | 'sell',
    limit: Decimal,
    extreme: Decimal,
    time: number,
  ): Decimal {
    const path = this.path(symbol);
    const minute = Math.floor((time - SIMULATION_EPOCH_MS) / MINUTE_MS);
    const { halfSpread, spacing } = this.geometry(path.spec, extreme);
    let depth = new Decimal(0);
    for (let i = 0; i < BOOK_LEVELS; i++) {
      // A buy is hit by sellers quoting down to the extreme; a sell is lifted by buyers up to it.
      const quote =
        side === 'buy'
          ? extreme.plus(halfSpread).plus(spacing.times(i))
          : extreme.minus(halfSpread).minus(spacing.times(i));
      const reachable = side === 'buy' ? quote.lte(limit) : quote.gte(limit);
      if (i > 0 && !reachable) break;
      depth = depth.plus(this.levelSize(path, extreme, minute, side === 'buy' ? 1 : 0, i));
    }
    return depth;
  }

  *pathSegments(symbol: string, from: number, to: number): Iterable<PathSegment> {
    const path = this.path(symbol);
    let start = from;
    while (start < to) {
      const minuteEnd =
        (Math.floor((start - SIMULATION_EPOCH_MS) / MINUTE_MS) + 1) * MINUTE_MS + SIMULATION_EPOCH_MS;
      const end = Math.min(to, minuteEnd);
      const a = this.toPrice(path, path.logAt(start));
      const b = this.toPrice(path, path.logAt(end));
      yield { start, end, low: Decimal.min(a, b), high: Decimal.max(a, b) };
      start = end;
    }
  }

  candles(
    symbol: string,
    timeframe: Timeframe,
    since: number | undefined,
    limit: number,
    now: number,
  ): Candle[] {
    const path = this.path(symbol);
    const width = TIMEFRAME_MS[timeframe];
    const origin = timeframe === '1w' ? WEEK_ORIGIN_MS : 0;
    const align = (time: number) => Math.floor((time - origin) / width) * width + origin;
    const count = Math.max(1, Math.min(limit, 1000));
    const lastOpen = align(now);
    const firstOpen =
      since === undefined
        ? lastOpen - (count - 1) * width
        : align(since) + (align(since) < since ? width : 0);
    const candles: Candle[] = [];
    for (let open = firstOpen; open <= lastOpen && candles.length < count; open += width) {
      candles.push(this.candle(path, open, Math.min(open + width, now), width));
    }
    return candles;
  }

  private candle(path: SymbolPath, open: number, end: number, width: number): Candle {
    const fromMinute = Math.max(0, Math.ceil((open - SIMULATION_EPOCH_MS) / MINUTE_MS));
    const endMinute = Math.max(0, Math.floor((end - SIMULATION_EPOCH_MS) / MINUTE_MS));
    let summary: DaySummary;
    if (endMinute <= fromMinute) {
      const log = path.logAt(end);
      summary = { open: path.logAt(open), close: log, high: log, low: log, volume: 0 };
    } else if (width >= DAY_MS) {
      summary = path.windowSummary(fromMinute, endMinute, () =>
        this.aggregateDays(path, fromMinute, endMinute),
      );
    } else {
      summary = path.aggregateMinutes(fromMinute, endMinute);
    }
    // The running minute (if any) moves the close to the current price.
    const closeLog = path.logAt(end);
    const high = Math.max(summary.high, closeLog, summary.open);
    const low = Math.min(summary.low, closeLog, summary.open);
    const step = new Decimal(path.spec.amountStep);
    return {
      time: open,
      open: this.toPrice(path, summary.open).toFixed(),
      high: this.toPrice(path, high).toFixed(),
      low: this.toPrice(path, low).toFixed(),
      close: this.toPrice(path, closeLog).toFixed(),
      volume: floorToStep(new Decimal(summary.volume.toFixed(8)), step).toFixed(),
    };
  }

  /** Like aggregateMinutes, but whole days come from the per-day cache. */
  private aggregateDays(path: SymbolPath, fromMinute: number, toMinute: number): DaySummary {
    const parts: DaySummary[] = [];
    let minute = fromMinute;
    while (minute < toMinute) {
      const day = Math.floor(minute / MINUTES_PER_DAY);
      const dayEnd = (day + 1) * MINUTES_PER_DAY;
      if (minute === day * MINUTES_PER_DAY && dayEnd <= toMinute) {
        parts.push(path.daySummary(day));
        minute = dayEnd;
      } else {
        const until = Math.min(dayEnd, toMinute);
        parts.push(path.aggregateMinutes(minute, until));
        minute = until;
      }
    }
    const result = { ...parts[0]! };
    for (const part of parts.slice(1)) {
      result.high = Math.max(result.high, part.high);
      result.low = Math.min(result.low, part.low);
      result.close = part.close;
      result.volume += part.volume;
    }
    return result;
  }

  ticker(symbol: string, time: number): Ticker {
    const path = this.path(symbol);
    const last = this.price(symbol, time);
    const book = this.orderBook(symbol, time, 1);
    const dayAgo = time - DAY_MS;
    const open = this.price(symbol, dayAgo);
    const window = this.candle(path, dayAgo, time, DAY_MS);
    const baseVolume = new Decimal(window.volume);
    return {
      symbol,
      last: last.toFixed(),
      bid: book.bids[0]?.[0].toFixed() ?? null,
      ask: book.asks[0]?.[0].toFixed() ?? null,
      high: window.high,
      low: window.low,
      open: open.toFixed(),
      changePercent: last.minus(open).div(open).times(100).toDecimalPlaces(2).toFixed(),
      baseVolume: baseVolume.toFixed(),
      quoteVolume: baseVolume.times(last).toDecimalPlaces(2).toFixed(),
      timestamp: time,
    };
  }
}
