import { Decimal, toDecimal, type DecimalInput } from './money';
import type { PositionSide } from './signal-action';

/**
 * The taker fee Kairos assumes for an exit it has not sent yet (a fraction: 0.001 is 0.1 %): the usual
 * top-tier rate of the venues it trades on, spot 0.1 %, perpetual futures 0.05 %. An estimate, said as one.
 */
export const ESTIMATED_TAKER_FEE_RATE = { spot: '0.001', future: '0.0005' } as const;

export interface OpenPositionInput {
  side: PositionSide;
  /** Base quantity still held. */
  heldQuantity: DecimalInput;
  averageEntryPrice: DecimalInput;
  /** The venue's last price. */
  currentPrice: DecimalInput;
  /** Fees paid so far in quote that no realised figure counts yet (none once an exit booked them). */
  feesPaid?: DecimalInput | null;
  /** Futures funding in quote not yet counted in a realised figure: positive received, negative paid. */
  funding?: DecimalInput | null;
  /** Futures: 5 for 5×; the margin is the entry notional ÷ leverage. Null on spot (no margin figure). */
  leverage?: DecimalInput | null;
  /** The exit's taker fee rate as a fraction (`ESTIMATED_TAKER_FEE_RATE`); 0 when not given. */
  takerFeeRate?: DecimalInput | null;
}

export interface UnrealisedPnl {
  /** Held quantity × average entry. */
  entryNotional: Decimal;
  /** Price move × held quantity, before fees. */
  grossPnl: Decimal;
  /** Gross − fees paid + funding: what the position has made if it were worth its last price. */
  unrealisedPnl: Decimal;
  /** Of the entry notional; null when nothing is held. */
  unrealisedPnlPercent: Decimal | null;
  /** Futures: of the margin (entry notional ÷ leverage); null on spot or when nothing is held. */
  unrealisedPnlMarginPercent: Decimal | null;
  /** The taker fee an exit of the held quantity at the last price would pay. */
  estimatedExitFee: Decimal;
  /** The result of closing now: unrealised − the estimated exit fee. */
  estimatedClosePnl: Decimal;
}

function percentOfBase(value: Decimal, base: Decimal): Decimal | null {
  return base.gt(0) ? value.div(base).times(100) : null;
}

/** What a position that is still held makes at the current price, and what closing it now would give. */
export function computeUnrealisedPnl(input: OpenPositionInput): UnrealisedPnl {
  const held = Decimal.max(toDecimal(input.heldQuantity), 0);
  const entry = toDecimal(input.averageEntryPrice);
  const price = toDecimal(input.currentPrice);
  const perUnit = input.side === 'long' ? price.minus(entry) : entry.minus(price);
  const grossPnl = perUnit.times(held);
  const entryNotional = entry.times(held);
  const unrealisedPnl = grossPnl.minus(toDecimal(input.feesPaid ?? 0)).plus(toDecimal(input.funding ?? 0));
  const leverage = input.leverage == null ? null : toDecimal(input.leverage);
  const margin = leverage && leverage.gt(0) ? entryNotional.div(leverage) : null;
  const estimatedExitFee = estimateExitFee(held, price, input.takerFeeRate);
  return {
    entryNotional,
    grossPnl,
    unrealisedPnl,
    unrealisedPnlPercent: percentOfBase(unrealisedPnl, entryNotional),
    unrealisedPnlMarginPercent: margin ? percentOfBase(unrealisedPnl, margin) : null,
    estimatedExitFee,
    estimatedClosePnl: unrealisedPnl.minus(estimatedExitFee),
  };
}

function estimateExitFee(quantity: Decimal, price: Decimal, rate: DecimalInput | null | undefined): Decimal {
  return quantity.times(price).times(toDecimal(rate ?? 0));
}

/**
 * The result of exiting part of a position at market now (a take-profit pushed to market): the price move on
 * `quantity` less its estimated taker fee. Fees already paid are not shared out: they are the position's.
 */
export function estimatePartialClosePnl(input: {
  side: PositionSide;
  quantity: DecimalInput;
  averageEntryPrice: DecimalInput;
  currentPrice: DecimalInput;
  takerFeeRate?: DecimalInput | null;
}): Decimal {
  return computeUnrealisedPnl({ ...input, heldQuantity: input.quantity }).estimatedClosePnl;
}
