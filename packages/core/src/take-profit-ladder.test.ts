import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MarketLimits } from './market';
import { sum, toDecimal } from './money';
import type { OrderState } from './order-state';
import {
  InvalidTakeProfitError,
  breakEvenStop,
  buildTakeProfitLadder,
  isTakeProfitRole,
  pushableTakeProfit,
  stopLossPrice,
  stopLimitPrice,
  takeProfitPrice,
  takeProfitStatusFromOrder,
  tpDisplayName,
  type TakeProfitRole,
  type TakeProfitStatus,
  type TakeProfitTarget,
} from './take-profit-ladder';

const BTC: MarketLimits = { amountStep: '0.001', priceTick: '0.1', minAmount: '0.001', minNotional: '5' };

/** Levels as plain strings so a table row reads like the order book the user will see. */
function ladder(input: Parameters<typeof buildTakeProfitLadder>[0]) {
  return buildTakeProfitLadder(input).map((level) => ({
    role: level.role,
    name: level.name,
    price: level.price.toFixed(),
    quantity: level.quantity.toFixed(),
    mergedRoles: level.mergedRoles,
  }));
}

const THREE_TPS: TakeProfitTarget[] = [
  { role: 'tp1', percent: 1, sizePercent: 50 },
  { role: 'tp2', percent: 2, sizePercent: 30 },
  { role: 'tp3', percent: '3.5', sizePercent: 20 },
];

describe('tpDisplayName', () => {
  it.each([
    ['tp1', 'TP1'],
    ['tp2', 'TP2'],
    ['tp10', 'TP10'],
  ])('%s → %s', (role, name) => {
    expect(tpDisplayName(role)).toBe(name);
  });

  it.each([
    ['tp1', true],
    ['tp12', true],
    ['tp0', false],
    ['TP1', false],
    ['sl', false],
  ])('isTakeProfitRole(%j) is %s', (value, expected) => {
    expect(isTakeProfitRole(value)).toBe(expected);
  });
});

