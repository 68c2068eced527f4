import { describe, expect, it } from 'vitest';
import {
  InvalidFillsError,
  averageFillPrice,
  commissionInQuote,
  computeTradePnl,
  tradeDurationMs,
  type Fill,
  type TradePnlInput,
} from './pnl';

/** The trade-table figures, to the cent as the user sees them. */
function figures(input: TradePnlInput) {
  const pnl = computeTradePnl(input);
  return {
    entry: pnl.averageEntryPrice?.toFixed(2) ?? null,
    exit: pnl.averageExitPrice?.toFixed(2) ?? null,
    gross: pnl.grossPnl.toFixed(2),
    commission: pnl.commission.toFixed(2),
    pnl: pnl.realisedPnl.toFixed(2),
    pnlPercent: pnl.pnlPercent?.toFixed(2) ?? null,
    open: pnl.openQuantity.toFixed(),
    durationMs: pnl.durationMs,
  };
}

describe('computeTradePnl', () => {
  it.each([
    {
      case: 'winning long over two entries and two exits, one fee in base currency',
      input: {
        side: 'long',
        symbol: 'BTC/USDT',
        entryFills: [
          // 0.0005 BTC fee at 60000 = 30 USDT
          { side: 'buy', price: '60000', quantity: '0.5', fee: '0.0005', feeCurrency: 'BTC' },
          { side: 'buy', price: '61000', quantity: '0.5', fee: '30.5', feeCurrency: 'USDT' },
        ],
        exitFills: [
          { side: 'sell', price: '63000', quantity: '0.6', fee: '37.8', feeCurrency: 'USDT' },
          { side: 'sell', price: '62500', quantity: '0.4', fee: '25', feeCurrency: 'USDT' },
        ],
        openedAt: Date.parse('2024-01-01T00:00:00Z'),
        closedAt: new Date('2024-01-01T06:30:00Z'),
      },
      // (62800 − 60500) × 1 = 2300; fees 123.3; 2176.7 / 60500 = 3.5978…%
      expected: {
        entry: '60500.00',
        exit: '62800.00',
        gross: '2300.00',
        commission: '123.30',
        pnl: '2176.70',
        pnlPercent: '3.60',
        open: '0',
        durationMs: 23_400_000,
      },
    },
    {
      case: 'winning short on a futures symbol',
      input: {
        side: 'short',
        symbol: 'ETH/USDT:USDT',
        entryFills: [{ side: 'sell', price: '3000.50', quantity: '2', fee: '1.2002', feeCurrency: 'USDT' }],
        exitFills: [{ side: 'buy', price: '2900.25', quantity: '2', fee: '1.1601', feeCurrency: 'USDT' }],
      },
      // (3000.50 − 2900.25) × 2 = 200.5; fees 2.3603; 198.1397 / 6001 = 3.3018…%
      expected: {
        entry: '3000.50',
        exit: '2900.25',
        gross: '200.50',
        commission: '2.36',
        pnl: '198.14',
        pnlPercent: '3.30',
        open: '0',
        durationMs: null,
      },
    },
    {
      case: 'losing short',
      input: {
        side: 'short',
        symbol: 'SOL/USDT',
        entryFills: [{ side: 'sell', price: '150', quantity: '10', fee: '1.5' }],
        exitFills: [{ side: 'buy', price: '157.35', quantity: '10', fee: '1.5735' }],
      },
      // (150 − 157.35) × 10 = −73.5; fees 3.0735; −76.5735 / 1500 = −5.1049%
      expected: {
        entry: '150.00',
        exit: '157.35',
        gross: '-73.50',
        commission: '3.07',
        pnl: '-76.57',
        pnlPercent: '-5.10',
        open: '0',
        durationMs: null,
      },
    },
    {
      case: 'losing long',
      input: {
        side: 'long',
        symbol: 'BTC/USDT',
        entryFills: [{ side: 'buy', price: '100', quantity: '1', fee: '0.1', feeCurrency: 'USDT' }],
        exitFills: [{ side: 'sell', price: '95', quantity: '1', fee: '0.095', feeCurrency: 'USDT' }],
        openedAt: 1_000,
        closedAt: 61_000,
      },
      expected: {
        entry: '100.00',
        exit: '95.00',
        gross: '-5.00',
        commission: '0.20',
        pnl: '-5.20',
        pnlPercent: '-5.20',
        open: '0',
        durationMs: 60_000,
      },
    },
    {
      case: 'half closed by TP1: PnL on the exited half, percent on its entry notional',
      input: {
        side: 'long',
        symbol: 'BTC/USDT',
        entryFills: [{ side: 'buy', price: '100', quantity: '2' }],
        exitFills: [{ side: 'sell', price: '110', quantity: '1' }],
        openedAt: 0,
        closedAt: null,
      },
      expected: {
        entry: '100.00',
        exit: '110.00',
        gross: '10.00',
        commission: '0.00',
        pnl: '10.00',
        pnlPercent: '10.00',
        open: '1',
        durationMs: null,
      },
    },
    {
      case: 'still open: entry fee already paid, nothing realised yet',
      input: {
        side: 'long',
        symbol: 'BTC/USDT',
        entryFills: [{ side: 'buy', price: '100', quantity: '1', fee: '0.1', feeCurrency: 'USDT' }],
        exitFills: [],
      },
      expected: {
        entry: '100.00',
        exit: null,
        gross: '0.00',
        commission: '0.10',
        pnl: '-0.10',
        pnlPercent: null,
        open: '1',
        durationMs: null,
      },
    },
  ] satisfies { case: string; input: TradePnlInput; expected: unknown }[])('$case', ({ input, expected }) => {
    expect(figures(input)).toEqual(expected);
  });

  it('keeps full precision underneath the rounded figures', () => {
    const pnl = computeTradePnl({
      side: 'short',
      symbol: 'ETH/USDT:USDT',
      entryFills: [{ side: 'sell', price: '3000.50', quantity: '2', fee: '1.2002', feeCurrency: 'USDT' }],
      exitFills: [{ side: 'buy', price: '2900.25', quantity: '2', fee: '1.1601', feeCurrency: 'USDT' }],
    });
    expect(pnl.realisedPnl.toFixed()).toBe('198.1397');
    expect(pnl.commission.toFixed()).toBe('2.3603');
  });

  it('books each third-currency fee at the rate recorded with its fill, before any rate given', () => {
    const fills: Fill[] = [
      { side: 'buy', price: '100', quantity: '1', fee: '0.001', feeCurrency: 'BNB', feeRate: '600' },
      { side: 'sell', price: '110', quantity: '1', fee: '0.002', feeCurrency: 'BNB', feeRate: '650' },
    ];
    // 0.001 × 600 + 0.002 × 650; the map's 1 is only for fills without a recorded rate.
    expect(commissionInQuote(fills, 'ETH/USDT', { BNB: '1' }).commission.toFixed()).toBe('1.9');
    const pnl = computeTradePnl({
      side: 'long',
      symbol: 'ETH/USDT',
      entryFills: [fills[0]!],
      exitFills: [fills[1]!],
    });
    expect(pnl.realisedPnl.toFixed()).toBe('8.1');
    expect(pnl.unconvertedFees).toEqual([]);
  });

  it('converts a third-currency fee with a given rate and reports it otherwise', () => {
    const fills: Fill[] = [
      { side: 'buy', price: '100', quantity: '1', fee: '0.001', feeCurrency: 'BNB' },
      { side: 'sell', price: '110', quantity: '1', fee: '0.002', feeCurrency: 'BNB' },
    ];
    const withRate = commissionInQuote(fills, 'ETH/USDT', { BNB: '600' });
    expect(withRate.commission.toFixed()).toBe('1.8');
    expect(withRate.unconvertedFees).toEqual([]);

    const withoutRate = computeTradePnl({
      side: 'long',
      symbol: 'ETH/USDT',
      entryFills: [fills[0]!],
      exitFills: [fills[1]!],
    });
    expect(withoutRate.commission.toFixed()).toBe('0');
    expect(withoutRate.realisedPnl.toFixed()).toBe('10');
    expect(withoutRate.unconvertedFees.map((f) => [f.currency, f.amount.toFixed()])).toEqual([
      ['BNB', '0.003'],
    ]);
  });

  it.each([
    {
      case: 'a sell among a long entry',
      input: { side: 'long', entryFills: [{ side: 'sell', price: 1, quantity: 1 }], exitFills: [] },
      message: 'Entry fills of a long trade must all be buys',
    },
    {
      case: 'a sell among a short exit',
      input: {
        side: 'short',
        entryFills: [{ side: 'sell', price: 1, quantity: 1 }],
        exitFills: [{ side: 'sell', price: 1, quantity: 1 }],
      },
      message: 'Exit fills of a short trade must all be buys',
    },
    {
      case: 'closing more than was opened',
      input: {
        side: 'long',
        entryFills: [{ side: 'buy', price: 1, quantity: '1' }],
        exitFills: [{ side: 'sell', price: 1, quantity: '1.5' }],
      },
      message: 'Exit quantity 1.5 exceeds entry quantity 1',
    },
  ] as const)('refuses $case', ({ input, message }) => {
    const call = () => computeTradePnl({ symbol: 'BTC/USDT', ...input });
    expect(call).toThrow(InvalidFillsError);
    expect(call).toThrow(message);
  });
});

describe('averageFillPrice and tradeDurationMs', () => {
  it.each([
    { fills: [], average: null },
    { fills: [{ side: 'buy', price: '10', quantity: '1' }], average: '10' },
    {
      fills: [
        { side: 'buy', price: '10', quantity: '1' },
        { side: 'buy', price: '13', quantity: '2' },
      ],
      average: '12',
    },
  ] satisfies { fills: Fill[]; average: string | null }[])(
    'average of $fills.length fills = $average',
    ({ fills, average }) => {
      expect(averageFillPrice(fills)?.toFixed() ?? null).toBe(average);
    },
  );

  it.each([
    { openedAt: 1_000, closedAt: 5_000, duration: 4_000 },
    { openedAt: new Date(0), closedAt: new Date(86_400_000), duration: 86_400_000 },
    { openedAt: 1_000, closedAt: null, duration: null },
    { openedAt: null, closedAt: 1_000, duration: null },
    // clock skew between venue and server never shows a negative duration
    { openedAt: 5_000, closedAt: 4_999, duration: 0 },
  ])('$openedAt → $closedAt = $duration ms', ({ openedAt, closedAt, duration }) => {
    expect(tradeDurationMs(openedAt, closedAt)).toBe(duration);
  });
});
