import { describe, expect, it } from 'vitest';
import {
  billMonth,
  comparePeriods,
  dueDate,
  invoiceMoveRefusal,
  nextPeriod,
  periodEnd,
  periodsBetween,
  previousPeriod,
  periodOf,
} from './billing-fns';

describe('periods', () => {
  it.each([
    [
      { year: 2025, month: 12 },
      { year: 2026, month: 1 },
    ],
    [
      { year: 2025, month: 1 },
      { year: 2025, month: 2 },
    ],
  ])('%o is followed by %o', (p, next) => {
    expect(nextPeriod(p)).toEqual(next);
    expect(previousPeriod(next)).toEqual(p);
  });

  it('ends at the first instant of the next month, in UTC', () => {
    expect(periodEnd({ year: 2025, month: 12 }).toISOString()).toBe('2026-01-01T00:00:00.000Z');
    expect(periodOf(new Date('2025-03-31T23:59:59.999Z'))).toEqual({ year: 2025, month: 3 });
  });

  it('lists the months to catch up, in order', () => {
    expect(periodsBetween({ year: 2025, month: 11 }, { year: 2026, month: 2 })).toEqual([
      { year: 2025, month: 12 },
      { year: 2026, month: 1 },
      { year: 2026, month: 2 },
    ]);
    expect(periodsBetween({ year: 2026, month: 2 }, { year: 2026, month: 2 })).toEqual([]);
    expect(comparePeriods({ year: 2025, month: 12 }, { year: 2026, month: 1 })).toBeLessThan(0);
  });
});

describe('billMonth: one month of a 20% plan, chained', () => {
  const plan = { percent: '20', active: true };
  it.each([
    // before → month → after, fee, status
    ['first profit', '0', '0', '1000', '1000', '1000', '200', 'pending'],
    ['a loss', '1000', '1000', '-400', '600', '1000', '0', 'no_fee'],
    ['recovering, still below the mark', '600', '1000', '300', '900', '1000', '0', 'no_fee'],
    ['past the mark: only the new part', '900', '1000', '500', '1400', '1400', '80', 'pending'],
    ['cents are rounded down', '0', '0', '0.059', '0.059', '0.059', '0.01', 'pending'],
  ])('%s', (_name, cumulative, mark, profit, cumulativeAfter, markAfter, fee, status) => {
    expect(
      billMonth({ plan, cumulativeProfitBefore: cumulative, highWaterMarkBefore: mark, monthProfit: profit }),
    ).toMatchObject({ cumulativeProfit: cumulativeAfter, highWaterMarkAfter: markAfter, fee, status });
  });

  it.each([
    ['no plan', null],
    ['an inactive plan', { percent: '20', active: false }],
  ])('with %s nothing is due but the mark still rises', (_name, terms) => {
    expect(
      billMonth({ plan: terms, cumulativeProfitBefore: '0', highWaterMarkBefore: '0', monthProfit: '700' }),
    ).toMatchObject({ percent: '0', fee: '0', highWaterMarkAfter: '700', status: 'waived' });
  });
});

describe('invoice moves', () => {
  it.each([
    ['pay', 'open', undefined],
    ['pay', 'draft', undefined],
    ['pay', 'paid', 'This invoice is already paid'],
    ['pay', 'void', 'A void invoice cannot be paid'],
    ['void', 'open', undefined],
    ['void', 'paid', 'A paid invoice cannot be voided'],
    ['void', 'void', 'This invoice is already void'],
  ] as const)('%s from %s → %s', (move, from, refusal) => {
    expect(invoiceMoveRefusal(move, from)?.[1]).toBe(refusal);
  });

  it('due dates', () => {
    expect(dueDate(new Date('2025-01-25T10:00:00Z'), 14)).toBe('2025-02-08');
  });
});
