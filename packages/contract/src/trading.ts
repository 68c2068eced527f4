import { z } from 'zod';
import { fitsLedger, numberToDecimal, typedPositiveDecimal } from './decimal';
import { pagingQuery } from './envelope';

/** Decimals travel as strings (money is never a float); input may be a number or a numeric string. */
export const decimalString = z.string().regex(/^-?\d+(\.\d+)?$/);
export const decimalInput = z
  .union([
    z.number().finite(),
    z
      .string()
      .trim()
      .regex(/^-?\d+(\.\d+)?$/, 'Please enter a valid amount'),
  ])
  .transform((v) => (typeof v === 'number' ? numberToDecimal(v) : v))
  .refine(fitsLedger, 'Please enter a valid amount');
const positiveDecimal = (message: string) => decimalInput.refine((v) => Number(v) > 0, message);

// ─── trading accounts ───────────────────────────────────────────────────────────────────────────
export const tradingAccountSummarySchema = z.object({
  id: z.string(),
  nickname: z.string(),
  exchange: z.string(),
  usdtBalance: z.string(),
});

// ─── strategies ─────────────────────────────────────────────────────────────────────────────────
export const takeProfitStepSchema = z.object({
  role: z
    .string()
    .regex(/^tp\d{1,2}$/)
    .optional(),
  percent: positiveDecimal('Take-profit distance must be above 0'),
  sizePercent: positiveDecimal('Take-profit size must be above 0'),
});

const strategyKeySchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{2,63}$/, 'Use 3–64 letters, digits, "-" or "_"');
const currencyCode = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9]{2,12}$/, 'Please enter a currency code such as BTC')
  .transform((s) => s.toUpperCase());
export const timeFrameSchema = z.enum([
  '1m',
  '3m',
  '5m',
  '15m',
  '30m',
  '1h',
  '2h',
  '4h',
  '6h',
  '12h',
  '1d',
  '1w',
]);
export const strategyStatusSchema = z.enum(['active', 'paused', 'retired']);

export const strategyCreateBody = z.object({
  nickname: z.string({ error: 'This field is required' }).trim().min(1, 'This field is required').max(80),
  strategyKey: strategyKeySchema.optional(),
  tradeCurrency: currencyCode,
  stableCoin: currencyCode.default('USDT'),
  timeFrame: timeFrameSchema,
  status: strategyStatusSchema.default('active'),
  takeProfits: z
    .array(takeProfitStepSchema)
    .max(10)
    .default([])
    .refine((tps) => tps.reduce((s, tp) => s + Number(tp.sizePercent), 0) <= 100.000001, {
      message: 'Take-profit sizes add up to more than 100%',
    }),
  stopLossPercent: positiveDecimal('Stop-loss must be above 0').nullable().optional(),
  breakEvenAfterTp1: z.boolean().default(true),
  maxLagSeconds: z.number().int().min(5).max(86_400).default(300),
});
export const strategyUpdateBody = strategyCreateBody
  .partial()
  .extend({ rotateWebhookSecret: z.boolean().optional() });

