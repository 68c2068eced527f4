import { apiMessage, apiMessageTemplate, type ApiMessageCode } from '@kairos/contract';
import {
  ALERT_STATUSES,
  applyAlertAdminAction,
  buildTakeProfitLadder,
  computeMonthlyFee,
  DomainRuleError,
  orderMinimumViolation,
  parseSymbol,
  pushableTakeProfit,
  sizeOrder,
  toDecimal,
  transitionOrder,
  transitionTrade,
  type AlertAdminAction,
  type ErrorParams,
} from '@kairos/core';
import { describe, expect, it } from 'vitest';

/** What core threw, or undefined when it did not. */
function refusal(run: () => unknown): DomainRuleError | undefined {
  try {
    run();
    return undefined;
  } catch (e) {
    if (e instanceof DomainRuleError) return e;
    throw e;
  }
}

/**
 * Core builds its refusals itself (it is pure and knows no catalog): each must be what the catalog says
 * with the same code and params, or the web would say something else than the server.
 */
function expectCatalogWords(code: string, message: string, params: ErrorParams | undefined) {
  expect(apiMessageTemplate(code, params), `${code} ${JSON.stringify(params)}`).toBeDefined();
  expect(apiMessage(code as ApiMessageCode, params as never)).toBe(message);
}

describe("core's refusals say what the catalog says", () => {
  it('market minimums and sizing', () => {
    const market = { amountStep: '0.001', minAmount: '0.01', minNotional: '10' };
    const violations = [
      orderMinimumViolation('0', '100', market),
      orderMinimumViolation('0.001', '100', market),
      orderMinimumViolation('0.05', '100', market),
    ];
    for (const violation of violations) {
      expect(violation).toBeDefined();
      expectCatalogWords('ORDER_TOO_SMALL', violation!.message, violation!.params);
      expectCatalogWords('SIZING_REFUSED', violation!.message, violation!.params);
    }
    const rule = { kind: 'fixedAmount' as const, amount: '100' };
    const sizings = [
      { rule, stableBalance: '1000', leveragePercent: '100', price: '0', market },
      { rule, stableBalance: '1000', leveragePercent: '0', price: '100', market },
      { rule, stableBalance: '0', leveragePercent: '100', price: '100', market },
      { rule, stableBalance: '50', leveragePercent: '100', price: '100', market },
    ];
    for (const input of sizings) {
      const sized = sizeOrder(input);
      expect(sized.ok).toBe(false);
      if (!sized.ok) expectCatalogWords('SIZING_REFUSED', sized.message, sized.params);
    }
  });

  it('push to take profit', () => {
    const levels = [
      { role: 'tp1' as const, status: 'placed' as const },
      { role: 'tp2' as const, status: 'placed' as const },
    ];
    for (const role of ['tp2', 'tp7']) {
      const decision = pushableTakeProfit(levels, role);
      expect(decision.ok).toBe(false);
      if (!decision.ok) expectCatalogWords('TAKE_PROFIT_NOT_PUSHABLE', decision.message, decision.params);
    }
  });

  it('take-profit plans, symbols, amounts, states, alerts and billing', () => {
    const ladder = (takeProfits: { role: string; percent: string; sizePercent: string }[]) => () =>
      buildTakeProfitLadder({
        side: 'long',
        entryPrice: '100',
        quantity: '1',
        takeProfits: takeProfits as Parameters<typeof buildTakeProfitLadder>[0]['takeProfits'],
        market: { amountStep: '0.001', priceTick: '0.01' },
      });
    const refusals = [
      refusal(ladder([{ role: 'tpx', percent: '1', sizePercent: '50' }])),
      refusal(
        ladder([
          { role: 'tp1', percent: '1', sizePercent: '50' },
          { role: 'tp1', percent: '2', sizePercent: '50' },
        ]),
      ),
      refusal(ladder([{ role: 'tp1', percent: '1', sizePercent: '-5' }])),
      refusal(ladder([{ role: 'tp1', percent: '1', sizePercent: '0' }])),
      refusal(() => parseSymbol('BTC-USDT')),
      refusal(() => toDecimal('abc')),
      refusal(() => transitionOrder('filled', 'open')),
      refusal(() => transitionTrade('closed', 'open')),
      refusal(() =>
        computeMonthlyFee({
          percent: '120',
          highWaterMarkBefore: '0',
          cumulativeProfitBefore: '0',
          monthProfit: '0',
        }),
      ),
      ...(['markDead', 'resume'] as AlertAdminAction[]).flatMap((action) =>
        ALERT_STATUSES.map((from) => refusal(() => applyAlertAdminAction(action, from))),
      ),
    ].filter((e) => e !== undefined);
    expect(refusals.length).toBeGreaterThan(10);
    for (const e of refusals) expectCatalogWords(e.code, e.message, e.params);
  });
});
