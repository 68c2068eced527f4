import { TAKE_PROFIT_ROLE } from '@kairos/core';
import { z } from 'zod';
import {
  compareDecimals,
  fitsLedger,
  isPlainDecimal,
  numberToDecimal,
  sumDecimals,
  typedPositiveDecimal,
} from './decimal';
import { apiParamsSchema, pagingQuery } from './envelope';
import { decimalText } from './validation';
import { TRADE_STATUSES } from './states';

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
  /** A testnet or demo-trading account: its figures are not real funds. */
  sandbox: z.boolean(),
});

// ─── strategies ─────────────────────────────────────────────────────────────────────────────────
/** A take-profit level's role (`tp1`, `tp2`, …): core's one pattern, for the bodies that take a role. */
export { TAKE_PROFIT_ROLE };

export const takeProfitStepSchema = z.object({
  role: z.string().regex(TAKE_PROFIT_ROLE, 'Take-profit roles are tp1, tp2, …').optional(),
  percent: positiveDecimal('Take-profit distance must be above 0'),
  sizePercent: positiveDecimal('Take-profit size must be above 0'),
});

/** The most take-profit levels a strategy or a trade may have. */
export const MAX_TAKE_PROFITS = 10;
/** The highest leverage a bot may ask for, in percent (125×, Binance USD-M's ceiling). */
export const MAX_LEVERAGE_PERCENT = 12_500;

/**
 * The share of the position a ladder closes, in percent, added exactly (a decimal string). Sizes are read
 * as typed ("12,5" is 12.5); one that is not a decimal counts as 0 (its own field says what is wrong).
 */
export function takeProfitSizeTotal(takeProfits: ReadonlyArray<{ sizePercent: string }>): string {
  return sumDecimals(takeProfits.map((tp) => decimalText(tp.sizePercent)).filter(isPlainDecimal));
}

/** A ladder closes at most the whole position: its sizes add up to 100% or less. */
export function takeProfitSizesFit(takeProfits: ReadonlyArray<{ sizePercent: string }>): boolean {
  return compareDecimals(takeProfitSizeTotal(takeProfits), '100') <= 0;
}

/** A strategy key as webhooks name it: 3–64 letters, digits, "-" or "_", starting with a letter or digit. */
export const STRATEGY_KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{2,63}$/;
/** A currency code such as BTC or USDT. */
export const CURRENCY_CODE_PATTERN = /^[A-Za-z0-9]{2,12}$/;

const strategyKeySchema = z
  .string()
  .trim()
  .regex(STRATEGY_KEY_PATTERN, 'Use 3–64 letters, digits, "-" or "_"');
const currencyCode = z
  .string()
  .trim()
  .regex(CURRENCY_CODE_PATTERN, 'Please enter a currency code such as BTC')
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

/** A strategy's fields as a client may send them, without defaults (see the create and update bodies). */
const strategyFields = {
  nickname: z.string({ error: 'This field is required' }).trim().min(1, 'This field is required').max(80),
  strategyKey: strategyKeySchema.optional(),
  tradeCurrency: currencyCode,
  stableCoin: currencyCode,
  timeFrame: timeFrameSchema,
  status: strategyStatusSchema,
  takeProfits: z
    .array(takeProfitStepSchema)
    .max(MAX_TAKE_PROFITS)
    .refine(takeProfitSizesFit, { message: 'Take-profit sizes add up to more than 100%' }),
  stopLossPercent: positiveDecimal('Stop-loss must be above 0').nullable().optional(),
  breakEvenAfterTp1: z.boolean(),
  maxLagSeconds: z.number().int().min(5).max(86_400),
  /** How far (percent) a signal's price may be from the venue's and still size entries; else the venue's is. */
  priceTolerancePercent: z
    .number({ error: 'Price tolerance must be a number between 0 and 50%' })
    .min(0, 'Price tolerance must be a number between 0 and 50%')
    .max(50, 'Price tolerance must be a number between 0 and 50%'),
  /**
   * Spot stops resting on the venue are stop-limits: once triggered they sell this many percent below the stop
   * (buy above it), so a fast move still fills.
   */
  stopLimitOffsetPercent: z
    .number({ error: 'Stop-limit offset must be a number between 0.05 and 10%' })
    .min(0.05, 'Stop-limit offset must be a number between 0.05 and 10%')
    .max(10, 'Stop-limit offset must be a number between 0.05 and 10%'),
};

/** A new strategy: what is left out takes its default. */
export const strategyCreateBody = z.object({
  ...strategyFields,
  stableCoin: strategyFields.stableCoin.default('USDT'),
  status: strategyFields.status.default('active'),
  takeProfits: z
    .array(takeProfitStepSchema)
    .max(MAX_TAKE_PROFITS)
    .default([])
    .refine(takeProfitSizesFit, { message: 'Take-profit sizes add up to more than 100%' }),
  breakEvenAfterTp1: strategyFields.breakEvenAfterTp1.default(true),
  maxLagSeconds: strategyFields.maxLagSeconds.default(300),
  priceTolerancePercent: strategyFields.priceTolerancePercent.default(2),
  stopLimitOffsetPercent: strategyFields.stopLimitOffsetPercent.default(0.5),
});
/**
 * A change: only what is sent changes. Built from the fields without defaults — a partial of the create body
 * would fill every field left out with its default (zod 4 applies defaults under optional), so renaming a
 * strategy reset its ladder to none, its status to active and its max lag, stable coin and tolerance.
 */
export const strategyUpdateBody = z
  .object(strategyFields)
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
  priceTolerancePercent: z.number().default(2),
  stopLimitOffsetPercent: z.number().default(0.5),
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

