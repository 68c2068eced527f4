import { describe, expect, it } from 'vitest';
import { orderMinimumViolation } from './market';

describe('orderMinimumViolation', () => {
  it.each([
    {
      quantity: '0.001',
      price: '64000',
      market: { minAmount: '0.001', minNotional: '5' },
      reason: undefined,
    },
    { quantity: '0', price: '64000', market: {}, reason: 'zero_quantity' },
    { quantity: '0.0009', price: '64000', market: { minAmount: '0.001' }, reason: 'below_min_amount' },
    {
      quantity: '0.04',
      price: '100',
      market: { minAmount: '0.001', minNotional: '5' },
      reason: 'below_min_notional',
    },
    { quantity: '0.05', price: '100', market: { minNotional: '5' }, reason: undefined },
    { quantity: '0.0001', price: '1', market: {}, reason: undefined },
  ])('$quantity at $price → $reason', ({ quantity, price, market, reason }) => {
    expect(orderMinimumViolation(quantity, price, market)?.reason).toBe(reason);
  });
});
