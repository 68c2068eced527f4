import { describe, expect, it } from 'vitest';
import { compareDecimals, fitsLedger, numberToDecimal, subtractDecimals, sumDecimals } from './decimal';
import { decimalInput } from './trading';

describe('decimals typed by a person', () => {
  it('writes numbers out without an exponent', () => {
    expect(numberToDecimal(1e-7)).toBe('0.0000001');
    expect(numberToDecimal(2.5e-3)).toBe('0.0025');
    expect(numberToDecimal(1.5e20)).toBe('150000000000000000000');
    expect(numberToDecimal(42)).toBe('42');
    expect(numberToDecimal(-0.5)).toBe('-0.5');
    expect(numberToDecimal(0.00001234567890123456)).toBe('0.000012345678901235');
    expect(numberToDecimal(1e-19)).toBe('0');
  });

  it('holds at most 20 digits before the point, as numeric(38, 18) does', () => {
    expect(fitsLedger('9'.repeat(20) + '.123')).toBe(true);
    expect(fitsLedger('0000' + '9'.repeat(20))).toBe(true);
    expect(fitsLedger('1' + '0'.repeat(20))).toBe(false);
    expect(fitsLedger('1e+308')).toBe(false);
    // 18 decimals at most: more would be rounded (the smallest positive one to 0, twenty 9s over the top).
    expect(fitsLedger('0.' + '0'.repeat(17) + '1')).toBe(true);
    expect(fitsLedger('0.' + '0'.repeat(18) + '1')).toBe(false);
    expect(fitsLedger('9'.repeat(20) + '.' + '9'.repeat(19))).toBe(false);
  });

  it('refuses what the database could not hold, with the amount message', () => {
    for (const input of [1e308, 1e21, '1' + '0'.repeat(24)]) {
      const parsed = decimalInput.safeParse(input);
      expect(parsed.success, String(input)).toBe(false);
      expect(parsed.error?.issues[0]?.message).toBe('Please enter a valid amount');
    }
    expect(decimalInput.parse(1e-7)).toBe('0.0000001');
  });
});

describe('exact decimal arithmetic', () => {
  it.each([
    ['0.025', '0', '0.025'],
    ['0.025', '0.01', '0.015'],
    ['1', '0.99999999', '0.00000001'],
    ['0.1', '0.3', '-0.2'],
    ['12', '12', '0'],
  ])('%s − %s = %s, exactly', (a, b, difference) => {
    expect(subtractDecimals(a, b)).toBe(difference);
  });

  it('adds without float error and compares exactly', () => {
    expect(sumDecimals(['0.1', '0.2'])).toBe('0.3');
    expect(sumDecimals(['33.3', '33.3', '33.4'])).toBe('100');
    expect(sumDecimals(['-1.5', '0.25'])).toBe('-1.25');
    expect(sumDecimals([])).toBe('0');
    expect(compareDecimals('100', '100.000')).toBe(0);
    expect(compareDecimals('100.0000000001', '100')).toBe(1);
    expect(compareDecimals('-0.5', '0.1')).toBe(-1);
  });
});
