import { describe, expect, it } from 'vitest';
import { Decimal, ZERO } from '../decimal';
import { applyFill, feeFor, totalCost, walkBook, type PositionState } from './paper-matching';

const d = (value: string) => new Decimal(value);
const asks: Array<[Decimal, Decimal]> = [
  [d('100.00'), d('1')],
  [d('100.50'), d('2')],
  [d('101.00'), d('3')],
];

describe('walkBook', () => {
  it('takes level by level, best first', () => {
    const executions = walkBook(asks, 'buy', d('2.5'));
    expect(executions.map((e) => [e.price.toFixed(), e.amount.toFixed()])).toEqual([
      ['100', '1'],
      ['100.5', '1.5'],
    ]);
    expect(totalCost(executions).toFixed()).toBe('250.75');
  });

  it('stops at the limit price', () => {
    expect(walkBook(asks, 'buy', d('10'), d('100.50')).map((e) => e.amount.toFixed())).toEqual(['1', '2']);
    const bids: Array<[Decimal, Decimal]> = [
      [d('99'), d('1')],
      [d('98'), d('1')],
    ];
    expect(walkBook(bids, 'sell', d('5'), d('98.5')).map((e) => e.price.toFixed())).toEqual(['99']);
  });

  it('returns less than asked when the book runs out', () => {
    expect(
      walkBook(asks, 'buy', d('100'))
        .reduce((t, e) => t.plus(e.amount), ZERO)
        .toFixed(),
    ).toBe('6');
  });
});

describe('feeFor', () => {
  it('rounds half up to 8 decimals', () => {
    expect(feeFor(d('123.456789'), d('0.001')).toFixed()).toBe('0.12345679');
    expect(feeFor(d('6500'), d('0.001')).toFixed()).toBe('6.5');
  });
});

describe('applyFill (one-way futures position)', () => {
  const flat: PositionState = { amount: ZERO, entryPrice: ZERO, margin: ZERO, leverage: 10 };

  it.each([
    {
      name: 'opens a long with notional / leverage as margin',
      position: flat,
      fill: ['buy', '100', '2'] as const,
      expected: { amount: '2', entry: '100', margin: '20', added: '20', released: '0', pnl: '0' },
    },
    {
      name: 'adds to a long at a weighted entry',
      position: { ...flat, amount: d('2'), entryPrice: d('100'), margin: d('20') },
      fill: ['buy', '130', '1'] as const,
      expected: { amount: '3', entry: '110', margin: '33', added: '13', released: '0', pnl: '0' },
    },
    {
      name: 'reduces a long, realising PnL and releasing margin pro rata',
      position: { ...flat, amount: d('4'), entryPrice: d('100'), margin: d('40') },
      fill: ['sell', '110', '1'] as const,
      expected: { amount: '3', entry: '100', margin: '30', added: '0', released: '10', pnl: '10' },
    },
    {
      name: 'closes a short at a loss',
      position: { ...flat, amount: d('-2'), entryPrice: d('100'), margin: d('20') },
      fill: ['buy', '105', '2'] as const,
      expected: { amount: '0', entry: '0', margin: '0', added: '0', released: '20', pnl: '-10' },
    },
    {
      name: 'reverses a long into a short',
      position: { ...flat, amount: d('1'), entryPrice: d('100'), margin: d('10') },
      fill: ['sell', '90', '3'] as const,
      expected: { amount: '-2', entry: '90', margin: '18', added: '18', released: '10', pnl: '-10' },
    },
  ])('$name', ({ position, fill, expected }) => {
    const [side, price, amount] = fill;
    const change = applyFill(position, side, d(price), d(amount));
    expect({
      amount: change.position.amount.toFixed(),
      entry: change.position.entryPrice.toFixed(),
      margin: change.position.margin.toFixed(),
      added: change.marginAdded.toFixed(),
      released: change.marginReleased.toFixed(),
      pnl: change.realizedPnl.toFixed(),
    }).toEqual(expected);
  });
});
