import { DomainRuleError } from './errors';
import { Decimal, sum, toDecimal, type DecimalInput } from './money';
import type { PositionSide } from './signal-action';
import { parseSymbol } from './symbol';

/** One execution as the venue reported it (deduped by venue trade id upstream). */
export interface Fill {
  side: 'buy' | 'sell';
  price: DecimalInput;
  quantity: DecimalInput;
  fee?: DecimalInput | null;
  feeCurrency?: string | null;
  /** Quote price of a fee paid in a third currency, recorded when the fill was (wins over `feeRates`). */
  feeRate?: DecimalInput | null;
}

export interface FeeAmount {
  currency: string;
  amount: Decimal;
}

export interface TradePnlInput {
  side: PositionSide;
  /** ccxt unified symbol; tells which fee currency is base and which is quote. */
  symbol: string;
  entryFills: readonly Fill[];
  exitFills: readonly Fill[];
  /** Quote-currency price of any other fee currency (e.g. `{ BNB: '600' }`). */
  feeRates?: Readonly<Record<string, DecimalInput>>;
  /** Futures funding booked on the trade, in quote currency: positive received, negative paid. */
  funding?: DecimalInput | null;
  openedAt?: Date | number | null;
  closedAt?: Date | number | null;
}

export interface TradePnl {
  entryQuantity: Decimal;
  exitQuantity: Decimal;
  /** Still held: entry − exit. */
  openQuantity: Decimal;
  /** Quantity-weighted; null before the first fill. */
  averageEntryPrice: Decimal | null;
  averageExitPrice: Decimal | null;
  /** Price difference × exited quantity, before fees. */
  grossPnl: Decimal;
  /** Every fee paid so far (entry and exit), in quote currency. */
  commission: Decimal;
  /** Realised PnL: gross − commission + funding. */
  realisedPnl: Decimal;
  /** Realised PnL as a percent of the exited quantity's entry notional; null before any exit. */
  pnlPercent: Decimal | null;
  durationMs: number | null;
  /** Fees in a currency with no rate given: reported rather than guessed, and not in `commission`. */
  unconvertedFees: FeeAmount[];
}

export class InvalidFillsError extends DomainRuleError {
  constructor(message: string) {
    super('INVALID_FILLS', message);
  }
}

/** Quantity-weighted average price; null when there are no fills. */
export function averageFillPrice(fills: readonly Fill[]): Decimal | null {
  const quantity = sum(fills.map((fill) => fill.quantity));
  if (quantity.isZero()) return null;
  return sum(fills.map((fill) => toDecimal(fill.price).times(toDecimal(fill.quantity)))).div(quantity);
}

/**
 * Total fees in quote currency. A fee charged in the base currency (spot buys on many venues) is
 * converted at that fill's own price; another currency at the fill's recorded `feeRate`, else at `feeRates`.
 */
export function commissionInQuote(
  fills: readonly Fill[],
  symbol: string,
  feeRates: Readonly<Record<string, DecimalInput>> = {},
): { commission: Decimal; unconvertedFees: FeeAmount[] } {
  const { base, quote } = parseSymbol(symbol);
  let commission = new Decimal(0);
  const unconverted = new Map<string, Decimal>();
  for (const fill of fills) {
    const fee = toDecimal(fill.fee ?? 0);
    if (fee.isZero()) continue;
    const currency = fill.feeCurrency ?? quote;
    const rate = fill.feeRate ?? feeRates[currency];
    if (currency === quote) commission = commission.plus(fee);
    else if (currency === base) commission = commission.plus(fee.times(toDecimal(fill.price)));
    else if (rate !== undefined) commission = commission.plus(fee.times(toDecimal(rate)));
    else unconverted.set(currency, (unconverted.get(currency) ?? new Decimal(0)).plus(fee));
  }
  return {
    commission,
    unconvertedFees: [...unconverted].map(([currency, amount]) => ({ currency, amount })),
  };
}

/** Milliseconds from open to close; null while the trade is open. */
export function tradeDurationMs(
  openedAt: Date | number | null | undefined,
  closedAt: Date | number | null | undefined,
): number | null {
  if (openedAt == null || closedAt == null) return null;
  return Math.max(0, Number(closedAt) - Number(openedAt));
}

/**
 * A trade's figures for the bot's trade table (spec §2: entry, exit, PnL, PnL %, commission, duration).
 * Works on partly closed trades too: PnL is realised on the exited quantity only, while fees count in
 * full as soon as they are paid.
 */
export function computeTradePnl(input: TradePnlInput): TradePnl {
  const entrySide = input.side === 'long' ? 'buy' : 'sell';
  const exitSide = input.side === 'long' ? 'sell' : 'buy';
  if (input.entryFills.some((fill) => fill.side !== entrySide)) {
    throw new InvalidFillsError(`Entry fills of a ${input.side} trade must all be ${entrySide}s`);
  }
  if (input.exitFills.some((fill) => fill.side !== exitSide)) {
    throw new InvalidFillsError(`Exit fills of a ${input.side} trade must all be ${exitSide}s`);
  }
  const entryQuantity = sum(input.entryFills.map((fill) => fill.quantity));
  const exitQuantity = sum(input.exitFills.map((fill) => fill.quantity));
  if (exitQuantity.gt(entryQuantity)) {
    throw new InvalidFillsError(
      `Exit quantity ${exitQuantity.toFixed()} exceeds entry quantity ${entryQuantity.toFixed()}`,
    );
  }

  const averageEntryPrice = averageFillPrice(input.entryFills);
  const averageExitPrice = averageFillPrice(input.exitFills);
  const { commission, unconvertedFees } = commissionInQuote(
    [...input.entryFills, ...input.exitFills],
    input.symbol,
    input.feeRates,
  );

  let grossPnl = new Decimal(0);
  let pnlPercent: Decimal | null = null;
  if (averageEntryPrice && averageExitPrice) {
    const perUnit =
      input.side === 'long'
        ? averageExitPrice.minus(averageEntryPrice)
        : averageEntryPrice.minus(averageExitPrice);
    grossPnl = perUnit.times(exitQuantity);
  }
  const realisedPnl = grossPnl.minus(commission).plus(toDecimal(input.funding ?? 0));
  if (averageEntryPrice && exitQuantity.gt(0)) {
    pnlPercent = realisedPnl.div(averageEntryPrice.times(exitQuantity)).times(100);
  }

  return {
    entryQuantity,
    exitQuantity,
    openQuantity: entryQuantity.minus(exitQuantity),
    averageEntryPrice,
    averageExitPrice,
    grossPnl,
    commission,
    realisedPnl,
    pnlPercent,
    durationMs: tradeDurationMs(input.openedAt, input.closedAt),
    unconvertedFees,
  };
}