export const strategySchema = z.object({
  id: z.string(),
  nickname: z.string(),
  strategyKey: z.string(),
  tradeCurrency: z.string(),
  stableCoin: z.string(),
  timeFrame: z.string(),
  status: strategyStatusSchema,
  takeProfits: z.array(z.object({ role: z.string(), percent: z.string(), sizePercent: z.string() })),
  stopLossPercent: z.string().nullable(),
  breakEvenAfterTp1: z.boolean(),
  maxLagSeconds: z.number(),
  isPublic: z.boolean(),
  isOwner: z.boolean(),
  /** Only for the owner. */
  webhookSecret: z.string().optional(),
  webhookUrl: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Strategy = z.infer<typeof strategySchema>;

// ─── webhooks ───────────────────────────────────────────────────────────────────────────────────
export const signalActionSchema = z.enum(['long', 'short', 'exit', 'buy', 'sell', 'close']).or(
  z
    .string()
    .transform((s) => s.toLowerCase())
    .pipe(z.enum(['long', 'short', 'exit', 'buy', 'sell', 'close'])),
);

export const webhookBody = z.object({
  strategyKey: z.string().trim().min(1).max(64).optional(),
  secret: z.string({ error: 'secret is required' }).min(1, 'secret is required').max(200),
  action: signalActionSchema,
  symbol: z.string().trim().min(3).max(40).optional(),
  price: typedPositiveDecimal('price must be a positive number').optional(),
  timestamp: z.union([z.number().int().positive(), z.string().min(1).max(40)]).optional(),
  id: z.union([z.string().min(1).max(128), z.number()]).optional(),
});
export type WebhookBody = z.infer<typeof webhookBody>;

export const webhookAck = z.object({
  success: z.literal(true),
  results: z.object({ alertId: z.string(), status: z.string(), duplicate: z.boolean() }),
});

// ─── bots ───────────────────────────────────────────────────────────────────────────────────────
export const botPositionSchema = z.enum(['long', 'short', 'out']);

/** Spec §3: bot fields arrive in snake_case or camelCase; both map to camelCase here. */
const SNAKE_TO_CAMEL: Record<string, string> = {
  is_active: 'isActive',
  trade_currency: 'tradeCurrency',
  stable_coin: 'stableCoin',
  portfolio_percent: 'portfolioPercent',
  fixed_amount: 'fixedAmount',
  leverage_percent: 'leveragePercent',
  monthly_goal_percent: 'monthlyGoalPercent',
  strategy_id: 'strategyId',
  trading_account_id: 'tradingAccountId',
  close_position: 'closePosition',
};
export function camelizeBotInput(input: unknown): unknown {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return input;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(input)) out[SNAKE_TO_CAMEL[k] ?? k] = v;
  return out;
}

const nullablePercent = (max: number, message: string) =>
  decimalInput
    .refine((v) => Number(v) >= 0 && Number(v) <= max, message)
    .nullable()
    .optional();

/** Without defaults: an update changes only the fields it sends (a toggle sends `{is_active}` alone). */
const botFields = z.object({
  nickname: z.string().trim().min(1, 'This field is required').max(80),
  isActive: z.boolean(),
  strategyId: z.string({ error: 'This field is required' }).uuid('Please choose a strategy'),
  tradingAccountId: z.string({ error: 'This field is required' }).uuid('Please choose a trading account'),
  tradeCurrency: currencyCode.optional(),
  stableCoin: currencyCode.optional(),
  portfolioPercent: nullablePercent(100, 'Portfolio share must be between 0 and 100%'),
  fixedAmount: decimalInput
    .refine((v) => Number(v) >= 0, 'Please enter a valid amount')
    .nullable()
    .optional(),
  leveragePercent: decimalInput.refine(
    (v) => Number(v) >= 1 && Number(v) <= 12_500,
    'Leverage must be between 1% and 12500%',
  ),
  monthlyGoalPercent: nullablePercent(10_000, 'Monthly goal must be between 0 and 10000%'),
});

const needsSizing = (b: { fixedAmount?: string | null; portfolioPercent?: string | null }) =>
  Number(b.fixedAmount ?? 0) > 0 || Number(b.portfolioPercent ?? 0) > 0;

export const botCreateBody = z.preprocess(
  camelizeBotInput,
  botFields
    .extend({
      nickname: botFields.shape.nickname.default('Bot'),
      isActive: botFields.shape.isActive.default(false),
      leveragePercent: botFields.shape.leveragePercent.default('100'),
    })
    .refine(needsSizing, {
      message: 'Set a fixed amount or a portfolio percentage',
      path: ['fixedAmount'],
    }),
);
export const botUpdateBody = z.preprocess(
  camelizeBotInput,
  botFields.partial().omit({ tradingAccountId: true }).extend({
    tradingAccountId: z.string().uuid().optional(),
  }),
);
export const botStopBody = z
  .preprocess(camelizeBotInput, z.object({ closePosition: z.boolean().default(true) }))
  .optional();

export const botSchema = z.object({
  id: z.string(),
  nickname: z.string(),
  isActive: z.boolean(),
  isTrading: z.boolean(),
  tradeCurrency: z.string(),
  stableCoin: z.string(),
  portfolioPercent: z.string().nullable(),
  fixedAmount: z.string().nullable(),
  leveragePercent: z.string(),
  monthlyGoalPercent: z.string().nullable(),
  goalAccumulatedProfitPercent: z.string(),
  position: botPositionSchema,
  strategy: z.object({
    id: z.string(),
    nickname: z.string(),
    strategyKey: z.string(),
    tradeCurrency: z.string(),
    timeFrame: z.string(),
  }),
  tradingAccount: tradingAccountSummarySchema,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Bot = z.infer<typeof botSchema>;

// ─── trades (as listed on a bot) ────────────────────────────────────────────────────────────────
export const tradeRowSchema = z.object({
  id: z.string(),
  botId: z.string().nullable(),
  tradingAccountId: z.string(),
  symbol: z.string(),
  side: z.enum(['long', 'short']),
  status: z.enum(['open', 'closing', 'closed', 'cancelled', 'error']),
  quantity: z.string(),
  entryPrice: z.string().nullable(),
  exitPrice: z.string().nullable(),
  pnl: z.string().nullable(),
  pnlPercent: z.string().nullable(),
  commission: z.string(),
  durationMs: z.number().nullable(),
  openedAt: z.string(),
  closedAt: z.string().nullable(),
  closeReason: z.string().nullable(),
  error: z.string().nullable(),
});
export type TradeRow = z.infer<typeof tradeRowSchema>;

export const botTradesQuery = z.object(pagingQuery(50, 500));
