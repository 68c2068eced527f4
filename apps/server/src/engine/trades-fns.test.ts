import { describe, expect, it } from 'vitest';
import { tradeClientOrderId } from '@kairos/core';
import { attributeFunding, heldQuantity, ladderView, pushDecision, replanTakeProfits } from './trades-fns';

const plan = [
  { role: 'tp1', percent: '1', sizePercent: '50' },
  { role: 'tp2', percent: '2', sizePercent: '30' },
  { role: 'tp3', percent: '3', sizePercent: '20' },
];

let clock = 0;
function order(role: string, status: string, extra: Record<string, unknown> = {}) {
  clock += 1;
  return {
    role,
    type: 'limit' as const,
    status: status as never,
    price: '100',
    average: null,
    amount: '1',
    filled: status === 'filled' ? '1' : '0',
    venueOrderId: `v${clock}`,
    clientOrderId: `c${clock}`,
    createdAt: new Date(clock),
    ...extra,
  };
}

describe('heldQuantity', () => {
  it.each([
    [
      'long, fees in quote',
      'long',
      [
        ['buy', '1', '0.1', 'USDT'],
        ['sell', '0.4', '0.1', 'USDT'],
      ],
      '0.6',
    ],
    ['long, buy fee in the coin bought', 'long', [['buy', '0.01', '0.00001', 'BTC']], '0.00999'],
    [
      'long, fully sold after a base fee',
      'long',
      [
        ['buy', '0.01', '0.00001', 'BTC'],
        ['sell', '0.00999', '0.6', 'USDT'],
      ],
      '0',
    ],
    [
      'short: base fees do not count',
      'short',
      [
        ['sell', '1', '0.001', 'BTC'],
        ['buy', '0.5', '0', 'USDT'],
      ],
      '0.5',
    ],
    ['nothing yet', 'long', [], '0'],
  ] as const)('%s', (_, side, rows, expected) => {
    const fills = rows.map(([s, amount, fee, feeCurrency]) => ({ side: s, amount, fee, feeCurrency }));
    expect(heldQuantity({ side, symbol: 'BTC/USDT' }, fills).toFixed()).toBe(expected);
  });
});

describe('ladderView', () => {
  it('waits for every level before the ladder is placed', () => {
    expect(
      ladderView(plan, [order('entry', 'open')], 'open').map((l) => [l.name, l.status, l.pushable]),
    ).toEqual([
      ['TP1', 'waiting', false],
      ['TP2', 'waiting', false],
      ['TP3', 'waiting', false],
    ]);
  });

  it('maps each level to its newest order, and only the lowest unsettled one is pushable', () => {
    const orders = [
      order('entry', 'filled'),
      order('tp1', 'filled'),
      order('tp2', 'open'),
      order('tp3', 'unknown'),
    ];
    expect(ladderView(plan, orders, 'open').map((l) => [l.name, l.status, l.pushable])).toEqual([
      ['TP1', 'filled', false],
      ['TP2', 'placed', true],
      ['TP3', 'placed', false],
    ]);
  });

  it('shows a level merged into its neighbour (too small for the venue) as cancelled', () => {
    const orders = [order('entry', 'filled'), order('tp1', 'open'), order('tp2', 'open')];
    expect(ladderView(plan, orders, 'open').map((l) => l.status)).toEqual(['placed', 'placed', 'cancelled']);
  });

  it('adds up a pushed level: the cancelled limit’s partial fill and the market order', () => {
    const orders = [
      order('entry', 'filled'),
      order('tp1', 'cancelled', { filled: '0.25' }),
      order('tp1', 'filled', {
        type: 'market',
        amount: '0.75',
        filled: '0.75',
        average: '99.5',
        price: null,
      }),
    ];
    expect(ladderView(plan.slice(0, 1), orders, 'open')[0]).toMatchObject({
      status: 'filled',
      amount: '1',
      filled: '1',
      price: '99.5',
      pushed: true,
    });
  });

  it('has nothing pushable once the trade is not open', () => {
    const orders = [order('entry', 'filled'), order('tp1', 'open')];
    expect(ladderView(plan.slice(0, 1), orders, 'closing')[0]!.pushable).toBe(false);
  });
});

