import type { TakeProfitOrders } from './take-profit-orders';
import { findMarket } from './trade-lifecycle';
import type { TradeSupervisor } from './trade-supervisor';
import type { OrderRow, TradeDbRow } from './trades-repo';
import { innerRefusal, orderRefusal, type Refusal } from './last-error';

/** What sending a take-profit level to market now came to. */
export type PushAttempt =
  | { kind: 'placed'; order: OrderRow }
  /** The level filled before its market order went: nothing sent. */
  | { kind: 'filledFirst' }
  /** The venue (or a rule of ours) refused it: its words, code and params to nest in PUSH_FAILED. */
  | { kind: 'refused'; refusal: Refusal; order?: OrderRow };

/**
 * Sends `role`'s level of `trade` to market now (`pushTakeProfit`), for the user's push and trade control's
 * alike: a refusal thrown or kept on the order's row is said the same way, and the supervisor follows the trade
 * up after it whatever happened (trade closed by the push, the ladder's next step, the bot out). The caller
 * holds the trade lock and has decided the level is pushable.
 */
export async function pushLevelNow(
  deps: {
    takeProfits: Pick<TakeProfitOrders, 'pushTakeProfit'>;
    supervisor: Pick<TradeSupervisor, 'gatewayFor' | 'supervise'>;
  },
  trade: TradeDbRow,
  role: string,
): Promise<PushAttempt> {
  try {
    const gateway = await deps.supervisor.gatewayFor(trade);
    const market = await findMarket(gateway, trade.symbol);
    const order = await deps.takeProfits.pushTakeProfit(gateway, trade, role, market);
    if (!order) return { kind: 'filledFirst' };
    if (order.status === 'rejected')
      return { kind: 'refused', refusal: orderRefusal(order) ?? { message: 'rejected' }, order };
    return { kind: 'placed', order };
  } catch (e) {
    return { kind: 'refused', refusal: innerRefusal(e) };
  } finally {
    await deps.supervisor.supervise(trade.id).catch(() => undefined);
  }
}
