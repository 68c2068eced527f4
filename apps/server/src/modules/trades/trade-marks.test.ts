import { Decimal } from '@kairos/core';
import { describe, expect, it } from 'vitest';
import { markTrade, takerFeeRateFor } from './trade-marks';

const trade = {
  side: 'long' as const,
  entryPrice: '60000',
  quantity: '0.5',
  commission: '30',
  funding: '0',
  realisedPnl: null,
};

describe('takerFeeRateFor', () => {
  it('the usual rate of the market type, or the entry’s own when it paid more (at most 1 %)', () => {
    expect(takerFeeRateFor({ ...trade, commission: '3' }, 'spot')).toBe('0.001');
    // A futures entry that paid 0.1 %: its exit is estimated at 0.1 %, not the usual 0.05 %.
    expect(takerFeeRateFor(trade, 'future')).toBe('0.001');
    expect(takerFeeRateFor({ ...trade, commission: '3000' }, 'spot')).toBe('0.01');
    // Once an exit booked its fees, the commission no longer says what the entry paid.
    expect(takerFeeRateFor({ ...trade, realisedPnl: '12' }, 'future')).toBe('0.0005');
    expect(takerFeeRateFor({ ...trade, entryPrice: null }, 'spot')).toBe('0.001');
  });
});

describe('markTrade', () => {
  it('counts the fees and funding while no exit booked them, and only then', () => {
    const held = new Decimal('0.5');
    const opts = { leverage: new Decimal(5), takerFeeRate: '0.001' };
    expect(markTrade({ ...trade, funding: '-2' }, held, '61000', opts)).toEqual({
      currentPrice: '61000',
      unrealisedPnl: '468',
      unrealisedPnlPercent: '1.56',
      unrealisedPnlMarginPercent: '7.8',
      estimatedClosePnl: '437.5',
    });
    // After TP1: the realised PnL already holds every fee and the funding.
    expect(markTrade({ ...trade, realisedPnl: '100' }, new Decimal('0.25'), '61000', opts)).toMatchObject({
      unrealisedPnl: '250',
    });
  });

  it('marks nothing without a price, an entry or anything held', () => {
    const opts = { leverage: null, takerFeeRate: '0.001' };
    expect(markTrade(trade, new Decimal('0.5'), null, opts)).toEqual({});
    expect(markTrade({ ...trade, entryPrice: null }, new Decimal('0.5'), '1', opts)).toEqual({});
    expect(markTrade(trade, new Decimal(0), '61000', opts)).toEqual({});
  });
});
