import { DomainRuleError } from './errors';
import { Decimal, percentOf, toDecimal, type DecimalInput } from './money';

export interface MonthlyFeeInput {
  /** Plan percent, 0–100 (20 = 20% of new profit). */
  percent: DecimalInput;
  /** Sum of every previous month's realised net PnL. */
  cumulativeProfitBefore: DecimalInput;
  /** Highest cumulative profit already billed (0 for a new user). */
  highWaterMarkBefore: DecimalInput;
  /** This month's realised net PnL across the user's bots (negative for a loss). */
  monthProfit: DecimalInput;
  /** Decimals of the fee; 2 (cents) by default. */
  feeScale?: number;
}

export interface MonthlyFee {
  cumulativeProfitAfter: Decimal;
  highWaterMarkAfter: Decimal;
  /** Profit above the previous high-water mark: the only part a fee is charged on. */
  feeableProfit: Decimal;
  fee: Decimal;
}

export class InvalidBillingInputError extends DomainRuleError {
  constructor(message: string) {
    super('INVALID_BILLING_INPUT', message);
  }
}

/**
 * High-water-mark fee (DESIGN §8): fee = percent × max(0, cumulative after − HWM before); the HWM only
 * rises. Losses carry forward, so no fee is charged until they are recovered. The fee is rounded DOWN
 * to `feeScale` decimals so rounding never bills more than the exact amount. Pure, so processing a
 * month twice from the same stored "before" values gives the same record.
 */
export function computeMonthlyFee(input: MonthlyFeeInput): MonthlyFee {
  const percent = toDecimal(input.percent);
  if (percent.lt(0) || percent.gt(100))
    throw new InvalidBillingInputError('Plan percent must be between 0 and 100');
  const highWaterMarkBefore = toDecimal(input.highWaterMarkBefore);
  const cumulativeProfitAfter = toDecimal(input.cumulativeProfitBefore).plus(toDecimal(input.monthProfit));
  const feeableProfit = Decimal.max(0, cumulativeProfitAfter.minus(highWaterMarkBefore));
  return {
    cumulativeProfitAfter,
    highWaterMarkAfter: Decimal.max(highWaterMarkBefore, cumulativeProfitAfter),
    feeableProfit,
    fee: percentOf(feeableProfit, percent).toDecimalPlaces(input.feeScale ?? 2, Decimal.ROUND_DOWN),
  };
}
