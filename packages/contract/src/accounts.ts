import { z } from 'zod';
import { typedPositiveDecimal } from './decimal';
import { apiParamsSchema } from './envelope';
import { MAX_PAPER_BALANCE, VALIDATION_MESSAGES } from './validation';

const M = VALIDATION_MESSAGES;

export const exchangeIdSchema = z
  .string({ error: M.required })
  .trim()
  .min(1, M.required)
  .max(40)
  .regex(/^[a-z0-9]+$/, 'Unknown exchange')
  .transform((s) => s.toLowerCase());

/** DESIGN §4: `{ nickname, exchange, apiKey, apiSecret, passphrase?, sandbox? }`; paper needs no keys. */
export const tradingAccountCreateBody = z
  .object({
    nickname: z.string({ error: M.required }).trim().min(1, M.required).max(60),
    exchange: exchangeIdSchema,
    marketType: z.enum(['spot', 'future']).default('spot'),
    apiKey: z.string().trim().max(512).optional(),
    apiSecret: z.string().trim().max(1024).optional(),
    passphrase: z.string().trim().max(256).optional(),
    sandbox: z.boolean().default(false),
    /**
     * Issue 20: where the venue does not say whether the key can withdraw, the user confirms they made sure it
     * cannot (else 422 `WITHDRAW_PERMISSION_UNKNOWN`); the confirmation is kept on the account and in the audit log.
     */
    withdrawRiskAcknowledged: z.boolean().optional(),
    /** Paper accounts only: the simulated starting balance in USDT (default 10,000). */
    startingBalance: typedPositiveDecimal(M.startingBalance, MAX_PAPER_BALANCE).optional(),
  })
  .refine((b) => b.exchange === 'paper' || (b.apiKey && b.apiSecret), {
    message: 'API key and API secret are required for a real exchange',
    path: ['apiKey'],
  });

export const tradingAccountUpdateBody = z.object({
  nickname: z.string().trim().min(1, M.required).max(60).optional(),
  sandbox: z.boolean().optional(),
  /** Key rotation: both parts together. */
  apiKey: z.string().trim().min(1).max(512).optional(),
  apiSecret: z.string().trim().min(1).max(1024).optional(),
  passphrase: z.string().trim().max(256).optional(),
  /** As on create: a new key whose withdraw permission the venue does not report needs it. */
  withdrawRiskAcknowledged: z.boolean().optional(),
});

export const tradingAccountSchema = z.object({
  id: z.string(),
  nickname: z.string(),
  exchange: z.string(),
  marketType: z.enum(['spot', 'future']),
  sandbox: z.boolean(),
  /** `abcd…wxyz` — the key itself is never returned. */
  apiKeyMask: z.string().nullable(),
  usdtBalance: z.string(),
  balanceUpdatedAt: z.string().nullable(),
  status: z.enum(['active', 'error']),
  /** Why the last balance refresh failed: in English, as the server built it. */
  lastError: z.string().nullable(),
  /**
   * Its code and params (`API_MESSAGES`), from which the web says it in the user's language (issue 21); absent
   * or null on a text written before errors carried them (the web then shows `lastError`).
   */
  lastErrorCode: z.string().nullable().optional(),
  lastErrorParams: apiParamsSchema.nullable().optional(),
  /**
   * Issue 20: when the user acknowledged that the venue does not report whether this key can withdraw (and that
   * they made sure it cannot); null for a key whose permission the venue reported.
   */
  withdrawRiskAcknowledgedAt: z.string().nullable(),
  botCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TradingAccount = z.infer<typeof tradingAccountSchema>;

export const botsDistributionSchema = z.object({
  accountId: z.string(),
  usdtBalance: z.string(),
  allocatedPercent: z.string(),
  availablePercent: z.string(),
  bots: z.array(
    z.object({
      botId: z.string(),
      nickname: z.string(),
      portfolioPercent: z.string().nullable(),
      fixedAmount: z.string().nullable(),
      isActive: z.boolean(),
    }),
  ),
});

export const accountDeleteQuery = z.object({
  /** What happens to the account's bots: refuse (default) or delete them with it. */
  bots: z.enum(['refuse', 'delete']).default('refuse'),
});

/**
 * A venue's test environment: a `testnet` (its own network, its own keys) or `demo` trading (the live
 * venue's simulated-funds mode, with demo keys). Either way an account with `sandbox` moves no real funds.
 */
export const SANDBOX_KINDS = ['testnet', 'demo'] as const;
export type SandboxKind = (typeof SANDBOX_KINDS)[number];
const sandboxKindSchema = z.enum(SANDBOX_KINDS);

export const exchangeListSchema = z.array(
  z.object({
    id: z.string(),
    name: z.string(),
    marketTypes: z.array(z.enum(['spot', 'future'])),
    /** Has a testnet or demo environment for at least one market type. */
    sandbox: z.boolean(),
    /** The market types an account may be connected in sandbox (testnet or demo) for. */
    sandboxMarketTypes: z.array(z.enum(['spot', 'future'])),
    /** Which kind of environment each of `sandboxMarketTypes` has. */
    sandboxKind: z.object({ spot: sandboxKindSchema.optional(), future: sandboxKindSchema.optional() }),
    needsPassphrase: z.boolean(),
  }),
);

// ─── market data ────────────────────────────────────────────────────────────────────────────────
export const marketQuery = z.object({ accountId: z.string().uuid().optional() });
export const candlesQuery = marketQuery.extend({
  timeframe: z
    .enum(['1m', '3m', '5m', '15m', '30m', '1h', '2h', '4h', '6h', '12h', '1d', '1w'])
    .default('1h'),
  limit: z.coerce.number().int().min(1).max(1000).default(200),
});
export const symbolParams = z.object({
  symbol: z
    .string()
    .regex(/^[A-Za-z0-9]{1,15}-[A-Za-z0-9]{1,15}$/, 'Market not found: write symbols as BTC-USDT')
    .transform((s) => s.toUpperCase().replace('-', '/')),
});

const dec = z.string();
export const marketSchema = z.object({
  symbol: z.string(),
  base: z.string(),
  quote: z.string(),
  type: z.enum(['spot', 'swap']),
  amountStep: dec.nullable(),
  priceTick: dec.nullable(),
  minAmount: dec.nullable(),
  minNotional: dec.nullable(),
  active: z.boolean(),
});
export const tickerSchema = z.object({
  symbol: z.string(),
  last: dec.nullable(),
  bid: dec.nullable(),
  ask: dec.nullable(),
  high: dec.nullable(),
  low: dec.nullable(),
  open: dec.nullable(),
  changePercent: dec.nullable(),
  baseVolume: dec.nullable(),
  quoteVolume: dec.nullable(),
  timestamp: z.number(),
});
export const orderBookSchema = z.object({
  symbol: z.string(),
  bids: z.array(z.tuple([dec, dec])),
  asks: z.array(z.tuple([dec, dec])),
  timestamp: z.number(),
});
export const candleSchema = z.object({
  time: z.number(),
  open: dec,
  high: dec,
  low: dec,
  close: dec,
  volume: dec,
});
