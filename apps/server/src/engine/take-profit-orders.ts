import { TAKE_PROFIT_ROLE } from '@kairos/contract';
import {
  averageFillPrice,
  tradeClientOrderId,
  buildTakeProfitLadder,
  DomainRuleError,
  orderMinimumViolation,
  deterministicId,
  isOpenState,
  retryChain,
  roundDownToStep,
  sum,
  toDecimal,
  toNumericString,
  type TakeProfitTarget,
} from '@kairos/core';
import type { FastifyBaseLogger } from 'fastify';
import type { TakeProfitPlan } from '../db/schema/index';
import { FALLBACK_TICK, type ExchangeGateway, type Market } from '../exchange/gateway';
import { heldQuantity } from './trades-fns';
import type { OrderRow, TradeDbRow, TradesRepo } from './trades-repo';
import type { KnownFill, OrderExecutor } from './order-executor';
import { marketExitOrder } from './trade-lifecycle';

/**
 * The client order id of a push of one TP. Shared with admin trade control's push, so a user's push and
 * an admin's push of the same level are one order.
 */
export const pushClientOrderId = (tradeId: string, role: string) => deterministicId(['push', tradeId, role]);

export type TakeProfitOrders = ReturnType<typeof createTakeProfitOrders>;

/** The orders of a trade's take-profit ladder on the venue: placing it, and pushing one level to market. */
export function createTakeProfitOrders(deps: {
  trades: TradesRepo;
  executor: OrderExecutor;
  log: FastifyBaseLogger;
}) {
  const { trades, executor } = deps;

  /**
   * Places limit orders for `plan` over what the trade holds now (reduce-only on futures; plain
   * sells/buys on spot, sized from the position). Sizes come from core's ladder maths on the venue's
   * precision and minimums and sum exactly to the held quantity. All rows are committed before the
   * first is sent, each with a client order id from (trade, role, how many orders that role had), so
   * running this again after a crash resumes the same orders instead of adding more. `known`: the trade's
   * orders and fills when the caller has just read them.
   */
  async function placeTakeProfitLadder(
    gateway: ExchangeGateway,
    trade: TradeDbRow,
    market: Market,
    plan: readonly TakeProfitPlan[],
    known?: { orders: OrderRow[]; fills: KnownFill[] },
  ): Promise<OrderRow[]> {
    if (plan.length === 0) return [];
    const fills = known?.fills ?? (await trades.fillsOfTrade(trade.id));
    const entrySide = trade.side === 'long' ? 'buy' : 'sell';
    const entryFills = fills
      .filter((f) => f.side === entrySide)
      .map((f) => ({ side: f.side, price: f.price, quantity: f.amount }));
    const entryPrice = averageFillPrice(entryFills);
    const step = market.amountStep ?? FALLBACK_TICK;
    const quantity = roundDownToStep(heldQuantity(trade, fills), step);
    if (!entryPrice || quantity.lte(0)) return [];

    const levels = buildTakeProfitLadder({
      side: trade.side,
      entryPrice,
      quantity,
      takeProfits: plan as TakeProfitTarget[],
      market: {
        amountStep: step,
        priceTick: market.priceTick ?? FALLBACK_TICK,
        minAmount: market.minAmount ?? '0',
        minNotional: market.minNotional ?? '0',
      },
    });
    const earlier = known?.orders ?? (await trades.ordersOfTrade(trade.id));
    const rows = await trades.insertOrders(
      levels.map((level) => ({
        tradeId: trade.id,
        userId: trade.userId,
        tradingAccountId: trade.tradingAccountId,
        clientOrderId: tradeClientOrderId(
          trade.id,
          level.role,
          earlier.filter((o) => o.role === level.role).length,
        ),
        role: level.role,
        symbol: trade.symbol,
        side: trade.side === 'long' ? ('sell' as const) : ('buy' as const),
        type: 'limit' as const,
        reduceOnly: gateway.marketType === 'future',
        price: toNumericString(level.price),
        amount: toNumericString(level.quantity),
      })),
    );
    return sendEach(gateway, rows);
  }

  /** Sends each row; one level refused by the venue (recorded on its row) does not stop the others. */
  async function sendEach(gateway: ExchangeGateway, rows: OrderRow[]): Promise<OrderRow[]> {
    const sent: OrderRow[] = [];
    for (const row of rows) {
      try {
        sent.push(await executor.submit(gateway, row, row.status === 'new'));
      } catch (e) {
        deps.log.warn({ err: e, orderId: row.id, role: row.role }, 'take-profit order not placed');
        sent.push((await trades.findOrderById(row.id)) ?? row);
      }
    }
    return sent;
  }

  /** Cancels every resting take-profit of the trade (before a new plan is placed). */
  async function cancelRestingTakeProfits(gateway: ExchangeGateway, tradeId: string): Promise<void> {
    for (const order of await trades.ordersOfTrade(tradeId)) {
      if (TAKE_PROFIT_ROLE.test(order.role) && isOpenState(order.status))
        await executor.cancel(gateway, order);
    }
  }

  /**
   * Push to market (DESIGN §6): the level's limit order is cancelled and what it had not filled is sent
   * at market. The market order's row (client order id from trade + role) is written before the cancel,
   * so a push interrupted anywhere resumes that same order. Returns undefined when the level turned out
   * fully filled while its limit was being cancelled (nothing left to push).
   */
  async function pushTakeProfit(
    gateway: ExchangeGateway,
    trade: TradeDbRow,
    role: string,
    market: Pick<Market, 'amountStep' | 'minAmount' | 'minNotional'>,
  ): Promise<OrderRow | undefined> {
    const clientOrderId = pushClientOrderId(trade.id, role);
    const limitsOf = async () =>
      (await trades.ordersOfTrade(trade.id)).filter((o) => o.role === role && o.type === 'limit');
    const remainingOf = (limits: OrderRow[]) => {
      const current = limits.at(-1);
      if (!current) return toDecimal(0);
      const left = toDecimal(current.amount).minus(current.filled);
      return market.amountStep ? roundDownToStep(left, market.amountStep) : left;
    };

    // Each attempt of this push has its own id along the retry chain: a live one is resumed, a refused one
    // is followed by a new attempt, and what earlier attempts filled is never sold again.
    const chain = retryChain(clientOrderId, await trades.ordersOfTrade(trade.id));
    let push = chain.attempts.find((o) => o.status === 'new' || isOpenState(o.status));
    if (!push) {
      const pushed = sum(chain.attempts.map((o) => o.filled));
      const limits = await limitsOf();
      const remaining = remainingOf(limits).minus(pushed);
      if (remaining.lte(0)) return undefined;
      // A spot market order under the venue's minimums would be refused once the limit is already
      // cancelled: refused here, before anything changes (the user's and the admin's push alike).
      if (gateway.marketType === 'spot') {
        const last = (await gateway.fetchTicker(trade.symbol)).last ?? limits.at(-1)?.price ?? '0';
        const violation = orderMinimumViolation(remaining, last, {
          minAmount: market.minAmount ?? '0',
          minNotional: market.minNotional ?? '0',
        });
        if (violation) throw new DomainRuleError('ORDER_TOO_SMALL', violation.message, violation.params);
      }
      push = (
        await trades.insertOrder(
          marketExitOrder(gateway, trade, { clientOrderId: chain.next, role, amount: remaining }),
        )
      ).order;
    }
    if (push.status === 'new') {
      for (const limit of await limitsOf()) {
        if (isOpenState(limit.status)) await executor.cancel(gateway, limit);
      }
      // The limit may have filled further while it was being cancelled: push only what is left.
      const remaining = remainingOf(await limitsOf());
      if (remaining.lte(0)) {
        await trades.deleteUnsentOrder(push.id);
        return undefined;
      }
      push = await trades.updateOrder(push.id, { amount: toNumericString(remaining) });
    }
    return executor.submit(gateway, push, push.status === 'new');
  }

  return { placeTakeProfitLadder, cancelRestingTakeProfits, pushTakeProfit, sendEach };
}
