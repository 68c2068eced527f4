import type { ErrorParams } from './errors';
import { toDecimal, type DecimalInput } from './money';

/** What a venue allows for one symbol (ccxt `market.precision` in tick-size mode + `market.limits`). */
export interface MarketLimits {
  /** Lot size: every quantity is a multiple of it. */
  amountStep: DecimalInput;
  /** Tick size: every limit/stop price is a multiple of it. */
  priceTick: DecimalInput;
  /** Smallest quantity the venue accepts (0 or absent: no limit). */
  minAmount?: DecimalInput;
  /** Smallest price × quantity the venue accepts, in quote currency (0 or absent: no limit). */
  minNotional?: DecimalInput;
}

/** `params`: the values of the message, and its `variant` of ORDER_TOO_SMALL / SIZING_REFUSED. */
export type MinimumViolation =
  | { reason: 'zero_quantity'; message: string; params: ErrorParams }
  | { reason: 'below_min_amount'; message: string; params: ErrorParams }
  | { reason: 'below_min_notional'; message: string; params: ErrorParams };

/** Why the venue would refuse this order size, or undefined if it meets the market's minimums. */
export function orderMinimumViolation(
  quantity: DecimalInput,
  price: DecimalInput,
  market: Pick<MarketLimits, 'minAmount' | 'minNotional'>,
): MinimumViolation | undefined {
  const qty = toDecimal(quantity);
  if (qty.lte(0)) {
    return {
      reason: 'zero_quantity',
      message: 'Order quantity rounds down to zero',
      params: { variant: 'zeroQuantity' },
    };
  }
  const minAmount = toDecimal(market.minAmount ?? 0);
  if (qty.lt(minAmount)) {
    return {
      reason: 'below_min_amount',
      message: `Order quantity ${qty.toFixed()} is below the minimum amount ${minAmount.toFixed()}`,
      params: { variant: 'belowMinAmount', amount: qty.toFixed(), min: minAmount.toFixed() },
    };
  }
  const notional = qty.times(toDecimal(price));
  const minNotional = toDecimal(market.minNotional ?? 0);
  if (notional.lt(minNotional)) {
    return {
      reason: 'below_min_notional',
      message: `Order value ${notional.toFixed()} is below the minimum notional ${minNotional.toFixed()}`,
      params: { variant: 'belowMinNotional', value: notional.toFixed(), min: minNotional.toFixed() },
    };
  }
  return undefined;
}
