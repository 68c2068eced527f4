import { z } from 'zod';
import { openTradeMarkShape } from './trading';

export const DASHBOARD_SECTIONS = [
  'equityCurve',
  'dailyPnl',
  'balanceByAccount',
  'capitalByBot',
  'metrics',
  'openPositions',
  'equity',
] as const;
export type DashboardSection = (typeof DASHBOARD_SECTIONS)[number];

/** `YYYY-MM-DD` (a day in the user's time zone) or a full ISO-8601 instant. */
const dateOrInstant = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/, 'Use a date like 2026-01-31')
  .refine(
    (s) => !Number.isNaN(new Date(s.length === 10 ? `${s}T00:00:00Z` : s).getTime()),
    'Use a date like 2026-01-31',
  );

export const dashboardQuery = z.object({
  from: dateOrInstant.optional(),
  to: dateOrInstant.optional(),
  accountId: z.string().uuid('Trading account not found').optional(),
  botId: z.string().uuid('Bot not found').optional(),
  include: z
    .string()
    .optional()
    .transform((s) =>
      s
        ? s
            .split(',')
            .map((x) => x.trim())
            .filter(Boolean)
        : [...DASHBOARD_SECTIONS],
    )
    .pipe(z.array(z.enum(DASHBOARD_SECTIONS, { message: `include takes ${DASHBOARD_SECTIONS.join(', ')}` }))),
  topN: z.coerce.number().int().min(1).max(50).default(5),
});

const money = z.string();
export const currencyInfoSchema = z.object({
  currency: z.enum(['USD', 'EUR']),
  /** True when amounts were converted from USDT at `rate` (EUR per USDT). */
  converted: z.boolean(),
  rate: z.string().nullable(),
  rateSource: z.string().nullable(),
});

/**
 * The user's open trades that hold something and are not protected as they should be (issue 18), over every
 * account and bot whatever the dashboard's filters and range: always sent, it is a warning, not a figure.
 */
export const openTradeProtectionSchema = z.object({
  /** Open trades holding something with no stop price: nothing protects them. */
  unprotected: z.number().int(),
  /**
   * Open trades holding something whose stop the venue refused (its latest placement rejected, none resting at the
   * stop price): Kairos alone watches them.
   */
  venueStopRefused: z.number().int(),
});

export const dashboardSchema = z.object({
  range: z.object({ from: z.string(), to: z.string(), timezone: z.string() }),
  currency: currencyInfoSchema,
  protection: openTradeProtectionSchema,
  /**
   * "Total equity (est.)" (issue 21), the one total the dashboard and Portfolio show: every asset of the user's
   * accounts (or the filtered one) at its USDT market's last price, read from the venues now; "available" the
   * dollar coins free to spend. `unread`: accounts whose venue could not answer (left out). Not for a bot.
   */
  equity: z.object({ total: money, available: money, unread: z.number().int() }).optional(),
  metrics: z
    .object({
      netPnl: money,
      pnlPercent: z.string().nullable(),
      winRate: z.string().nullable(),
      closedTrades: z.number().int(),
    })
    .optional(),
  equityCurve: z
    .object({
      kind: z.enum(['equity', 'cumulativePnl']),
      points: z.array(z.object({ date: z.string(), value: money })),
    })
    .optional(),
  dailyPnl: z.array(z.object({ date: z.string(), pnl: money, trades: z.number().int() })).optional(),
  balanceByAccount: z
    .array(
      z.object({
        accountId: z.string(),
        nickname: z.string(),
        exchange: z.string(),
        /** A testnet or demo-trading account: its balance is not real money. */
        sandbox: z.boolean(),
        balance: money,
      }),
    )
    .optional(),
  capitalByBot: z
    .array(
      z.object({
        botId: z.string(),
        nickname: z.string(),
        /** The bot trades on a testnet or demo-trading account. */
        sandbox: z.boolean(),
        deployed: money,
        openTrades: z.number().int(),
      }),
    )
    .optional(),
  /**
   * The user's open trades holding something (issue 21), within the account and bot filters, newest first, each
   * marked at its venue's last price; amounts in the symbol's quote currency, never converted.
   */
  openPositions: z
    .array(
      z.object({
        tradeId: z.string(),
        botId: z.string().nullable(),
        botNickname: z.string().nullable(),
        accountId: z.string(),
        accountNickname: z.string(),
        /** A testnet or demo-trading account: not real money. */
        sandbox: z.boolean(),
        symbol: z.string(),
        side: z.enum(['long', 'short']),
        /** Base quantity still held. */
        quantity: z.string(),
        entryPrice: z.string().nullable(),
        openedAt: z.string(),
        ...openTradeMarkShape,
      }),
    )
    .optional(),
});
export type Dashboard = z.infer<typeof dashboardSchema>;

export const portfolioSchema = z.object({
  currency: currencyInfoSchema,
  /** "Total equity (est.)": the dashboard's `equity.total` (issue 21). */
  totalValue: money,
  /** The dollar coins free to spend, over every account: the dashboard's `equity.available`. */
  available: money,
  holdings: z.array(
    z.object({
      asset: z.string(),
      amount: money,
      value: money,
      share: z.string(),
      accounts: z.array(
        z.object({ accountId: z.string(), nickname: z.string(), sandbox: z.boolean(), amount: money }),
      ),
    }),
  ),
  errors: z.array(
    z.object({ accountId: z.string(), nickname: z.string(), sandbox: z.boolean(), message: z.string() }),
  ),
});

export const PORTFOLIO_PERIODS = ['1d', '7d', '30d', '90d', '1y', 'all'] as const;
export const portfolioHistoryQuery = z.object({ period: z.enum(PORTFOLIO_PERIODS).default('30d') });
export const portfolioHistorySchema = z.object({
  period: z.enum(PORTFOLIO_PERIODS),
  currency: currencyInfoSchema,
  points: z.array(z.object({ time: z.string(), value: money })),
});
