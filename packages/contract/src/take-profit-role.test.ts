// Issue 21: one take-profit role for every place that reads one — the bodies that accept a role and the server's
// own recognition of a take-profit order (`TAKE_PROFIT_ROLE`, used by the engine; core's `isTakeProfitRole`).
import { isTakeProfitRole } from '@kairos/core';
import { describe, expect, it } from 'vitest';
import { pushToTpBody } from './admin';
import { pushTakeProfitBody, TAKE_PROFIT_ROLE, tradeCreateBody, tradeUpdateBody } from './trades';
import { strategyCreateBody } from './trading';

// tp11 and above are real: a re-plan numbers its new levels after the filled ones (3 filled + 10 new: tp4…tp13).
const ROLES = ['tp1', 'tp2', 'tp9', 'tp10', 'tp11', 'tp13', 'tp99', 'tp100'];
const NOT_ROLES = ['tp0', 'tp00', 'tp01', 'tp010', 'tp', 'tp-1', 'tp1a', 'xtp1', 'tp 1', 'stop', 'entry'];

const tradeId = '6f1c1d2e-8f7a-4f5b-9c3d-2a1b0c9d8e7f';
const accountId = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
/** Each body that takes a take-profit role, with `role` in its place. */
const bodies: Record<string, (role: string) => { success: boolean }> = {
  'push to take profit': (role) => pushTakeProfitBody.safeParse({ tradeId, takeProfitRole: role }),
  "trade control's push": (role) => pushToTpBody.safeParse({ takeProfitRole: role }),
  'a strategy': (role) =>
    strategyCreateBody.safeParse({
      nickname: 'S',
      tradeCurrency: 'BTC',
      timeFrame: '1h',
      takeProfits: [{ role, percent: '2', sizePercent: '50' }],
    }),
  'a manual trade': (role) =>
    tradeCreateBody.safeParse({
      accountId,
      symbol: 'BTC/USDT',
      side: 'long',
      amount: '1',
      takeProfits: [{ role, percent: '2', sizePercent: '50' }],
    }),
  "a trade's new plan": (role) =>
    tradeUpdateBody.safeParse({ takeProfits: [{ role, percent: '2', sizePercent: '50' }] }),
};

describe('take-profit roles', () => {
  it('are tp and a level number from 1, without a leading zero', () => {
    expect(ROLES.filter((role) => !TAKE_PROFIT_ROLE.test(role))).toEqual([]);
    expect(NOT_ROLES.filter((role) => TAKE_PROFIT_ROLE.test(role))).toEqual([]);
  });

  it("are the ones the server's engine recognises as a take-profit order", () => {
    for (const role of [...ROLES, ...NOT_ROLES])
      expect(isTakeProfitRole(role), role).toBe(TAKE_PROFIT_ROLE.test(role));
  });

  it.each(Object.keys(bodies))('are the only roles %s accepts', (name) => {
    const parse = bodies[name]!;
    expect(ROLES.filter((role) => !parse(role).success)).toEqual([]);
    expect(NOT_ROLES.filter((role) => parse(role).success)).toEqual([]);
  });
});