describe('take-profit and stop prices round toward the entry', () => {
  it.each([
    // long: raw 100 × 1.0123 = 101.23 → down to 101.2
    { side: 'long', entryPrice: '100', percent: '1.23', priceTick: '0.1', expected: '101.2' },
    { side: 'long', entryPrice: '64000', percent: '1', priceTick: '0.1', expected: '64640' },
    // short: raw 100 × 0.9877 = 98.77 → up to 98.8
    { side: 'short', entryPrice: '100', percent: '1.23', priceTick: '0.1', expected: '98.8' },
    // a coarse tick would round back onto the entry: one tick beyond it instead
    { side: 'long', entryPrice: '100', percent: '0.01', priceTick: '1', expected: '101' },
    { side: 'short', entryPrice: '100', percent: '0.01', priceTick: '1', expected: '99' },
    // entry between ticks (an average fill price)
    { side: 'long', entryPrice: '100.05', percent: '0.01', priceTick: '0.1', expected: '100.1' },
    { side: 'short', entryPrice: '100.05', percent: '0.01', priceTick: '0.1', expected: '100' },
  ] as const)('TP $side $percent% from $entryPrice (tick $priceTick) = $expected', (row) => {
    expect(takeProfitPrice(row).toFixed()).toBe(row.expected);
  });

  it.each([
    // long: raw 100 × 0.9677 = 96.77 → up to 96.8 (risk ≤ 3.23%)
    { side: 'long', entryPrice: '100', stopLossPercent: '3.23', priceTick: '0.1', expected: '96.8' },
    // short: raw 100 × 1.0323 = 103.23 → down to 103.2
    { side: 'short', entryPrice: '100', stopLossPercent: '3.23', priceTick: '0.1', expected: '103.2' },
    { side: 'long', entryPrice: '100', stopLossPercent: '0.01', priceTick: '1', expected: '99' },
    { side: 'short', entryPrice: '100', stopLossPercent: '0.01', priceTick: '1', expected: '101' },
    { side: 'short', entryPrice: '100', stopLossPercent: '150', priceTick: '1', expected: '250' },
  ] as const)('stop $side $stopLossPercent% from $entryPrice = $expected', (row) => {
    expect(stopLossPrice(row).toFixed()).toBe(row.expected);
  });

  it.each([
    { side: 'long', entryPrice: '100', priceTick: '0.1', feePercent: undefined, expected: '100' },
    { side: 'long', entryPrice: '100.03', priceTick: '0.1', feePercent: undefined, expected: '100.1' },
    { side: 'short', entryPrice: '100.03', priceTick: '0.1', feePercent: undefined, expected: '100' },
    // 100 × 1.001 / 0.999 = 100.2002… → up to 100.21
    { side: 'long', entryPrice: '100', priceTick: '0.01', feePercent: '0.1', expected: '100.21' },
    // 100 × 0.999 / 1.001 = 99.8001… → down to 99.8
    { side: 'short', entryPrice: '100', priceTick: '0.01', feePercent: '0.1', expected: '99.8' },
  ] as const)('break-even $side from $entryPrice with fee $feePercent% = $expected', (row) => {
    expect(breakEvenStop(row).toFixed()).toBe(row.expected);
  });

  it.each([
    // 60000 × 0.995 = 59700 exactly
    { side: 'sell', triggerPrice: '60000', offsetPercent: '0.5', priceTick: '0.01', expected: '59700' },
    // 101.37 × 0.995 = 100.86315 → down to 100.86 (away from the trigger)
    { side: 'sell', triggerPrice: '101.37', offsetPercent: '0.5', priceTick: '0.01', expected: '100.86' },
    // 101.37 × 1.005 = 101.87685 → up to 101.88
    { side: 'buy', triggerPrice: '101.37', offsetPercent: '0.5', priceTick: '0.01', expected: '101.88' },
    { side: 'sell', triggerPrice: '0.0123', offsetPercent: '10', priceTick: '0.0001', expected: '0.011' },
  ] as const)('stop-limit $side at $triggerPrice, $offsetPercent% past it = $expected', (row) => {
    expect(stopLimitPrice(row).toFixed()).toBe(row.expected);
  });

  it.each([
    { side: 'sell', triggerPrice: '0.01', offsetPercent: '60', priceTick: '0.01' },
    { side: 'sell', triggerPrice: '100', offsetPercent: '100', priceTick: '0.01' },
    { side: 'buy', triggerPrice: '0', offsetPercent: '1', priceTick: '0.01' },
    { side: 'buy', triggerPrice: '100', offsetPercent: '-1', priceTick: '0.01' },
  ] as const)('refuses a stop-limit that cannot sell: $side at $triggerPrice, $offsetPercent%', (row) => {
    expect(() => stopLimitPrice(row)).toThrow();
  });

  it.each([
    () => takeProfitPrice({ side: 'short', entryPrice: 100, percent: 100, priceTick: 1 }),
    () => takeProfitPrice({ side: 'long', entryPrice: 100, percent: 0, priceTick: 1 }),
    () => takeProfitPrice({ side: 'long', entryPrice: 0, percent: 1, priceTick: 1 }),
    () => stopLossPrice({ side: 'long', entryPrice: 100, stopLossPercent: 100, priceTick: 1 }),
    () => stopLossPrice({ side: 'long', entryPrice: 100, stopLossPercent: -1, priceTick: 1 }),
    () => breakEvenStop({ side: 'long', entryPrice: 100, priceTick: 1, feePercent: 100 }),
  ])('refuses impossible configuration #%#', (build) => {
    expect(build).toThrow(InvalidTakeProfitError);
  });
});

