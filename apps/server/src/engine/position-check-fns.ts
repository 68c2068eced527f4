import { sum, toDecimal, type Decimal } from '@kairos/core';

// The venue's futures positions against what Kairos's open trades hold (the lifecycle invariant's "its trade's
// quantity equals the venue's"), and the venue's fills of a close made outside Kairos shared out to the trades
// that held the position. Pure: the sweep (position-check.ts) reads and writes.

export type Side = 'long' | 'short';

/** One open trade as the comparison needs it: what it holds now (its entry fills less its exit fills). */
export type HeldTrade = { id: string; symbol: string; side: Side; held: Decimal; openedAt: Date };

/** One venue position, in base units. */
export type VenuePosition = { symbol: string; side: Side; amount: string };

export type Mismatch =
  /** The venue holds less on this side than the trades: `missing` was closed outside Kairos. */
  | {
      kind: 'short';
      symbol: string;
      side: Side;
      ours: Decimal;
      venue: Decimal;
      missing: Decimal;
      trades: HeldTrade[];
    }
  /** The venue holds more than the trades (opened by hand, a duplicate): never traded away, only reported. */
  | { kind: 'excess'; symbol: string; side: Side; ours: Decimal; venue: Decimal; trades: HeldTrade[] }
  /**
   * A one-way (netting) account where the trades hold both sides of one symbol and the venue's net differs:
   * which trade lost what cannot be told, so it is only reported.
   */
  | { kind: 'net'; symbol: string; ours: Decimal; venue: Decimal; trades: HeldTrade[] };

/**
 * Where the venue's positions and the trades' holdings disagree, per symbol and side. `skip`: symbols not
 * compared this time (an order of ours there has no venue answer yet: its fills could be anything).
 * `tolerance`: a difference below it (a symbol's amount step) is not one. Symbols the venue holds with no trade
 * of ours on them are reported as excess with no trades.
 */
export function compareHoldings(
  trades: readonly HeldTrade[],
  positions: readonly VenuePosition[],
  options: { skip?: ReadonlySet<string>; tolerance?: (symbol: string) => Decimal } = {},
): Mismatch[] {
  const symbols = [...new Set([...trades.map((t) => t.symbol), ...positions.map((p) => p.symbol)])].sort();
  const out: Mismatch[] = [];
  for (const symbol of symbols) {
    if (options.skip?.has(symbol)) continue;
    const tolerance = options.tolerance?.(symbol) ?? toDecimal(0);
    const of = (side: Side) => trades.filter((t) => t.symbol === symbol && t.side === side && t.held.gt(0));
    const venueOf = (side: Side) =>
      sum(positions.filter((p) => p.symbol === symbol && p.side === side).map((p) => p.amount));
    const long = of('long');
    const short = of('short');
    const ours = { long: sum(long.map((t) => t.held)), short: sum(short.map((t) => t.held)) };
    const venue = { long: venueOf('long'), short: venueOf('short') };
    // Trades on both sides and a venue showing at most one: the account nets (one-way mode).
    if (long.length > 0 && short.length > 0 && !(venue.long.gt(0) && venue.short.gt(0))) {
      const ourNet = ours.long.minus(ours.short);
      const venueNet = venue.long.minus(venue.short);
      if (ourNet.minus(venueNet).abs().gt(tolerance))
        out.push({ kind: 'net', symbol, ours: ourNet, venue: venueNet, trades: [...long, ...short] });
      continue;
    }
    for (const side of ['long', 'short'] as const) {
      const held = side === 'long' ? ours.long : ours.short;
      const theirs = side === 'long' ? venue.long : venue.short;
      const list = side === 'long' ? long : short;
      const diff = held.minus(theirs);
      if (diff.abs().lte(tolerance) || diff.isZero()) continue;
      out.push(
        diff.gt(0)
          ? { kind: 'short', symbol, side, ours: held, venue: theirs, missing: diff, trades: list }
          : { kind: 'excess', symbol, side, ours: held, venue: theirs, trades: list },
      );
    }
  }
  return out;
}

/**
 * How much of `missing` each trade lost: the newest trade first (the older ones keep what they hold, with
 * their stops moved and ladders part-filled), each at most what it holds. A venue holding nothing takes it all.
 */
export function shareShortfall(trades: readonly HeldTrade[], missing: Decimal): Map<string, Decimal> {
  const out = new Map<string, Decimal>();
  let left = missing;
  const newestFirst = [...trades].sort((a, b) => b.openedAt.getTime() - a.openedAt.getTime());
  for (const trade of newestFirst) {
    if (left.lte(0)) break;
    const part = trade.held.lt(left) ? trade.held : left;
    if (part.gt(0)) out.set(trade.id, part);
    left = left.minus(part);
  }
  return out;
}

export type ForeignFill = {
  venueTradeId: string;
  venueOrderId: string;
  price: string;
  amount: string;
  fee: string;
  feeCurrency: string | null;
  timestamp: number;
};

/** A venue fill, or the part of one, booked on a trade. */
export type AllocatedFill = ForeignFill & { tradeId: string };

/**
 * The venue's fills of orders not Kairos's, oldest first, given out to the trades in `needs` (what each lost)
 * in the order given: a fill larger than what a trade still needs is split, its fee in proportion. Returns the
 * parts per trade, and what no fill covered (the venue's fills of the close not found, or not all).
 */
export function allocateFills(
  needs: ReadonlyMap<string, Decimal>,
  fills: readonly ForeignFill[],
): { parts: AllocatedFill[]; uncovered: Map<string, Decimal> } {
  const queue = [...fills]
    .sort((a, b) => a.timestamp - b.timestamp || a.venueTradeId.localeCompare(b.venueTradeId))
    .map((f) => ({ fill: f, left: toDecimal(f.amount) }));
  const parts: AllocatedFill[] = [];
  const uncovered = new Map<string, Decimal>();
  for (const [tradeId, need] of needs) {
    let wanted = need;
    for (const entry of queue) {
      if (wanted.lte(0)) break;
      if (entry.left.lte(0)) continue;
      const take = entry.left.lt(wanted) ? entry.left : wanted;
      const whole = toDecimal(entry.fill.amount);
      const fee = take.eq(whole)
        ? toDecimal(entry.fill.fee)
        : toDecimal(entry.fill.fee).times(take).div(whole);
      parts.push({ ...entry.fill, amount: take.toFixed(), fee: fee.toFixed(), tradeId });
      entry.left = entry.left.minus(take);
      wanted = wanted.minus(take);
    }
    if (wanted.gt(0)) uncovered.set(tradeId, wanted);
  }
  return { parts, uncovered };
}
