import { z } from 'zod';
import { typedPositiveDecimal } from './decimal';
import { apiParamsSchema, pagingQuery } from './envelope';
import { orderErrorShape } from './orders';
import { ORDER_STATES, TRADE_STATUSES } from './states';
import { MAX_TAKE_PROFITS, TAKE_PROFIT_ROLE, takeProfitSizesFit, tradeRowSchema } from './trading';

const REQUIRED = 'This field is required';

const tradeStatusSchema = z.enum(TRADE_STATUSES);

/** Accepts the snake_case spellings the spec's clients send (`bot_id`) next to camelCase. */
function aliases(map: Record<string, string>) {
  return (input: unknown): unknown => {
    if (!input || typeof input !== 'object' || Array.isArray(input)) return input;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(input)) out[map[k] ?? k] = v;
    return out;
  };
}

const isDate = (v: string) => !Number.isNaN(new Date(/^\d+$/.test(v) ? Number(v) : v).getTime());
const dateQuery = z.string().trim().refine(isDate, 'Please enter a valid date').optional();

// ─── list ───────────────────────────────────────────────────────────────────────────────────────
/** `GET /api/trades`: the spec sends the bot as `bot_id`; camelCase is accepted too. Dates: ISO or epoch ms. */
export const tradesListQuery = z.object({
  bot_id: z.string().uuid('Bot not found').optional(),
  botId: z.string().uuid('Bot not found').optional(),
  account_id: z.string().uuid('Trading account not found').optional(),
  accountId: z.string().uuid('Trading account not found').optional(),
  symbol: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9]+[/-][A-Za-z0-9]+$/, 'Please choose a market such as BTC/USDT')
    .transform((s) => s.replace('-', '/').toUpperCase())
    .optional(),
  status: tradeStatusSchema.optional(),
  from: dateQuery,
  to: dateQuery,
  ...pagingQuery(50, 500),
});
export type TradesListQuery = z.infer<typeof tradesListQuery>;

// ─── detail ─────────────────────────────────────────────────────────────────────────────────────
export const takeProfitLevelStatusSchema = z.enum([
  'waiting',
  'placed',
  'partially_filled',
  'filled',
  'cancelled',
]);

/** One level of a trade's take-profit ladder as the user sees it (TradeDetail). */
export const ladderLevelSchema = z.object({
  role: z.string(),
  /** `TP1`: the `{name}` of the push messages. */
  name: z.string(),
  percent: z.string(),
  sizePercent: z.string(),
  status: takeProfitLevelStatusSchema,
  /** Limit price of the resting order; null until placed (or the fill price of a pushed level). */
  price: z.string().nullable(),
  amount: z.string().nullable(),
  filled: z.string(),
  /** Venue order id of the level's current order. */
  orderId: z.string().nullable(),
  clientOrderId: z.string().nullable(),
  /** True when the level was pushed to market. */
  pushed: z.boolean(),
  /** Whether `PUT /push-to-take-profit` would accept this level now. */
  pushable: z.boolean(),
  /**
   * A pushable level: the result of pushing it to market now (its unfilled amount at the last price, less the
   * estimated taker fee), in quote; absent or null otherwise.
   */
  estimatedPushPnl: z.string().nullable().optional(),
});
export type LadderLevel = z.infer<typeof ladderLevelSchema>;

/**
 * What an order of a trade is for, beside its take-profit levels (`tp1`, `tp2`, …: `TAKE_PROFIT_ROLE`): the
 * entry, an exit (a signal, by hand, a bot's stop), the stop-loss's exit, and a close the venue made outside
 * Kairos — by hand on the venue (`venue-close`) or its liquidation (`liquidation`), booked by the server's
 * position check. Every screen names each of them (the web's role labels are checked against this list).
 */
export const ORDER_ROLES = ['entry', 'exit', 'stop', 'venue-close', 'liquidation'] as const;
export type OrderRole = (typeof ORDER_ROLES)[number];
/** A take-profit level's role (`tp1`, `tp2`, …), declared beside the strategies' take-profit steps. */
export { TAKE_PROFIT_ROLE };

/**
 * Why a trade ended (`trades.close_reason`, the trade's `closeReason`), as the server writes it: its take-profits
 * ('take profit') or exits nobody named ('closed'), the stop-loss, the user's "complete" ('manual close'), a
 * bot's stop, trade control ('admin close'), an alert (`signal ${action}`, for each action an alert is stored
 * with), and the venue's own close or liquidation (the position check). The strings are the stored ones: the
 * server's writes are typed over this list and every screen names each of them (the web's labels are checked
 * against it).
 */
export const CLOSE_REASONS = [
  'take profit',
  'closed',
  'stop loss',
  'manual close',
  'bot stopped',
  'admin close',
  'signal long',
  'signal short',
  'signal exit',
  'closed on venue',
  'liquidation',
] as const;
export type CloseReason = (typeof CLOSE_REASONS)[number];

