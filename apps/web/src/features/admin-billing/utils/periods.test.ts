import { describe, expect, it } from 'vitest';
import { isPeriodOver, periodOf, previousPeriod, recentYears } from './periods';

describe('billing periods (UTC calendar months)', () => {
  it.each([
    ['2026-11-21T13:00:00Z', { year: 2026, month: 10 }],
    ['2026-01-01T00:00:00Z', { year: 2025, month: 12 }],
    ['2026-03-31T23:59:59Z', { year: 2026, month: 2 }],
  ])('the month before %s is %o', (now, expected) => {
    expect(previousPeriod(new Date(now))).toEqual(expected);
  });

  it('reads the month in UTC, not in the browser’s zone', () => {
    expect(periodOf(new Date('2026-11-30T23:30:00-05:00'))).toEqual({ year: 2026, month: 12 });
  });

  it('calls a month over once its last instant has passed', () => {
    const now = new Date('2026-11-01T00:00:00Z');
    expect(isPeriodOver({ year: 2026, month: 10 }, now)).toBe(true);
    expect(isPeriodOver({ year: 2026, month: 11 }, now)).toBe(false);
    expect(isPeriodOver({ year: 2026, month: 10 }, new Date('2026-10-31T23:59:59Z'))).toBe(false);
  });

  it('offers this year and the four before', () => {
    expect(recentYears(new Date('2026-06-01T00:00:00Z'))).toEqual([2026, 2025, 2024, 2023, 2022]);
  });
});
