import { describe, expect, it } from 'vitest';
import {
  botAllocation,
  signalPriceDeviation,
  sizeOrder,
  sizingPrice,
  sizingRuleFromBot,
  type OrderSizingInput,
} from './sizing';

const BTC = { amountStep: '0.0001', minAmount: '0.0001', minNotional: '5' };

function sized(overrides: Partial<OrderSizingInput>) {
  const result = sizeOrder({
    rule: { kind: 'fixedAmount', amount: '100' },
    stableBalance: '1000',
    leveragePercent: 100,
    price: '64000',
    market: BTC,
    ...overrides,
  });
  if (!result.ok) return { ok: false, reason: result.reason, message: result.message };
  return {
    ok: true,
    quantity: result.quantity.toFixed(),
    notional: result.notional.toFixed(),
    margin: result.margin.toFixed(),
    allocation: result.allocation.toFixed(),
  };
}

describe('sizingRuleFromBot', () => {
  it.each([
    { bot: { fixedAmount: '250', portfolioPercent: '10' }, rule: { kind: 'fixedAmount', amount: '250' } },
    { bot: { fixedAmount: '0', portfolioPercent: '10' }, rule: { kind: 'portfolioPercent', percent: '10' } },
    { bot: { fixedAmount: null, portfolioPercent: 25 }, rule: { kind: 'portfolioPercent', percent: 25 } },
    { bot: {}, rule: { kind: 'portfolioPercent', percent: 0 } },
  ])('$bot → $rule', ({ bot, rule }) => {
    expect(sizingRuleFromBot(bot)).toEqual(rule);
  });

  it.each([
    { rule: { kind: 'fixedAmount', amount: '250' }, balance: '1000', allocation: '250' },
    { rule: { kind: 'portfolioPercent', percent: '12.5' }, balance: '1000', allocation: '125' },
  ] as const)('botAllocation($rule, $balance) = $allocation', ({ rule, balance, allocation }) => {
    expect(botAllocation(rule, balance).toFixed()).toBe(allocation);
  });
});

describe('sizeOrder', () => {
  it.each([
    {
      case: 'fixed amount, no leverage',
      input: {},
      // 100 / 64000 = 0.0015625 → 0.0015
      expected: { ok: true, quantity: '0.0015', notional: '96', margin: '96', allocation: '100' },
    },
    {
      case: 'portfolio percent of the stable balance',
      input: { rule: { kind: 'portfolioPercent', percent: '10' } },
      expected: { ok: true, quantity: '0.0015', notional: '96', margin: '96', allocation: '100' },
    },
    {
      case: '3× leverage triples the notional, not the margin',
      input: { leveragePercent: 300, price: '60000' },
      // 300 / 60000 = 0.005; margin 300 / 3
      expected: { ok: true, quantity: '0.005', notional: '300', margin: '100', allocation: '100' },
    },
    {
      case: 'leverage below 100% trades part of the allocation',
      input: { leveragePercent: 50, price: '100' },
      expected: { ok: true, quantity: '0.5', notional: '50', margin: '50', allocation: '100' },
    },
    {
      case: 'fixed amount above the balance',
      input: { stableBalance: '50' },
      expected: {
        ok: false,
        reason: 'insufficient_balance',
        message: 'Insufficient balance: the order needs 96 and 50 is available',
      },
    },
    {
      case: 'empty account',
      input: { stableBalance: '0' },
      expected: { ok: false, reason: 'insufficient_balance', message: 'No stable balance available' },
    },
    {
      case: 'below minimum notional',
      input: {
        rule: { kind: 'fixedAmount', amount: '4' },
        market: { amountStep: '0.00001', minNotional: '5' },
      },
      expected: {
        ok: false,
        reason: 'below_min_notional',
        message: 'Order value 3.84 is below the minimum notional 5',
      },
    },
    {
      case: 'below minimum amount',
      input: { market: { amountStep: '0.0001', minAmount: '0.01', minNotional: 0 } },
      expected: {
        ok: false,
        reason: 'below_min_amount',
        message: 'Order quantity 0.0015 is below the minimum amount 0.01',
      },
    },
    {
      case: 'rounds to zero',
      input: { rule: { kind: 'fixedAmount', amount: '1' }, market: { amountStep: '0.001' } },
      expected: { ok: false, reason: 'zero_quantity', message: 'Order quantity rounds down to zero' },
    },
    {
      case: 'zero percent',
      input: { rule: { kind: 'portfolioPercent', percent: 0 } },
      expected: { ok: false, reason: 'invalid_input', message: 'The bot order size is zero' },
    },
    {
      case: 'no price',
      input: { price: 0 },
      expected: { ok: false, reason: 'invalid_input', message: 'Price must be greater than zero' },
    },
    {
      case: 'no leverage',
      input: { leveragePercent: 0 },
      expected: { ok: false, reason: 'invalid_input', message: 'Leverage must be greater than zero' },
    },
  ] satisfies { case: string; input: Partial<OrderSizingInput>; expected: unknown }[])(
    '$case',
    ({ input, expected }) => {
      expect(sized(input)).toEqual(expected);
    },
  );
});

describe('sizingPrice', () => {
  it.each([
    ['no signal price: the venue’s', null, '65000', '65000'],
    ['within 2 %: the signal’s', '64000', '65000', '64000'],
    ['exactly 2 % off: the signal’s', '63700', '65000', '63700'],
    ['10× too low: the venue’s', '6500', '65000', '65000'],
    ['far too high: the venue’s', '70000', '65000', '65000'],
    ['no venue price: none', '64000', null, null],
  ])('%s', (_label, signal, venue, expected) => {
    expect(sizingPrice(signal, venue)).toBe(expected);
  });
});

describe("a strategy's own price tolerance", () => {
  it('sizes at the signal within it and at the venue past it', () => {
    expect(sizingPrice('64000', '65000', '0.5')).toBe('65000');
    expect(sizingPrice('64900', '65000', '0.5')).toBe('64900');
    expect(sizingPrice('6500', '65000', '95')).toBe('6500');
  });

  it('says how far the signal is, signed, in percent of the venue', () => {
    expect(signalPriceDeviation('6500', '65000')?.toFixed()).toBe('-90');
    expect(signalPriceDeviation('66300', '65000')?.toFixed()).toBe('2');
    expect(signalPriceDeviation(null, '65000')).toBeNull();
  });
});
