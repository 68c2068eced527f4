import { Decimal, toDecimal, type DecimalInput } from './money';

function isPositive(value: DecimalInput | null | undefined): value is DecimalInput {
  return value != null && toDecimal(value).gt(0);
}

/**
 * Realised profit this month as a percent of the bot's allocation: the bot's
 * `goalAccumulatedProfitPercent` (may be negative). Zero when there is no allocation to measure against.
 */
export function accumulatedProfitPercent(
  realisedProfitThisMonth: DecimalInput,
  allocation: DecimalInput,
): Decimal {
  if (!isPositive(allocation)) return new Decimal(0);
  return toDecimal(realisedProfitThisMonth).div(toDecimal(allocation)).times(100);
}

/**
 * True once this month's realised profit reaches `monthlyGoalPercent` of the allocation (DESIGN §5):
 * the bot then takes no new entries until next month. No goal (absent or 0) is never reached.
 */
export function monthlyGoalReached(
  realisedProfitThisMonth: DecimalInput,
  allocation: DecimalInput,
  monthlyGoalPercent: DecimalInput | null | undefined,
): boolean {
  if (!isPositive(monthlyGoalPercent) || !isPositive(allocation)) return false;
  return accumulatedProfitPercent(realisedProfitThisMonth, allocation).gte(toDecimal(monthlyGoalPercent));
}
