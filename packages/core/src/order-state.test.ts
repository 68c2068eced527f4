import { describe, expect, it } from 'vitest';
import {
  InvalidOrderTransitionError,
  ORDER_STATES,
  canTransition,
  isOpenState,
  isOrderState,
  isTerminal,
  reconcileOrderState,
  transitionOrder,
  type OrderState,
} from './order-state';

// Written out independently of ORDER_TRANSITIONS so the test is a second opinion, not a copy.
const ALLOWED = new Set([
  'new>submitted',
  'submitted>open',
  'submitted>partially_filled',
  'submitted>filled',
  'submitted>rejected',
  'submitted>cancelled',
  'submitted>expired',
  'submitted>unknown',
  'open>partially_filled',
  'open>filled',
  'open>cancelled',
  'open>expired',
  'open>unknown',
  'partially_filled>partially_filled',
  'partially_filled>filled',
  'partially_filled>cancelled',
  'partially_filled>expired',
  'partially_filled>unknown',
  'unknown>open',
  'unknown>partially_filled',
  'unknown>filled',
  'unknown>cancelled',
  'unknown>rejected',
  'unknown>expired',
  'unknown>unknown',
]);

const PAIRS = ORDER_STATES.flatMap((from) =>
  ORDER_STATES.map((to) => ({ from, to, allowed: ALLOWED.has(`${from}>${to}`) })),
);

describe('order state table', () => {
  it('covers the full cross product of states', () => {
    expect(PAIRS).toHaveLength(81);
    expect(PAIRS.filter((p) => p.allowed)).toHaveLength(ALLOWED.size);
  });

  it.each(PAIRS)('$from → $to allowed: $allowed', ({ from, to, allowed }) => {
    expect(canTransition(from, to)).toBe(allowed);
    if (allowed) {
      expect(transitionOrder(from, to)).toBe(to);
    } else {
      expect(() => transitionOrder(from, to)).toThrow(InvalidOrderTransitionError);
    }
  });

  it('explains a refused transition', () => {
    const error = (() => {
      try {
        transitionOrder('filled', 'open');
      } catch (e) {
        return e as InvalidOrderTransitionError;
      }
    })();
    expect(error).toBeInstanceOf(InvalidOrderTransitionError);
    expect(error?.code).toBe('INVALID_ORDER_TRANSITION');
    expect(error?.message).toBe('An order cannot move from filled to open');
    expect([error?.from, error?.to]).toEqual(['filled', 'open']);
  });
});

describe('order state predicates', () => {
  const cases: { state: OrderState; terminal: boolean; open: boolean }[] = [
    { state: 'new', terminal: false, open: false },
    { state: 'submitted', terminal: false, open: true },
    { state: 'open', terminal: false, open: true },
    { state: 'partially_filled', terminal: false, open: true },
    { state: 'unknown', terminal: false, open: true },
    { state: 'filled', terminal: true, open: false },
    { state: 'cancelled', terminal: true, open: false },
    { state: 'rejected', terminal: true, open: false },
    { state: 'expired', terminal: true, open: false },
  ];

  it('lists every state once', () => {
    expect(cases.map((c) => c.state).sort()).toEqual([...ORDER_STATES].sort());
  });

  it.each(cases)('$state: terminal $terminal, open $open', ({ state, terminal, open }) => {
    expect(isTerminal(state)).toBe(terminal);
    expect(isOpenState(state)).toBe(open);
    // A terminal state allows nothing, a non-terminal one allows something.
    expect(ORDER_STATES.some((to) => canTransition(state, to))).toBe(!terminal);
  });

  it.each([
    ['open', true],
    ['partially_filled', true],
    ['closed', false],
    ['', false],
  ])('isOrderState(%j) is %s', (value, expected) => {
    expect(isOrderState(value)).toBe(expected);
  });
});

describe('reconcileOrderState', () => {
  it.each([
    { current: 'open', reported: 'open', changed: false, state: 'open' },
    { current: 'filled', reported: 'filled', changed: false, state: 'filled' },
    { current: 'open', reported: 'filled', changed: true, state: 'filled' },
    { current: 'unknown', reported: 'cancelled', changed: true, state: 'cancelled' },
  ] as const)('$current reported as $reported', ({ current, reported, changed, state }) => {
    expect(reconcileOrderState(current, reported)).toEqual({ changed, state });
  });

  it('refuses a venue report that contradicts a terminal state', () => {
    expect(() => reconcileOrderState('filled', 'open')).toThrow(InvalidOrderTransitionError);
  });
});
