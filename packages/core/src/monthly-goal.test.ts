import { describe, expect, it } from 'vitest';
import { accumulatedProfitPercent, monthlyGoalReached } from './monthly-goal';

describe('monthly goal', () => {
  it.each([
    { profit: '0', allocation: '1000', goal: '5', accumulated: '0', reached: false },
    { profit: '25', allocation: '1000', goal: '5', accumulated: '2.5', reached: false },
    {
      profit: '49.99',
      allocation: '1000',
      goal: '5',
      accumulated: '4.999',
      reached: false,
    },
    { profit: '50', allocation: '1000', goal: '5', accumulated: '5', reached: true },
    { profit: '80', allocation: '1000', goal: '5', accumulated: '8', reached: true },
    { profit: '-30', allocation: '1000', goal: '5', accumulated: '-3', reached: false },
    { profit: '80', allocation: '1000', goal: '0', accumulated: '8', reached: false },
    { profit: '80', allocation: '1000', goal: null, accumulated: '8', reached: false },
    { profit: '80', allocation: '0', goal: '5', accumulated: '0', reached: false },
  ])(
    'profit $profit on $allocation with goal $goal%: $accumulated%, reached $reached',
    ({ profit, allocation, goal, accumulated, reached }) => {
      expect(accumulatedProfitPercent(profit, allocation).toFixed()).toBe(accumulated);
      expect(monthlyGoalReached(profit, allocation, goal)).toBe(reached);
    },
  );
});
