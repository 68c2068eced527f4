import { tpDisplayName } from '@kairos/core';
import type { TakeProfitOrders } from '../../engine/take-profit-orders';
import type { TradeLock } from '../../engine/trade-lock';
import type { TradeSupervisor } from '../../engine/trade-supervisor';
import { findMarket } from '../../engine/trade-lifecycle';
import { ladderView, pushDecision } from '../../engine/trades-fns';
import type { TradesRepo } from '../../engine/trades-repo';

export type PushOutcome = { status: 'done' | 'skipped' | 'failed'; message: string; orderIds: string[] };

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
      if (!trade) return { status: 'skipped', message: 'No open position', orderIds: [] };
      const levels = ladderView(trade.takeProfits, await trades.ordersOfTrade(trade.id), trade.status);
      const role = requestedRole ?? levels.find((l) => l.pushable)?.role;
      if (!role) {
        const message = levels.length === 0 ? 'No take-profit levels to push' : 'No take profit left to push';
        return { status: 'skipped', message, orderIds: [] };
      }
      const name = tpDisplayName(role);
      const decision = pushDecision(levels, role, trade.status);
      if (!decision.ok) {
        const pushed = levels.find((l) => l.role === role)?.pushed;
        return {
          status: 'skipped',
          message: pushed ? `${name} was already pushed to market` : decision.message,
          orderIds: [],
        };
      }
      try {
        const gateway = await supervisor.gatewayFor(trade);
        const market = await findMarket(gateway, trade.symbol);
        const order = await takeProfits.pushTakeProfit(gateway, trade, role, market);
        if (!order)
          return { status: 'done', message: `${name} filled before it could be pushed`, orderIds: [] };
        if (order.status === 'rejected')
          return {
            status: 'failed',
            message: `Failed to push ${name}: ${order.lastError ?? 'rejected'}`,
            orderIds: [order.id],
          };
        return {
          status: 'done',
          message: `Successfully pushed ${name} to market! Order ID: ${order.venueOrderId ?? order.id}`,
          orderIds: [order.id],
        };
      } catch (e) {
        return {
          status: 'failed',
          message: `Failed to push ${name}: ${e instanceof Error ? e.message : String(e)}`,
          orderIds: [],
        };
      } finally {
        // Trade closed by the push, ladder follow-up, bot out: the supervisor's job (re-entrant lock).
        await supervisor.supervise(tradeId).catch(() => undefined);
      }
    });
  };
}

export type TradeControlPush = ReturnType<typeof createTradeControlPush>;