describe('pushDecision', () => {
  const levels = (...statuses: string[]) =>
    statuses.map((status, i) => ({ role: `tp${i + 1}` as `tp${number}`, status: status as never }));
  it.each([
    [levels('placed', 'placed'), 'tp1', 'open', true, undefined],
    [levels('placed', 'placed'), 'tp2', 'open', false, 'Waiting for TP1 to be filled first'],
    [levels('filled', 'placed'), 'tp1', 'open', false, 'TP1 is not available to push'],
    [levels('cancelled', 'placed'), 'tp2', 'open', true, undefined],
    [levels('partially_filled', 'placed'), 'tp1', 'open', true, undefined],
    [levels('placed'), 'tp4', 'open', false, 'TP4 is not available to push'],
    [levels('waiting', 'waiting'), 'tp1', 'open', false, 'TP1 is not available to push'],
    [levels('waiting', 'waiting'), 'tp2', 'open', false, 'Waiting for TP1 to be filled first'],
    [levels('placed'), 'tp1', 'closed', false, 'TP1 is not available to push'],
  ])('%j push %s on a %s trade', (ladder, role, status, ok, message) => {
    const decision = pushDecision(ladder, role, status);
    expect(decision.ok).toBe(ok);
    if (!decision.ok) expect(decision.message).toBe(message);
  });
});

describe('replanTakeProfits', () => {
  it('replaces the whole plan when nothing filled', () => {
    expect(replanTakeProfits(plan, new Set(), [{ percent: '5', sizePercent: '100' }])).toEqual({
      plan: [{ role: 'tp1', percent: '5', sizePercent: '100' }],
      newRoles: ['tp1'],
    });
  });

  it('keeps filled levels and numbers the new ones after them', () => {
    const next = [
      { percent: '4', sizePercent: '60' },
      { percent: '6', sizePercent: '40' },
    ];
    expect(replanTakeProfits(plan, new Set(['tp1']), next)).toEqual({
      plan: [plan[0], { role: 'tp2', ...next[0] }, { role: 'tp3', ...next[1] }],
      newRoles: ['tp2', 'tp3'],
    });
  });
});

describe('tradeClientOrderId', () => {
  it('is deterministic per trade and purpose, and fits every venue', () => {
    const a = tradeClientOrderId('t-1', 'tp1', 0);
    expect(a).toBe(tradeClientOrderId('t-1', 'tp1', 0));
    expect(a).not.toBe(tradeClientOrderId('t-1', 'tp1', 1));
    expect(a).not.toBe(tradeClientOrderId('t-2', 'tp1', 0));
    expect(a).toMatch(/^[A-Za-z0-9]{1,32}$/);
  });
});

describe('attributeFunding', () => {
  const at = (h: number) => new Date(Date.UTC(2026, 0, 1, h));
  const pay = (h: number, amount: string) => ({ id: `p${h}`, amount, timestamp: at(h).getTime() });

  it('gives each payment to the trades holding the position then, split by their quantities', () => {
    const shares = attributeFunding(
      [
        { id: 'a', quantity: '0.3', openedAt: at(0), closedAt: null },
        { id: 'b', quantity: '0.1', openedAt: at(7), closedAt: at(9) },
        { id: 'c', quantity: '0.2', openedAt: at(17), closedAt: null },
      ],
      [pay(8, '-4'), pay(16, '2')],
    );
    expect(shares.get('a')?.map((p) => [p.id, p.share])).toEqual([
      ['p8', '-3'],
      ['p16', '2'],
    ]);
    expect(shares.get('b')?.map((p) => [p.id, p.share])).toEqual([['p8', '-1']]);
    // Opened after the last payment: nothing of it.
    expect(shares.get('c')).toBeUndefined();
  });

  it('leaves a payment no trade held to nobody', () => {
    expect(
      attributeFunding([{ id: 'a', quantity: '0', openedAt: at(0), closedAt: null }], [pay(8, '-1')]).size,
    ).toBe(0);
  });
});