export const tradeOrderSchema = z.object({
  id: z.string(),
  role: z.string(),
  clientOrderId: z.string(),
  venueOrderId: z.string().nullable(),
  side: z.enum(['buy', 'sell']),
  type: z.enum(['market', 'limit']),
  reduceOnly: z.boolean(),
  price: z.string().nullable(),
  amount: z.string(),
  filled: z.string(),
  average: z.string().nullable(),
  status: z.enum(ORDER_STATES),
  /** Why it is not as it was sent: see `orderErrorShape`. */
  ...orderErrorShape,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TradeOrder = z.infer<typeof tradeOrderSchema>;

export const tradeFillSchema = z.object({
  id: z.string(),
  orderId: z.string(),
  role: z.string(),
  side: z.enum(['buy', 'sell']),
  venueTradeId: z.string(),
  price: z.string(),
  amount: z.string(),
  fee: z.string(),
  feeCurrency: z.string().nullable(),
  at: z.string(),
});
export type TradeFill = z.infer<typeof tradeFillSchema>;

/** Orders placed and fills received, oldest first: the TradeDetail timeline. */
export const tradeTimelineEntrySchema = z.object({
  at: z.string(),
  kind: z.enum(['order', 'fill']),
  role: z.string(),
  side: z.enum(['buy', 'sell']),
  orderId: z.string(),
  /** Order: its current status; fill: 'filled'. */
  status: z.string(),
  price: z.string().nullable(),
  amount: z.string(),
});

export const takeProfitPlanSchema = z.object({
  role: z.string(),
  percent: z.string(),
  sizePercent: z.string(),
});

export const tradeSchema = tradeRowSchema.extend({
  strategyId: z.string().nullable(),
  alertId: z.string().nullable(),
  takeProfits: z.array(takeProfitPlanSchema),
  stopLossPercent: z.string().nullable(),
  stopLossPrice: z.string().nullable(),
  breakEvenAfterTp1: z.boolean(),
  stopMovedToBreakEven: z.boolean(),
  /** Base quantity still held (entry − exits − base-currency fees). */
  openQuantity: z.string(),
});
export type Trade = z.infer<typeof tradeSchema>;

/**
 * Where an open trade's stop-loss lives (issue 18): `venue`, a stop order resting on the exchange at the trade's
 * stop price (it protects the position while Kairos is down); `kairos`, the stop price watched by Kairos every
 * second (the venue has no stop orders, or refused this one, or it is being replaced); `none`, the trade holds
 * something and has no stop price: nothing protects it.
 */
export const STOP_PROTECTIONS = ['venue', 'kairos', 'none'] as const;

export const tradeProtectionSchema = z.object({
  where: z.enum(STOP_PROTECTIONS),
  /** The venue's id of the resting stop order (`venue` only). */
  venueOrderId: z.string().nullable(),
  /** The stop's trigger price: the resting order's (`venue`) or the watched price (`kairos`); null for `none`. */
  triggerPrice: z.string().nullable(),
  /** When Kairos learnt the stop rests on the venue (ISO-8601; `venue` only). */
  since: z.string().nullable(),
  /** The venue refused the latest placement of this stop, so Kairos watches it alone (`kairos` only). */
  venueRefused: z.boolean(),
});
export type TradeProtection = z.infer<typeof tradeProtectionSchema>;

export const tradeDetailSchema = z.object({
  trade: tradeSchema,
  /** Where the stop lives; null when there is nothing to protect (not open, or nothing held yet). */
  protection: tradeProtectionSchema.nullable(),
  ladder: z.array(ladderLevelSchema),
  orders: z.array(tradeOrderSchema),
  fills: z.array(tradeFillSchema),
  timeline: z.array(tradeTimelineEntrySchema),
});
export type TradeDetail = z.infer<typeof tradeDetailSchema>;

// ─── create / update ────────────────────────────────────────────────────────────────────────────
const takeProfitInput = z.object({
  role: z
    .string()
    .trim()
    .toLowerCase()
    .regex(TAKE_PROFIT_ROLE, 'Take-profit roles are tp1, tp2, …')
    .optional(),
  percent: typedPositiveDecimal('Take-profit distance must be above 0'),
  sizePercent: typedPositiveDecimal('Take-profit size must be above 0'),
});

const takeProfitsInput = z
  .array(takeProfitInput)
  .max(MAX_TAKE_PROFITS, `At most ${MAX_TAKE_PROFITS} take-profit levels`)
  .refine(takeProfitSizesFit, { message: 'Take-profit sizes add up to more than 100%' })
  .refine(
    (tps) => new Set(tps.map((tp) => tp.role).filter(Boolean)).size === tps.filter((tp) => tp.role).length,
    {
      message: 'Each take-profit role may appear once',
    },
  );

const stopLossPercentInput = typedPositiveDecimal('Stop-loss must be above 0')
  .refine((v) => Number(v) < 100, 'Stop-loss must be below 100%')
  .nullable();

/** `POST /api/trades`: a manual trade (no bot). `amount` is the base quantity; no `price` means market. */
export const tradeCreateBody = z.preprocess(
  aliases({
    account_id: 'accountId',
    trading_account_id: 'accountId',
    tradingAccountId: 'accountId',
    take_profits: 'takeProfits',
    stop_loss_percent: 'stopLossPercent',
    break_even_after_tp1: 'breakEvenAfterTp1',
  }),
  z.object({
    accountId: z.string({ error: REQUIRED }).uuid('Please choose a trading account'),
    symbol: z
      .string({ error: REQUIRED })
      .trim()
      .regex(/^[A-Za-z0-9]+[/-][A-Za-z0-9]+$/, 'Please choose a market such as BTC/USDT')
      .transform((s) => s.replace('-', '/').toUpperCase()),
    side: z.enum(['long', 'short'], { error: 'Please choose long or short' }),
    amount: typedPositiveDecimal('Please enter a valid amount'),
    price: typedPositiveDecimal('Please enter a valid price').nullable().optional(),
    takeProfits: takeProfitsInput.default([]),
    stopLossPercent: stopLossPercentInput.optional(),
    breakEvenAfterTp1: z.boolean().default(true),
  }),
);
export type TradeCreateBody = z.infer<typeof tradeCreateBody>;

/**
 * `PUT /api/trades/{id}`: the stop (as a percent from the entry or a price; null removes it) and the
 * take-profit plan of an open trade. A new plan replaces the levels not filled yet.
 */
export const tradeUpdateBody = z
  .preprocess(
    aliases({
      take_profits: 'takeProfits',
      stop_loss_percent: 'stopLossPercent',
      stop_loss_price: 'stopLossPrice',
      break_even_after_tp1: 'breakEvenAfterTp1',
    }),
    z.object({
      stopLossPercent: stopLossPercentInput.optional(),
      stopLossPrice: typedPositiveDecimal('Please enter a valid price').nullable().optional(),
      takeProfits: takeProfitsInput.optional(),
      breakEvenAfterTp1: z.boolean().optional(),
    }),
  )
  .refine((b) => Object.values(b).some((v) => v !== undefined), { message: 'Nothing to change' })
  .refine((b) => b.stopLossPercent === undefined || b.stopLossPrice === undefined, {
    message: 'Give the stop-loss as a percent or as a price, not both',
    path: ['stopLossPrice'],
  });
export type TradeUpdateBody = z.infer<typeof tradeUpdateBody>;

// ─── complete ───────────────────────────────────────────────────────────────────────────────────
/** Whether and how a trade was completed (`GET/POST /api/trades/{id}/complete`). */
export const tradeCompletionSchema = z.object({
  tradeId: z.string(),
  completed: z.boolean(),
  status: tradeStatusSchema,
  closeReason: z.string().nullable(),
  closedAt: z.string().nullable(),
  exitPrice: z.string().nullable(),
  pnl: z.string().nullable(),
  pnlPercent: z.string().nullable(),
  /** The market exit order sent by "complete", if any. */
  order: tradeOrderSchema.nullable(),
});
export type TradeCompletion = z.infer<typeof tradeCompletionSchema>;

// ─── push to take profit ────────────────────────────────────────────────────────────────────────
/** `PUT /push-to-take-profit` (spec §7). `userId`/`botId` must match the session and the trade. */
export const pushTakeProfitBody = z.object({
  tradeId: z.string({ error: REQUIRED }).uuid('tradeId must be a trade id'),
  takeProfitRole: z
    .string({ error: REQUIRED })
    .trim()
    .toLowerCase()
    .regex(TAKE_PROFIT_ROLE, 'takeProfitRole must be tp1, tp2, …'),
  botId: z.string().uuid('botId must be a bot id').nullable().optional(),
  userId: z.union([z.string(), z.number()]).transform(String).nullable().optional(),
  test: z.boolean().default(false),
});
export type PushTakeProfitBody = z.infer<typeof pushTakeProfitBody>;

export const pushTakeProfitResultSchema = z.object({
  tradeId: z.string(),
  takeProfitRole: z.string(),
  name: z.string(),
  test: z.boolean(),
  /** The market order's venue id (null for a test). */
  orderId: z.string().nullable(),
  clientOrderId: z.string().nullable(),
  status: z.string().nullable(),
  /** Base quantity sent to market (for a test: what would be). */
  amount: z.string(),
  filled: z.string().nullable(),
  average: z.string().nullable(),
});

export const pushTakeProfitResponse = z.object({
  success: z.literal(true),
  results: pushTakeProfitResultSchema,
  message: z.string(),
  /** TAKE_PROFIT_PUSHED, or TAKE_PROFIT_PUSHABLE for a test: with `params`, the message in any language. */
  code: z.enum(['TAKE_PROFIT_PUSHED', 'TAKE_PROFIT_PUSHABLE']),
  params: apiParamsSchema,
});
export type PushTakeProfitResponse = z.infer<typeof pushTakeProfitResponse>;
