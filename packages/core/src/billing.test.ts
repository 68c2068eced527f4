import { describe, expect, it } from 'vitest';
import { InvalidBillingInputError, computeMonthlyFee } from './billing';

describe('computeMonthlyFee', () => {
  it('bills only profit above the high-water mark across months (20% plan)', () => {
    const months = [
      // month 1: +1000 → fee on 1000
      { monthProfit: '1000', cumulative: '1000', hwm: '1000', feeable: '1000', fee: '200' },
      // month 2: −400 → no fee, the loss carries forward
      { monthProfit: '-400', cumulative: '600', hwm: '1000', feeable: '0', fee: '0' },
      // month 3: +300 → still 100 below the mark, no fee
      { monthProfit: '300', cumulative: '900', hwm: '1000', feeable: '0', fee: '0' },
      // month 4: +500 → fee only on the 400 above the mark
      { monthProfit: '500', cumulative: '1400', hwm: '1400', feeable: '400', fee: '80' },
    ];
    let cumulativeProfitBefore = '0';
    let highWaterMarkBefore = '0';
    for (const month of months) {
      const result = computeMonthlyFee({
        percent: 20,
        cumulativeProfitBefore,
        highWaterMarkBefore,
        monthProfit: month.monthProfit,
      });
      expect({
        monthProfit: month.monthProfit,
        cumulative: result.cumulativeProfitAfter.toFixed(),
        hwm: result.highWaterMarkAfter.toFixed(),
        feeable: result.feeableProfit.toFixed(),
        fee: result.fee.toFixed(),
      }).toEqual(month);
      cumulativeProfitBefore = result.cumulativeProfitAfter.toFixed();
      highWaterMarkBefore = result.highWaterMarkAfter.toFixed();
    }
  });

  it.each([
    { percent: 0, before: '0', hwm: '0', month: '500', fee: '0', hwmAfter: '500' },
    { percent: 100, before: '0', hwm: '0', month: '500', fee: '500', hwmAfter: '500' },
    { percent: 15, before: '0', hwm: '0', month: '-250', fee: '0', hwmAfter: '0' },
    // 33.333… → rounded down to the cent so we never bill more than owed
    { percent: '33.3333', before: '0', hwm: '0', month: '100', fee: '33.33', hwmAfter: '100' },
    { percent: 20, before: '0', hwm: '0', month: '0.049', fee: '0', hwmAfter: '0.049' },
    { percent: 20, before: '-300', hwm: '0', month: '400', fee: '20', hwmAfter: '100' },
  ])(
    '$percent% of $month (cumulative $before, HWM $hwm) → fee $fee',
    ({ percent, before, hwm, month, fee, hwmAfter }) => {
      const result = computeMonthlyFee({
        percent,
        cumulativeProfitBefore: before,
        highWaterMarkBefore: hwm,
        monthProfit: month,
      });
      expect(result.fee.toFixed()).toBe(fee);
      expect(result.highWaterMarkAfter.toFixed()).toBe(hwmAfter);
    },
  );

  it('gives the same record when a month is processed twice', () => {
    const input = {
      percent: 20,
      cumulativeProfitBefore: '600',
      highWaterMarkBefore: '1000',
      monthProfit: '800',
    };
    expect(computeMonthlyFee(input)).toEqual(computeMonthlyFee(input));
  });

  it('honours a fee scale', () => {
    const result = computeMonthlyFee({
      percent: '33.3333',
      cumulativeProfitBefore: 0,
      highWaterMarkBefore: 0,
      monthProfit: 100,
      feeScale: 4,
    });
    expect(result.fee.toFixed()).toBe('33.3333');
  });

  it.each([-1, 101])('refuses plan percent %d', (percent) => {
    expect(() =>
      computeMonthlyFee({ percent, cumulativeProfitBefore: 0, highWaterMarkBefore: 0, monthProfit: 1 }),
    ).toThrow(InvalidBillingInputError);
  });
});
