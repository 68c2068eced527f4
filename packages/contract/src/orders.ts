import { z } from 'zod';
import { apiParamsSchema, pagingQuery } from './envelope';
import { ORDER_STATES, TRADE_STATUSES } from './states';

// ─── orders (issue 21: a pending order is an order, not a position) ─────────────────────────────
/**
 * Why an order is not as it was sent (a venue's refusal, a call without an answer, an order the venue never
 * received): `lastError` in English as the server built it, and its code and params (`API_MESSAGES`) from which
 * the web says it in the user's language (issue 21). The code is absent or null on a text written before
 * errors carried one (the web then shows `lastError`).
 */
export const orderErrorShape = {
  lastError: z.string().nullable(),
  lastErrorCode: z.string().nullable().optional(),
  lastErrorParams: apiParamsSchema.nullable().optional(),
};

/** `GET /api/orders`: the user's orders; `open` (the default) only those still live at the venue. */
export const ORDER_LIST_SCOPES = ['open', 'all'] as const;

export const ordersListQuery = z.object({
  scope: z.enum(ORDER_LIST_SCOPES).default('open'),
  accountId: z.string().uuid('Trading account not found').optional(),
  ...pagingQuery(50, 200),
});
export type OrdersListQuery = z.infer<typeof ordersListQuery>;

/**
 * One order of the user's trades, with its trade's account, bot and status. `cancellable`: the order is a
 * trade's entry still resting unfilled, so cancelling the trade (`POST /api/trades/{tradeId}/complete`,
 * which cancels resting orders first and sells nothing when nothing was bought) cancels just this order.
 * Any other order (a take-profit, an exit, a partly filled entry) belongs to a position and is steered from
 * its trade.
 */
export const userOrderSchema = z.object({
  id: z.string(),
  tradeId: z.string(),
  tradeStatus: z.enum(TRADE_STATUSES),
  botId: z.string().nullable(),
  botName: z.string().nullable(),
  tradingAccountId: z.string(),
  accountName: z.string(),
  sandbox: z.boolean(),
  symbol: z.string(),
  /** `entry`, `tp1`…, `exit`, `stop`… */
  role: z.string(),
  side: z.enum(['buy', 'sell']),
  type: z.enum(['market', 'limit']),
  price: z.string().nullable(),
  amount: z.string(),
  filled: z.string(),
  /** filled ÷ amount × 100, two decimals. */
  filledPercent: z.string(),
  status: z.enum(ORDER_STATES),
  ...orderErrorShape,
  createdAt: z.string(),
  updatedAt: z.string(),
  cancellable: z.boolean(),
});
export type UserOrder = z.infer<typeof userOrderSchema>;
