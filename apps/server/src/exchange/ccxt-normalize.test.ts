import type { Balances as CcxtBalances, Order as CcxtOrder } from 'ccxt';
import { describe, expect, it } from 'vitest';
import { isLiquidationOrder, precisionToStep, toBalances, toOrder, toOrderStatus } from './ccxt-normalize';

describe('ccxt normalization', () => {
  it.each([
    ['open', 0, 'open'],
    ['open', 0.5, 'partially_filled'],
    ['closed', 1, 'filled'],
    ['canceled', 0.2, 'cancelled'],
    ['expired', 0.2, 'expired'],
    ['rejected', 0, 'rejected'],
  ])('maps ccxt status %s (filled %s) to %s', (status, filled, expected) => {
    expect(toOrderStatus({ status, filled })).toBe(expected);
  });

  it('reads an order closed short of its amount as cancelled (Bybit spot PartiallyFilledCanceled)', () => {
    expect(toOrderStatus({ status: 'closed', filled: 0.4, amount: 1 })).toBe('cancelled');
    expect(toOrderStatus({ status: 'closed', filled: 1, amount: 1 })).toBe('filled');
  });

  it('knows a venue’s own liquidation order by its word: Binance’s client id, Bybit’s createType, OKX’s category', () => {
    expect(isLiquidationOrder('autoclose-1711000000000123', {})).toBe(true);
    expect(isLiquidationOrder('adl_autoclose-1711', {})).toBe(true);
    expect(isLiquidationOrder(null, { createType: 'CreateByLiquidate' })).toBe(true);
    expect(isLiquidationOrder(null, { createType: 'CreateByAdl_PassThrough' })).toBe(true);
    expect(isLiquidationOrder('x', { category: 'full_liquidation' })).toBe(true);
    expect(isLiquidationOrder('x', { category: 'partial_liquidation' })).toBe(true);
    expect(isLiquidationOrder('x', { category: 'adl' })).toBe(true);
    // An order sent by hand, or by Kairos, is none.
    expect(isLiquidationOrder('web1711x1', { createType: 'CreateByUser', category: 'normal' })).toBe(false);
    expect(isLiquidationOrder(null, {})).toBe(false);
    const order = { id: '7', clientOrderId: 'autoclose-17', side: 'sell', type: 'market', status: 'closed' };
    expect(
      toOrder({ ...order, amount: 1, filled: 1, info: {} } as unknown as CcxtOrder, 'BTC/USDT'),
    ).toMatchObject({
      liquidation: true,
    });
    expect(
      toOrder(
        { ...order, clientOrderId: 'k1', amount: 1, filled: 1, info: {} } as unknown as CcxtOrder,
        'BTC/USDT',
      ),
    ).not.toHaveProperty('liquidation');
  });

  it('turns precision into steps for tick-size and decimal-places venues', () => {
    expect(precisionToStep(0.00001, 4)).toBe('0.00001');
    expect(precisionToStep(1e-8, 4)).toBe('0.00000001');
    expect(precisionToStep(3, 2)).toBe('0.001');
    expect(precisionToStep(undefined, 4)).toBeNull();
  });

  it('keeps balances as decimal strings and skips the summary keys', () => {
    const balances = {
      info: {},
      free: { BTC: 0.1 },
      used: { BTC: 0.2 },
      total: { BTC: 0.3 },
      BTC: { free: 0.1, used: 0.2, total: 0.30000000000000004 },
      ETH: { free: 1e-8, used: undefined, total: 1e-8 },
    } as unknown as CcxtBalances;
    expect(toBalances(balances)).toEqual({
      BTC: { free: '0.1', used: '0.2', total: '0.30000000000000004' },
      ETH: { free: '0.00000001', used: '0', total: '0.00000001' },
    });
  });

  it('reports the original client order id of a cancel (Binance echoes a new one) and base amounts', () => {
    const order = {
      id: '42',
      clientOrderId: 'cancel-xyz',
      info: { origClientOrderId: 'mine1' },
      symbol: 'BTC/USDT:USDT',
      type: 'limit',
      side: 'sell',
      status: 'canceled',
      price: 65000,
      amount: 3,
      filled: 1,
      average: 65000,
      timestamp: 1,
    } as unknown as CcxtOrder;
    expect(
      toOrder(order, 'BTC/USDT', { originalClientOrderIdField: 'origClientOrderId', contractSize: '0.01' }),
    ).toMatchObject({
      venueOrderId: '42',
      clientOrderId: 'mine1',
      status: 'cancelled',
      amount: '0.03',
      filled: '0.01',
      price: '65000',
      average: '65000',
    });
  });
});
