import { toDecimal } from '@kairos/core';

/** One open trade with a stop, as the stop watch keeps it in memory. */
export type WatchedStop = {
  id: string;
  accountId: string;
  symbol: string;
  side: 'long' | 'short';
  stop: string;
  /** A venue stop rests at this very price (the watch leaves it a grace period). */
  restsOnVenue: boolean;
};

/** Long: the price fell to the stop; short: it rose to it. */
export function stopCrossed(side: 'long' | 'short', stop: string, last: string): boolean {
  return side === 'long' ? toDecimal(last).lte(stop) : toDecimal(last).gte(stop);
}

type Side = { stops: WatchedStop[]; keys: Float64Array };

/**
 * `stops` ordered so that the crossed ones come first for any price: longs by stop, highest first (a long
 * is crossed by every price at or under its stop); shorts by stop, lowest first. `Number()` of a decimal is
 * monotonic, so the order by float key agrees with the decimal order wherever the floats differ.
 */
function sideOf(stops: WatchedStop[], highestFirst: boolean): Side {
  const keyed = stops.map((s) => ({ s, key: Number(s.stop) }));
  keyed.sort((a, b) => (highestFirst ? b.key - a.key : a.key - b.key));
  return { stops: keyed.map((k) => k.s), keys: Float64Array.from(keyed, (k) => k.key) };
}

/**
 * The stops of one venue and symbol, sorted so that a price finds the crossed ones without looking at the
 * others: the crossed ones are a prefix of each side. The prefix is walked on the float keys (every trade
 * whose decimal stop is crossed has its key crossed too) and each candidate confirmed in decimals.
 */
function crossedIn(side: Side, last: string, long: boolean): WatchedStop[] {
  const price = Number(last);
  const out: WatchedStop[] = [];
  for (let i = 0; i < side.keys.length; i++) {
    const key = side.keys[i]!;
    if (long ? key < price : key > price) break;
    const stop = side.stops[i]!;
    if (stopCrossed(stop.side, stop.stop, last)) out.push(stop);
  }
  return out;
}

/**
 * A snapshot of every watched stop, indexed per venue and symbol (the watch replaces it on each refresh from
 * the database): which symbols each venue must be priced for, and the trades a price crosses.
 */
export function buildStopBook(rows: Iterable<{ venue: string; stop: WatchedStop }>) {
  const grouped = new Map<string, Map<string, WatchedStop[]>>();
  let size = 0;
  for (const { venue, stop } of rows) {
    let symbols = grouped.get(venue);
    if (!symbols) grouped.set(venue, (symbols = new Map()));
    let list = symbols.get(stop.symbol);
    if (!list) symbols.set(stop.symbol, (list = []));
    list.push(stop);
    size += 1;
  }
  const index = new Map<string, Map<string, { longs: Side; shorts: Side }>>();
  for (const [venue, symbols] of grouped) {
    const sides = new Map<string, { longs: Side; shorts: Side }>();
    for (const [symbol, list] of symbols) {
      sides.set(symbol, {
        longs: sideOf(
          list.filter((s) => s.side === 'long'),
          true,
        ),
        shorts: sideOf(
          list.filter((s) => s.side === 'short'),
          false,
        ),
      });
    }
    index.set(venue, sides);
  }
  return {
    size,
    venues: (): string[] => [...index.keys()],
    symbols: (venue: string): string[] => [...(index.get(venue)?.keys() ?? [])],
    /** The stops of `venue`'s `symbol` that `last` crossed. */
    crossed(venue: string, symbol: string, last: string): WatchedStop[] {
      const sides = index.get(venue)?.get(symbol);
      if (!sides) return [];
      return [...crossedIn(sides.longs, last, true), ...crossedIn(sides.shorts, last, false)];
    },
  };
}

export type StopBook = ReturnType<typeof buildStopBook>;