describe('buildTakeProfitLadder', () => {
  it('prices and sizes a long ladder, quantities summing exactly to the position', () => {
    expect(
      ladder({ side: 'long', entryPrice: '64000', quantity: '0.157', takeProfits: THREE_TPS, market: BTC }),
    ).toEqual([
      { role: 'tp1', name: 'TP1', price: '64640', quantity: '0.078', mergedRoles: [] },
      { role: 'tp2', name: 'TP2', price: '65280', quantity: '0.047', mergedRoles: [] },
      { role: 'tp3', name: 'TP3', price: '66240', quantity: '0.032', mergedRoles: [] },
    ]);
  });

  it('prices a short ladder below the entry', () => {
    expect(
      ladder({ side: 'short', entryPrice: '3000.37', quantity: '2', takeProfits: THREE_TPS, market: BTC }),
    ).toEqual([
      // 3000.37 × 0.99 = 2970.3663 → up to 2970.4; × 0.98 = 2940.3626 → 2940.4; × 0.965 = 2895.35705 → 2895.4
      { role: 'tp1', name: 'TP1', price: '2970.4', quantity: '1', mergedRoles: [] },
      { role: 'tp2', name: 'TP2', price: '2940.4', quantity: '0.6', mergedRoles: [] },
      { role: 'tp3', name: 'TP3', price: '2895.4', quantity: '0.4', mergedRoles: [] },
    ]);
  });

  it('normalizes sizes that do not sum to 100', () => {
    const takeProfits: TakeProfitTarget[] = [
      { role: 'tp1', percent: 1, sizePercent: 1 },
      { role: 'tp2', percent: 2, sizePercent: 1 },
      { role: 'tp3', percent: 3, sizePercent: 1 },
    ];
    expect(
      ladder({
        side: 'long',
        entryPrice: 100,
        quantity: '10',
        takeProfits,
        market: { ...BTC, minNotional: 0 },
      }).map((l) => l.quantity),
    ).toEqual(['3.333', '3.333', '3.334']);
  });

  it('orders levels by role, skips zero-size levels and lets the last level take the remainder', () => {
    const takeProfits: TakeProfitTarget[] = [
      { role: 'tp10', percent: 10, sizePercent: 25 },
      { role: 'tp2', percent: 2, sizePercent: 0 },
      { role: 'tp1', percent: 1, sizePercent: 75 },
    ];
    expect(ladder({ side: 'long', entryPrice: 100, quantity: '1.001', takeProfits, market: BTC })).toEqual([
      { role: 'tp1', name: 'TP1', price: '101', quantity: '0.75', mergedRoles: [] },
      { role: 'tp10', name: 'TP10', price: '110', quantity: '0.251', mergedRoles: [] },
    ]);
  });

  it.each([
    {
      case: 'a small last level merges into the previous one',
      quantity: '0.01',
      sizes: [50, 45, 5],
      market: { ...BTC, minAmount: '0.002', minNotional: 0 },
      // 0.005 / 0.0045 → 0.004 / remainder 0.001 < 0.002
      expected: [
        { role: 'tp1', quantity: '0.005', mergedRoles: [] },
        { role: 'tp2', quantity: '0.005', mergedRoles: ['tp3'] },
      ],
    },
    {
      case: 'a small middle level merges into the previous one',
      quantity: '0.01',
      sizes: [60, 5, 35],
      market: { ...BTC, minAmount: '0.002', minNotional: 0 },
      expected: [
        { role: 'tp1', quantity: '0.006', mergedRoles: ['tp2'] },
        { role: 'tp3', quantity: '0.004', mergedRoles: [] },
      ],
    },
    {
      case: 'small first levels carry into the next one',
      quantity: '0.01',
      sizes: [5, 5, 90],
      market: { ...BTC, minAmount: '0.002', minNotional: 0 },
      expected: [{ role: 'tp3', quantity: '0.01', mergedRoles: ['tp1', 'tp2'] }],
    },
    {
      case: 'below min notional merges even when above min amount',
      quantity: '0.1',
      sizes: [40, 40, 20],
      market: BTC,
      // at entry 100: tp1 0.04 × 101 = 4.04 < 5 → carried; tp2 0.08 × 102 ok; tp3 0.02 × 103 < 5 → merged
      expected: [{ role: 'tp2', quantity: '0.1', mergedRoles: ['tp1', 'tp3'] }],
    },
    {
      case: 'a position too small for any order gives an empty ladder',
      quantity: '0.04',
      sizes: [50, 50],
      market: BTC,
      expected: [],
    },
  ])('$case', ({ quantity, sizes, market, expected }) => {
    const takeProfits = sizes.map((sizePercent, i) => ({
      role: `tp${i + 1}` as TakeProfitRole,
      percent: i + 1,
      sizePercent,
    }));
    const levels = buildTakeProfitLadder({ side: 'long', entryPrice: 100, quantity, takeProfits, market });
    expect(
      levels.map((l) => ({ role: l.role, quantity: l.quantity.toFixed(), mergedRoles: l.mergedRoles })),
    ).toEqual(expected);
    if (levels.length > 0) expect(sum(levels.map((l) => l.quantity)).toFixed()).toBe(quantity);
  });

  it('sums exactly to the position for many awkward splits', () => {
    const splits = [
      [33, 33, 34],
      [1, 2, 3, 4],
      [10, 10, 10, 10, 10, 10, 10, 10, 10, 10],
      [99, 1],
      [12.5, 37.5, 50],
    ];
    const quantities = ['0.123', '1', '7.777', '0.5', '123.456'];
    for (const sizes of splits) {
      for (const quantity of quantities) {
        const takeProfits = sizes.map((sizePercent, i) => ({
          role: `tp${i + 1}` as TakeProfitRole,
          percent: i + 1,
          sizePercent,
        }));
        const levels = buildTakeProfitLadder({
          side: 'long',
          entryPrice: 100,
          quantity,
          takeProfits,
          market: BTC,
        });
        expect(sum(levels.map((l) => l.quantity)).eq(quantity)).toBe(true);
        for (const level of levels) {
          expect(level.quantity.gte('0.001')).toBe(true);
          expect(level.quantity.times(level.price).gte(5)).toBe(true);
          expect(level.price.mod('0.1').isZero()).toBe(true);
        }
      }
    }
  });

  it('holds its invariants for any position and split (property)', () => {
    const amountStep = fc.constantFrom('1', '0.1', '0.001', '0.00001');
    const priceTick = fc.constantFrom('1', '0.5', '0.01', '0.0001');
    fc.assert(
      fc.property(
        fc.constantFrom('long' as const, 'short' as const),
        amountStep,
        priceTick,
        fc.integer({ min: 1, max: 10_000_000 }), // quantity in steps
        fc.integer({ min: 1, max: 10_000_000 }), // entry in ticks
        fc.array(fc.integer({ min: 0, max: 100 }), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 0, max: 50 }), // min notional
        (side, step, tick, steps, ticks, sizes, minNotional) => {
          fc.pre(sizes.some((size) => size > 0));
          const quantity = toDecimalString(steps, step);
          const entryPrice = toDecimalString(ticks, tick);
          const takeProfits = sizes.map((sizePercent, i) => ({
            role: `tp${i + 1}` as TakeProfitRole,
            percent: (i + 1) * 0.7,
            sizePercent,
          }));
          const market = { amountStep: step, priceTick: tick, minAmount: step, minNotional };
          let levels;
          try {
            levels = buildTakeProfitLadder({ side, entryPrice, quantity, takeProfits, market });
          } catch (error) {
            // only a short TP at or below zero may be refused
            expect(side).toBe('short');
            expect(error).toBeInstanceOf(InvalidTakeProfitError);
            return;
          }
          if (levels.length === 0) return;
          expect(sum(levels.map((l) => l.quantity)).eq(quantity)).toBe(true);
          for (const level of levels) {
            expect(level.quantity.gte(step)).toBe(true);
            expect(level.quantity.times(level.price).gte(minNotional)).toBe(true);
            expect(level.price.mod(tick).isZero()).toBe(true);
            expect(side === 'long' ? level.price.gt(entryPrice) : level.price.lt(entryPrice)).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('returns an empty ladder when the strategy has no take-profits', () => {
    expect(
      buildTakeProfitLadder({ side: 'long', entryPrice: 1, quantity: 1, takeProfits: [], market: BTC }),
    ).toEqual([]);
  });

  it.each([
    {
      case: 'duplicate role',
      takeProfits: [THREE_TPS[0]!, THREE_TPS[0]!],
      message: 'TP1 is configured twice',
    },
    {
      case: 'bad role',
      takeProfits: [{ role: 'tp0' as TakeProfitRole, percent: 1, sizePercent: 100 }],
      message: 'Unknown take-profit role tp0',
    },
    {
      case: 'negative size',
      takeProfits: [{ role: 'tp1' as const, percent: 1, sizePercent: -5 }],
      message: 'TP1 size must not be negative',
    },
    {
      case: 'all sizes zero',
      takeProfits: [{ role: 'tp1' as const, percent: 1, sizePercent: 0 }],
      message: 'Take-profit sizes must not all be zero',
    },
  ])('refuses $case', ({ takeProfits, message }) => {
    expect(() =>
      buildTakeProfitLadder({ side: 'long', entryPrice: 100, quantity: 1, takeProfits, market: BTC }),
    ).toThrow(message);
  });

  it('refuses a zero position', () => {
    expect(() =>
      buildTakeProfitLadder({
        side: 'long',
        entryPrice: 100,
        quantity: 0,
        takeProfits: THREE_TPS,
        market: BTC,
      }),
    ).toThrow('Position quantity must be greater than zero');
  });
});

describe('takeProfitStatusFromOrder', () => {
  it.each<[OrderState | undefined, TakeProfitStatus]>([
    [undefined, 'waiting'],
    ['new', 'waiting'],
    ['submitted', 'placed'],
    ['open', 'placed'],
    ['unknown', 'placed'],
    ['partially_filled', 'partially_filled'],
    ['filled', 'filled'],
    ['cancelled', 'cancelled'],
    ['rejected', 'cancelled'],
    ['expired', 'cancelled'],
  ])('%s → %s', (state, status) => {
    expect(takeProfitStatusFromOrder(state)).toBe(status);
  });
});

describe('pushableTakeProfit', () => {
  const ladderOf = (...statuses: TakeProfitStatus[]) =>
    statuses.map((status, i) => ({ role: `tp${i + 1}` as TakeProfitRole, status, orderId: `o${i + 1}` }));

  it.each([
    { levels: ladderOf('placed', 'placed', 'placed'), role: 'tp1', result: 'ok' },
    { levels: ladderOf('partially_filled', 'placed'), role: 'tp1', result: 'ok' },
    { levels: ladderOf('waiting', 'waiting'), role: 'tp1', result: 'ok' },
    { levels: ladderOf('filled', 'placed', 'placed'), role: 'tp2', result: 'ok' },
    { levels: ladderOf('cancelled', 'placed'), role: 'tp2', result: 'ok' },
    {
      levels: ladderOf('placed', 'placed', 'placed'),
      role: 'tp2',
      result: 'Waiting for TP1 to be filled first',
    },
    {
      levels: ladderOf('placed', 'placed', 'placed'),
      role: 'tp3',
      result: 'Waiting for TP1 to be filled first',
    },
    {
      levels: ladderOf('filled', 'placed', 'placed'),
      role: 'tp3',
      result: 'Waiting for TP2 to be filled first',
    },
    { levels: ladderOf('filled', 'placed'), role: 'tp1', result: 'TP1 is not available to push' },
    { levels: ladderOf('placed', 'cancelled'), role: 'tp2', result: 'TP2 is not available to push' },
    { levels: ladderOf('placed', 'placed'), role: 'tp4', result: 'TP4 is not available to push' },
    { levels: [], role: 'tp1', result: 'TP1 is not available to push' },
  ])('$role of $levels.length levels → $result', ({ levels, role, result }) => {
    const decision = pushableTakeProfit(levels, role);
    if (result === 'ok') {
      expect(decision).toEqual({ ok: true, level: levels.find((l) => l.role === role) });
    } else {
      expect(decision).toMatchObject({ ok: false, message: result });
    }
  });

  it('finds the lowest unfilled TP by role number, not array order', () => {
    const levels = [
      { role: 'tp2' as const, status: 'placed' as const },
      { role: 'tp1' as const, status: 'placed' as const },
    ];
    expect(pushableTakeProfit(levels, 'tp2')).toEqual({
      ok: false,
      message: 'Waiting for TP1 to be filled first',
      params: { variant: 'waiting', previousName: 'TP1' },
    });
  });
});

function toDecimalString(units: number, step: string): string {
  return toDecimal(units).times(step).toFixed();
}
