import { describe, expect, it } from 'vitest';
import {
  InvalidTradeTransitionError,
  TRADE_STATUSES,
  canTransitionTrade,
  isTradeActive,
  isTradeStatus,
  isTradeTerminal,
  transitionTrade,
  type TradeStatus,
} from './trade-state';

// Written out independently of TRADE_TRANSITIONS so the test is a second opinion, not a copy.
const ALLOWED = new Set([
  'open>closing',
  'open>closed',
  'open>cancelled',
  'open>error',
  'closing>open',
  'closing>closed',
  'closing>error',
  'error>open',
  'error>closing',
  'error>closed',
  'error>cancelled',
]);

const PAIRS = TRADE_STATUSES.flatMap((from) =>
  TRADE_STATUSES.map((to) => ({ from, to, allowed: ALLOWED.has(`${from}>${to}`) })),
);

describe('trade status table', () => {
  it('covers the full cross product of statuses', () => {
    expect(PAIRS).toHaveLength(25);
    expect(PAIRS.filter((p) => p.allowed)).toHaveLength(ALLOWED.size);
  });

  it.each(PAIRS)('$from → $to allowed: $allowed', ({ from, to, allowed }) => {
    expect(canTransitionTrade(from, to)).toBe(allowed);
    if (allowed) {
      expect(transitionTrade(from, to)).toBe(to);
    } else {
      expect(() => transitionTrade(from, to)).toThrow(new InvalidTradeTransitionError(from, to).message);
    }
  });

  it('carries a code and both ends on the error', () => {
    const error = new InvalidTradeTransitionError('closed', 'open');
    expect(error).toMatchObject({ code: 'INVALID_TRADE_TRANSITION', from: 'closed', to: 'open' });
    expect(error.message).toBe('A trade cannot move from closed to open');
  });
});

describe('trade status predicates', () => {
  const cases: { status: TradeStatus; terminal: boolean; active: boolean }[] = [
    { status: 'open', terminal: false, active: true },
    { status: 'closing', terminal: false, active: true },
    { status: 'error', terminal: false, active: false },
    { status: 'closed', terminal: true, active: false },
    { status: 'cancelled', terminal: true, active: false },
  ];

  it('lists every status once', () => {
    expect(cases.map((c) => c.status).sort()).toEqual([...TRADE_STATUSES].sort());
  });

  it.each(cases)('$status: terminal $terminal, active $active', ({ status, terminal, active }) => {
    expect(isTradeTerminal(status)).toBe(terminal);
    expect(isTradeActive(status)).toBe(active);
  });

  it.each([
    ['closing', true],
    ['filled', false],
  ])('isTradeStatus(%j) is %s', (value, expected) => {
    expect(isTradeStatus(value)).toBe(expected);
  });
});