/** `trading_account_id` → `tradingAccountId`; a camelCase name stays as it is. */
const camelName = (name: string) =>
  name.replace(/_([a-z0-9])/g, (_match, next: string) => next.toUpperCase());

/** Spec §3: bot fields arrive in snake_case or camelCase; both map to camelCase here. */
export function camelizeBotInput(input: unknown): unknown {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return input;
  return Object.fromEntries(Object.entries(input).map(([name, value]) => [camelName(name), value]));
}

const nullablePercent = (max: number, message: string) =>
  decimalInput
    .refine((v) => Number(v) >= 0 && Number(v) <= max, message)
    .nullable()
    .optional();

/** A futures bot's margin mode: isolated (the default: a bot risks only its own margin) or cross. */
export const MARGIN_MODES = ['isolated', 'cross'] as const;
export type MarginMode = (typeof MARGIN_MODES)[number];

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
    (v) => Number(v) >= 1 && Number(v) <= MAX_LEVERAGE_PERCENT,
    `Leverage must be between 1% and ${MAX_LEVERAGE_PERCENT}%`,
  ),
  /** Futures: the margin mode set on the bot's symbol before each entry. */
  marginMode: z.enum(MARGIN_MODES, { error: 'Margin mode must be isolated or cross' }).optional(),
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
  marginMode: z.enum(MARGIN_MODES).default('isolated'),
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
export type BotPosition = Bot['position'];

/** Spec §3: the position is lowercased; long, short or out, and anything else (or none) is out. */
export function readBotPosition(value: unknown): BotPosition {
  const position = typeof value === 'string' ? value.toLowerCase() : 'out';
  return position === 'long' || position === 'short' ? position : 'out';
}

/**
 * A bot as a client reads it (spec §3): in either spelling, its strategy and account too; the position
 * in any case; no nickname reads as 'Bot'. What it gives is a `Bot`.
 */
export const botAnswerSchema = z.preprocess(
  camelizeBotInput,
  botSchema.extend({
    nickname: z
      .string()
      .nullish()
      .transform((nickname) => nickname || 'Bot'),
    position: z.unknown().transform(readBotPosition),
    strategy: z.preprocess(camelizeBotInput, botSchema.shape.strategy),
    tradingAccount: z.preprocess(
      camelizeBotInput,
      tradingAccountSummarySchema.extend({
        // Not in spec §3's shape: an answer without it reads as a live account. Only the client is this lenient:
        // the server's own answers (botSchema) must say it, so a testnet account can never go out unmarked.
        sandbox: z.boolean().default(false),
      }),
    ),
  }),
);

/** Spec §7: the bot list's `results` is an array of bots or an object with `bots`. */
export const botListAnswerSchema = z.union([
  z.array(botAnswerSchema),
  z.object({ bots: z.array(botAnswerSchema) }).transform(({ bots }) => bots),
]);

// ─── trades (as listed on a bot) ────────────────────────────────────────────────────────────────
/**
 * An open trade marked at the venue's last price (issue 21): sent on trades that hold something, absent or null
 * otherwise (and from older servers). Amounts in the symbol's quote currency; the close estimate counts the
 * exit's taker fee at the usual rate (core's `ESTIMATED_TAKER_FEE_RATE`), or at what the entry paid when dearer.
 */
export const openTradeMarkShape = {
  currentPrice: z.string().nullable().optional(),
  /** Price move on the held quantity − fees not yet in the realised PnL + funding. */
  unrealisedPnl: z.string().nullable().optional(),
  /** Of the held quantity's entry notional. */
  unrealisedPnlPercent: z.string().nullable().optional(),
  /** Futures: of the margin (entry notional ÷ the bot's leverage); null on spot. */
  unrealisedPnlMarginPercent: z.string().nullable().optional(),
  /** The result of closing at market now: unrealised − the estimated taker fee. */
  estimatedClosePnl: z.string().nullable().optional(),
};
export const tradeRowSchema = z.object({
  id: z.string(),
  botId: z.string().nullable(),
  tradingAccountId: z.string(),
  symbol: z.string(),
  side: z.enum(['long', 'short']),
  status: z.enum(TRADE_STATUSES),
  quantity: z.string(),
  entryPrice: z.string().nullable(),
  exitPrice: z.string().nullable(),
  pnl: z.string().nullable(),
  pnlPercent: z.string().nullable(),
  /** Futures: the realised PnL as a percent of the margin it tied up (PnL % × leverage); null on spot. */
  pnlMarginPercent: z.string().nullable().optional(),
  /** Futures: the leverage the trade was opened at, in percent (null on spot or unknown). */
  leveragePercent: z.string().nullable().optional(),
  commission: z.string(),
  /** Futures funding booked on the trade (in its PnL): positive received, negative paid. */
  funding: z.string().default('0'),
  durationMs: z.number().nullable(),
  openedAt: z.string(),
  closedAt: z.string().nullable(),
  closeReason: z.string().nullable(),
  /** What went wrong, or a note the server wrote on the trade: in English, as the server built it. */
  error: z.string().nullable(),
  /**
   * The note's code and params (`API_MESSAGES`), from which the web says it in the user's language; absent
   * or null on a text written before notes carried them (the web then shows `error`).
   */
  errorCode: z.string().nullable().optional(),
  errorParams: apiParamsSchema.nullable().optional(),
  ...openTradeMarkShape,
});
export type TradeRow = z.infer<typeof tradeRowSchema>;

export const botTradesQuery = z.object(pagingQuery(50, 500));
