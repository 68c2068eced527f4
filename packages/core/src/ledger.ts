import { Decimal, toDecimal, type DecimalInput } from './money';
import type { PositionSide } from './signal-action';
import { parseSymbol } from './symbol';

/** One money movement of a trade as the ledger holds it (issue 19): a fill's leg, a fee or a funding payment. */
export interface LedgerMovement {
  kind: 'fill' | 'fee' | 'funding';
  /** Signed, in `currency`. */
  amount: DecimalInput;
  currency: string;
  /** Quote per unit of `currency` (a base leg or base fee: its fill's price; a third currency's fee: its rate). */
  rate?: DecimalInput | null;
  /** The fill or payment it comes from: a fill taken back and booked again nets out by it. */
  ref: string;
}

/**
 * What a trade's ledger movements add up to (issue 19): the fills' legs netted per fill, then summed. Every
 * figure a trade's PnL is computed from, whether the movements were added up here or by a database aggregate.
 */
export interface LedgerTotals {
  /** The quote paid (negative) and received over the fills. */
  quoteFlow: DecimalInput;
  /** The base still held: the fills' base legs' net. */
  held: DecimalInput;
  /** The entry fills' base quantity (a long's buys, a short's sells) and the quote they cost. */
  entryQuantity: DecimalInput;
  entryCost: DecimalInput;
  /** Fees and funding in the quote, signed as the money moved (a fee paid is negative). */
  other: DecimalInput;
}

/** The realised PnL the totals give: the quote flow, the fees and funding, and what is held at the average entry. */
export function realisedPnlFromTotals(totals: LedgerTotals): Decimal {
  const held = toDecimal(totals.held);
  const entryQuantity = toDecimal(totals.entryQuantity);
  const pnl = toDecimal(totals.quoteFlow).plus(toDecimal(totals.other));
  if (held.isZero() || entryQuantity.isZero()) return pnl;
  return pnl.plus(held.times(toDecimal(totals.entryCost).div(entryQuantity)));
}

/**
 * A trade's realised PnL from its ledger movements alone — what `computeTradePnl` gives from its fills, fees
 * and funding: the quote paid and received, the fees (a base or third-currency fee at its recorded rate), the
 * funding, and what is still held (the base legs' net) at the average entry price. The entry fills are the
 * buys of a long and the sells of a short, after each fill's events are netted (a fill replaced or corrected
 * is taken back and booked again under its own ref). Null when a movement in another currency than the
 * trade's base or quote has no rate.
 */
export function realisedPnlFromLedger(
  movements: readonly LedgerMovement[],
  trade: { side: PositionSide; symbol: string },
): Decimal | null {
  const { quote } = parseSymbol(trade.symbol);
  let other = new Decimal(0);
  /** Each fill's net legs: quote and base. */
  const fills = new Map<string, { quote: Decimal; base: Decimal }>();
  for (const m of movements) {
    const amount = toDecimal(m.amount);
    if (m.kind === 'fill') {
      const legs = fills.get(m.ref) ?? { quote: new Decimal(0), base: new Decimal(0) };
      if (m.currency === quote) legs.quote = legs.quote.plus(amount);
      else legs.base = legs.base.plus(amount);
      fills.set(m.ref, legs);
    } else if (m.currency === quote) other = other.plus(amount);
    else if (m.rate != null) other = other.plus(amount.times(toDecimal(m.rate)));
    else return null;
  }
  let quoteFlow = new Decimal(0);
  let held = new Decimal(0);
  let entryQuantity = new Decimal(0);
  let entryCost = new Decimal(0);
  for (const legs of fills.values()) {
    quoteFlow = quoteFlow.plus(legs.quote);
    held = held.plus(legs.base);
    const entry = trade.side === 'long' ? legs.base.gt(0) : legs.base.lt(0);
    if (entry) {
      entryQuantity = entryQuantity.plus(legs.base.abs());
      entryCost = entryCost.plus(legs.quote.abs());
    }
  }
  return realisedPnlFromTotals({ quoteFlow, held, entryQuantity, entryCost, other });
}
