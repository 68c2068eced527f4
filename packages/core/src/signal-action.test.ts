import { describe, expect, it } from 'vitest';
import {
  SIGNAL_ACTIONS,
  decideSignalAction,
  isSignalAction,
  lateSignal,
  type BotPosition,
  type OrderLeg,
  type SignalAction,
} from './signal-action';

/** The position a bot holds once its legs all fill: what the last one opened, or out. */
function positionAfterLegs(position: BotPosition, legs: readonly OrderLeg[]): BotPosition {
  const last = legs.at(-1);
  if (last === undefined) return position;
  return last === 'open_long' ? 'long' : last === 'open_short' ? 'short' : 'out';
}

const EXPECTED: Record<BotPosition, Record<'long' | 'short' | 'exit', OrderLeg[]>> = {
  out: { long: ['open_long'], short: ['open_short'], exit: [] },
  long: { long: [], short: ['close_long', 'open_short'], exit: ['close_long'] },
  short: { long: ['close_short', 'open_long'], short: [], exit: ['close_short'] },
};
const ALIAS: Record<SignalAction, 'long' | 'short' | 'exit'> = {
  long: 'long',
  buy: 'long',
  short: 'short',
  sell: 'short',
  exit: 'exit',
  close: 'exit',
};

const POSITIONS: BotPosition[] = ['out', 'long', 'short'];
const CASES = POSITIONS.flatMap((position) =>
  SIGNAL_ACTIONS.map((action) => ({ position, action, legs: EXPECTED[position][ALIAS[action]] })),
);

describe('decideSignalAction', () => {
  it('covers every position × action', () => {
    expect(CASES).toHaveLength(18);
  });

  it.each(CASES)('$position + $action → $legs', ({ position, action, legs }) => {
    expect(decideSignalAction(position, action)).toEqual(legs);
  });

  it.each([
    { position: 'out', action: 'short', legs: [] },
    { position: 'long', action: 'sell', legs: ['close_long'] },
    { position: 'out', action: 'long', legs: ['open_long'] },
  ] as const)('spot (no shorting): $position + $action → $legs', ({ position, action, legs }) => {
    expect(decideSignalAction(position, action, { canShort: false })).toEqual(legs);
  });

  it.each([
    { position: 'out', action: 'long', legs: [] },
    { position: 'short', action: 'long', legs: ['close_short'] },
    { position: 'long', action: 'exit', legs: ['close_long'] },
  ] as const)('no new entries: $position + $action → $legs', ({ position, action, legs }) => {
    expect(decideSignalAction(position, action, { canOpen: false })).toEqual(legs);
  });

  it.each(CASES)('$position + $action ends in the signalled position', ({ position, action, legs }) => {
    const wanted = ALIAS[action];
    expect(positionAfterLegs(position, legs)).toBe(wanted === 'exit' ? 'out' : wanted);
  });

  it.each([
    ['buy', true],
    ['close', true],
    ['hold', false],
  ])('isSignalAction(%j) is %s', (value, expected) => {
    expect(isSignalAction(value)).toBe(expected);
  });
});

describe('lateSignal', () => {
  const now = new Date('2026-11-24T12:00:00Z');
  const at = (secondsAgo: number) => new Date(now.getTime() - secondsAgo * 1000);
  const alert = (over: Partial<Parameters<typeof lateSignal>[0]> = {}) => ({
    action: 'long' as const,
    signalAt: null,
    receivedAt: at(10),
    attempts: 1,
    lateOk: false,
    ...over,
  });

  it.each([
    ['an entry received within the max lag', alert(), null],
    ['an entry received past it', alert({ receivedAt: at(61) }), { ageSeconds: 61 }],
    ['the signal time counts before the arrival', alert({ signalAt: at(90) }), { ageSeconds: 90 }],
    ['a reversal past it', alert({ action: 'short', receivedAt: at(600) }), { ageSeconds: 600 }],
    ['a late exit still closes', alert({ action: 'exit', receivedAt: at(600) }), null],
    ['a late signal an admin resumed', alert({ receivedAt: at(600), lateOk: true }), null],
    ['a retry (its first attempt was in time)', alert({ receivedAt: at(600), attempts: 2 }), null],
  ])('%s', (_name, input, expected) => {
    expect(lateSignal(input, 60, now)).toEqual(expected);
  });
});
