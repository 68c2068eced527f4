import { Decimal as DecimalJs } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import {
  Decimal,
  InvalidDecimalError,
  percentOf,
  roundDownToStep,
  roundToStep,
  roundToTick,
  sum,
  toDecimal,
  toNumericString,
} from './money';

describe('toDecimal', () => {
  it.each([
    ['0.1', '0.1'],
    [' 42.50 ', '42.5'],
    [0.1, '0.1'],
    [1e-8, '0.00000001'],
    ['123456789012345678901234567890.123456789', '123456789012345678901234567890.123456789'],
    ['-3', '-3'],
    ['+.5', '0.5'],
    ['2.5E3', '2500'],
  ])('parses %j as %s', (input, expected) => {
    expect(toDecimal(input).toString()).toBe(expected);
  });

  it('accepts a decimal.js value from outside core and re-homes it', () => {
    const foreign = new DecimalJs('1.5');
    const parsed = toDecimal(foreign);
    expect(parsed).toBeInstanceOf(Decimal);
    expect(parsed.toString()).toBe('1.5');
  });

  it('does not float: 0.1 + 0.2 is exactly 0.3', () => {
    expect(toDecimal('0.1').plus('0.2').toString()).toBe('0.3');
  });

  it.each(['', '   ', 'abc', '1,5', '0x10', '0b1', '1e', NaN, Infinity, -Infinity, 'Infinity'])(
    'refuses %j',
    (input) => {
      expect(() => toDecimal(input)).toThrow(InvalidDecimalError);
    },
  );

  it('names the bad input in the message', () => {
    expect(() => toDecimal('abc')).toThrow('Not a valid decimal amount: abc');
  });
});

describe('sum and percentOf', () => {
  it.each([
    { values: [], expected: '0' },
    { values: ['0.1', '0.2', 0.3], expected: '0.6' },
    { values: ['1000', '-400.5', new Decimal('0.5')], expected: '600' },
  ])('sum($values) = $expected', ({ values, expected }) => {
    expect(sum(values).toString()).toBe(expected);
  });

  it.each([
    ['1000', '2.5', '25'],
    ['333.33', '10', '33.333'],
    ['50', '0', '0'],
  ])('%s × %s%% = %s', (value, percent, expected) => {
    expect(percentOf(value, percent).toString()).toBe(expected);
  });
});

describe('rounding to steps and ticks', () => {
  it.each([
    { value: '0.123456', step: '0.001', expected: '0.123' },
    { value: '0.1239999', step: '0.001', expected: '0.123' },
    { value: '0.123', step: '0.001', expected: '0.123' },
    { value: '17', step: '5', expected: '15' },
    { value: '0.0009', step: '0.001', expected: '0' },
    { value: '1.23', step: '0.25', expected: '1' },
    { value: '1.5', step: '0.5', expected: '1.5' },
  ])('roundDownToStep($value, $step) = $expected', ({ value, step, expected }) => {
    expect(roundDownToStep(value, step).toString()).toBe(expected);
  });

  it.each([
    { price: '64123.456', tick: '0.1', direction: undefined, expected: '64123.5' },
    { price: '64123.449', tick: '0.1', direction: undefined, expected: '64123.4' },
    { price: '64123.45', tick: '0.1', direction: undefined, expected: '64123.5' },
    { price: '64123.49', tick: '0.1', direction: 'down', expected: '64123.4' },
    { price: '64123.41', tick: '0.1', direction: 'up', expected: '64123.5' },
    { price: '64123.4', tick: '0.1', direction: 'up', expected: '64123.4' },
    { price: '0.000012345', tick: '0.00000001', direction: 'nearest', expected: '0.00001235' },
    { price: '101', tick: '5', direction: 'nearest', expected: '100' },
  ] as const)(
    'roundToTick($price, $tick, $direction) = $expected',
    ({ price, tick, direction, expected }) => {
      expect(roundToTick(price, tick, direction).toString()).toBe(expected);
    },
  );

  it('rounds negative values toward −∞ for down and never yields −0', () => {
    expect(roundToStep('-1.25', '0.1', 'down').toString()).toBe('-1.3');
    expect(roundToStep('-0.04', '0.1', 'up').isNegative()).toBe(false);
  });

  it.each(['0', '-0.1', 'x'])('refuses step %j', (step) => {
    expect(() => roundDownToStep('1', step)).toThrow(InvalidDecimalError);
  });
});

describe('toNumericString', () => {
  it.each([
    { value: '1e-8', scale: undefined, expected: '0.00000001' },
    { value: '1e21', scale: undefined, expected: '1000000000000000000000' },
    { value: '12.3', scale: 8, expected: '12.30000000' },
    { value: '0.125', scale: 2, expected: '0.13' },
    { value: '-0.125', scale: 2, expected: '-0.13' },
    { value: '-0.001', scale: 2, expected: '0.00' },
    { value: '-0', scale: undefined, expected: '0' },
    { value: 5, scale: 0, expected: '5' },
  ])('toNumericString($value, $scale) = $expected', ({ value, scale, expected }) => {
    expect(toNumericString(value, scale)).toBe(expected);
  });

  it('refuses a negative scale', () => {
    expect(() => toNumericString('1', -1)).toThrow(InvalidDecimalError);
  });
});
