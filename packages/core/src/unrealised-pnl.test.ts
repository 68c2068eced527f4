import { describe, expect, it } from 'vitest';
import {
  ESTIMATED_TAKER_FEE_RATE,
  computeUnrealisedPnl,
  estimatePartialClosePnl,
  type OpenPositionInput,
} from './unrealised-pnl';

function figures(input: OpenPositionInput) {
  const u = computeUnrealisedPnl(input);
  return {
    gross: u.grossPnl.toFixed(),
    pnl: u.unrealisedPnl.toFixed(),
    percent: u.unrealisedPnlPercent?.toFixed(4) ?? null,
    margin: u.unrealisedPnlMarginPercent?.toFixed(4) ?? null,
    exitFee: u.estimatedExitFee.toFixed(),
    close: u.estimatedClosePnl.toFixed(),
  };
}

describe('computeUnrealisedPnl', () => {
  it('a spot long in profit: gross less the entry fee, percent of the entry notional, no margin figure', () => {
    expect(
      figures({
        side: 'long',
        heldQuantity: '0.5',
        averageEntryPrice: '60000',
        currentPrice: '61000',
        feesPaid: '30',
        takerFeeRate: ESTIMATED_TAKER_FEE_RATE.spot,
      }),
    ).toEqual({
      gross: '500',
      pnl: '470',
      percent: '1.5667',
      margin: null,
      exitFee: '30.5',
      close: '439.5',
    });
  });

  it('a futures short at 5×: a falling price is a gain, the margin percent is five times the notional one', () => {
    expect(
      figures({
        side: 'short',
        heldQuantity: '2',
        averageEntryPrice: '3000',
        currentPrice: '2950',
        feesPaid: '3',
        funding: '-1.5',
        leverage: 5,
        takerFeeRate: ESTIMATED_TAKER_FEE_RATE.future,
      }),
    ).toEqual({
      gross: '100',
      pnl: '95.5',
      percent: '1.5917',
      margin: '7.9583',
      exitFee: '2.95',
      close: '92.55',
    });
  });

  it('a long under water, funding received, no fee rate given: the close estimate is the unrealised figure', () => {
    expect(
      figures({
        side: 'long',
        heldQuantity: '10',
        averageEntryPrice: '1.2345',
        currentPrice: '1.2',
        feesPaid: '0.0123',
        funding: '0.01',
        leverage: '1',
      }),
    ).toEqual({
      gross: '-0.345',
      pnl: '-0.3473',
      percent: '-2.8133',
      margin: '-2.8133',
      exitFee: '0',
      close: '-0.3473',
    });
  });

  it('is exact in decimals where floats are not (0.1 + 0.2)', () => {
    const u = computeUnrealisedPnl({
      side: 'long',
      heldQuantity: '3',
      averageEntryPrice: '0.1',
      currentPrice: '0.2',
      feesPaid: '0.0000001',
    });
    expect(u.unrealisedPnl.toFixed()).toBe('0.2999999');
  });

  it('nothing held: zero figures and no percent (never a division by zero)', () => {
    expect(
      figures({
        side: 'long',
        heldQuantity: '0',
        averageEntryPrice: '100',
        currentPrice: '120',
        leverage: 3,
      }),
    ).toEqual({ gross: '0', pnl: '0', percent: null, margin: null, exitFee: '0', close: '0' });
    // A negative held quantity (fees in base beyond the fills) counts as nothing held.
    expect(
      computeUnrealisedPnl({
        side: 'long',
        heldQuantity: '-0.1',
        averageEntryPrice: '1',
        currentPrice: '2',
      }).grossPnl.isZero(),
    ).toBe(true);
  });
});

describe('estimatePartialClosePnl', () => {
  it('a take-profit pushed to market: the move on its quantity less its taker fee', () => {
    expect(
      estimatePartialClosePnl({
        side: 'long',
        quantity: '0.25',
        averageEntryPrice: '60000',
        currentPrice: '61000',
        takerFeeRate: '0.001',
      }).toFixed(),
    ).toBe('234.75');
    expect(
      estimatePartialClosePnl({
        side: 'short',
        quantity: '1',
        averageEntryPrice: '10',
        currentPrice: '11',
      }).toFixed(),
    ).toBe('-1');
  });
});
