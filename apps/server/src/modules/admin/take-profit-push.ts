import { nestedParams } from '@kairos/contract';
import { tpDisplayName } from '@kairos/core';
import type { TakeProfitOrders } from '../../engine/take-profit-orders';
import type { TradeLock } from '../../engine/trade-lock';
import type { TradeSupervisor } from '../../engine/trade-supervisor';
import { pushLevelNow } from '../../engine/push-now';
import { ladderView, pushDecision } from '../../engine/trades-fns';
import type { TradesRepo } from '../../engine/trades-repo';
import { botResult, type BotResult } from './bot-outcome';

/** A bot's push, said by its catalogue code and params (issue 21) with its English message. */
export type PushOutcome = BotResult;

/**
 * Push to take profit for one bot's trade, as trade control runs it on every bot of a strategy. The same
 * machinery and rules as the user's `PUT /push-to-take-profit` (trades-service): under the trade lock,
 * only the lowest level not yet filled (spec §8 messages), then `pushTakeProfit` — its client order id
 * (trade + role) is shared with the user's push, so a repeated, crashed or concurrent user/admin push
 * of one level is one market order. Without a role, each trade pushes its own lowest pushable level.
 */
export function createTradeControlPush(deps: {
  trades: Pick<TradesRepo, 'findById' | 'ordersOfTrade'>;
  takeProfits: Pick<TakeProfitOrders, 'pushTakeProfit'>;
  supervisor: Pick<TradeSupervisor, 'gatewayFor' | 'supervise'>;
  lock: TradeLock;
}) {
  const { trades, takeProfits, supervisor, lock } = deps;

  return async function pushToTakeProfit(tradeId: string, requestedRole?: string): Promise<PushOutcome> {
    return lock.withTrade(tradeId, async () => {
      const trade = await trades.findById(tradeId);
      if (!trade) return botResult('skipped', [], 'NO_OPEN_POSITION');
      const levels = ladderView(trade.takeProfits, await trades.ordersOfTrade(trade.id), trade.status);
      const role = requestedRole ?? levels.find((l) => l.pushable)?.role;
      if (!role)
        return levels.length === 0
          ? botResult('skipped', [], 'NO_TAKE_PROFIT_TO_PUSH', { variant: 'noLevels' })
          : botResult('skipped', [], 'NO_TAKE_PROFIT_TO_PUSH');
      const name = tpDisplayName(role);
      const decision = pushDecision(levels, role, trade.status);
      if (!decision.ok) {
        if (levels.find((l) => l.role === role)?.pushed)
          return botResult('skipped', [], 'TAKE_PROFIT_ALREADY_PUSHED', { name });
        // The engine's own refusals (trade not open, level not placed yet, a lower one first), as the user's push.
        return {
          status: 'skipped',
          message: decision.message,
          code: 'TAKE_PROFIT_NOT_PUSHABLE',
          params: { ...(decision.params ?? { name }) },
          orderIds: [],
        };
      }
      const pushed = await pushLevelNow({ takeProfits, supervisor }, trade, role);
      if (pushed.kind === 'filledFirst')
        return botResult('done', [], 'TAKE_PROFIT_FILLED_BEFORE_PUSH', { name });
      if (pushed.kind === 'refused')
        return botResult('failed', pushed.order ? [pushed.order.id] : [], 'PUSH_FAILED', {
          name,
          ...nestedParams('error', pushed.refusal),
        });
      const { order } = pushed;
      return botResult('done', [order.id], 'TAKE_PROFIT_PUSHED', {
        name,
        orderId: order.venueOrderId ?? order.id,
      });
    });
  };
}

export type TradeControlPush = ReturnType<typeof createTradeControlPush>;
