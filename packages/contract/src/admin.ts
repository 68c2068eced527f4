import { z } from 'zod';
import { apiParamsSchema, pagingQuery } from './envelope';
import { ALERT_STATUSES } from './states';
import { TAKE_PROFIT_ROLE } from './trades';
import { CURRENCY_CODE_PATTERN, decimalInput, strategyStatusSchema } from './trading';

// Admin consoles (spec §2, §7): alert monitoring, per-strategy trade control, profit-share billing, audit.

/** A date (`2025-01-31`) or a date-time; a date-only `to` means "to the end of that day". */
const dateOrDateTime = z
  .string()
  .trim()
  .refine((s) => /^\d{4}-\d{2}-\d{2}/.test(s) && !Number.isNaN(Date.parse(s)), 'Please enter a valid date');

/** `skip`/`take` lists (billing, audit): `results` plus `total`, `skip`, `take`. */
export function skipTakeQuery(defaultTake = 50, maxTake = 200) {
  return {
    skip: z.coerce.number().int().min(0).default(0),
    take: z.coerce.number().int().min(1).max(maxTake).default(defaultTake),
  };
}
export function skipTakeSchema<T extends z.ZodType>(item: T) {
  return z.object({
    success: z.literal(true),
    results: z.array(item),
    total: z.number().int(),
    skip: z.number().int(),
    take: z.number().int(),
  });
}

const queryBoolean = z
  .enum(['true', 'false', '1', '0'])
  .transform((v) => v === 'true' || v === '1')
  .or(z.boolean());

// ─── alerts ─────────────────────────────────────────────────────────────────────────────────────
export const alertStatusSchema = z.enum(ALERT_STATUSES);
export type AdminAlertStatus = z.infer<typeof alertStatusSchema>;

export const adminAlertsQuery = z.object({
  ...pagingQuery(25),
  status: alertStatusSchema.optional(),
  strategyKey: z.string().trim().min(1).max(64).optional(),
  from: dateOrDateTime.optional(),
  to: dateOrDateTime.optional(),
});
export type AdminAlertsQuery = z.infer<typeof adminAlertsQuery>;

/** Refused webhooks over the last hours (issue 21): a misconfigured TradingView alert shows here. */
export const adminWebhookRejectionsQuery = z.object({
  hours: z.coerce
    .number({ error: 'Hours must be a whole number from 1 to 168' })
    .int('Hours must be a whole number from 1 to 168')
    .min(1, 'Hours must be a whole number from 1 to 168')
    .max(168, 'Hours must be a whole number from 1 to 168')
    .default(24),
});
export const adminWebhookRejectionSchema = z.object({
  /** As the request named it ('' when it named none). */
  strategyKey: z.string(),
  /** The refusal's code: INVALID_WEBHOOK_SECRET, RATE_LIMITED, VALIDATION_ERROR, STALE_SIGNAL, … */
  reason: z.string(),
  count: z.number().int(),
  lastAt: z.string(),
  lastAddress: z.string().nullable(),
  /** The strategy the key names, when one does. */
  strategyId: z.string().nullable(),
  strategyNickname: z.string().nullable(),
  ownerEmail: z.string().nullable(),
});
export type AdminWebhookRejection = z.infer<typeof adminWebhookRejectionSchema>;

export const alertOutcomeCountsSchema = z.object({
  total: z.number().int(),
  opened: z.number().int(),
  closed: z.number().int(),
  reversed: z.number().int(),
  skipped: z.number().int(),
  failed: z.number().int(),
});

export const adminAlertSchema = z.object({
  id: z.string(),
  strategyId: z.string(),
  strategyKey: z.string(),
  action: z.enum(['long', 'short', 'exit']),
  symbol: z.string(),
  price: z.string().nullable(),
  status: alertStatusSchema,
  attempts: z.number().int(),
  maxAttempts: z.number().int(),
  lastError: z.string().nullable(),
  deadReason: z.string().nullable(),
  receivedAt: z.string(),
  signalAt: z.string().nullable(),
  nextAttemptAt: z.string(),
  finishedAt: z.string().nullable(),
  outcomes: alertOutcomeCountsSchema,
  /** Which admin actions the screen may offer for this status. */
  canMarkDead: z.boolean(),
  canResume: z.boolean(),
});
export type AdminAlert = z.infer<typeof adminAlertSchema>;

export const adminAlertOutcomeSchema = z.object({
  botId: z.string(),
  userId: z.string(),
  userEmail: z.string().nullable(),
  botNickname: z.string().nullable(),
  status: z.enum(['opened', 'closed', 'reversed', 'skipped', 'failed']),
  message: z.string(),
  tradeIds: z.array(z.string()),
  retryable: z.boolean(),
  at: z.string(),
});

export const adminAlertEventSchema = z.object({
  fromStatus: z.string().nullable(),
  toStatus: z.string(),
  /** `webhook`, `worker:<id>`, `system` or `admin:<userId>`. */
  actor: z.string(),
  /** The error of a failed attempt, or the reason an admin gave. */
  note: z.string().nullable(),
  at: z.string(),
});

export const adminAlertDetailSchema = adminAlertSchema.extend({
  /** The signal as received, without its secret. */
  payload: z.record(z.string(), z.unknown()),
  startedAt: z.string().nullable(),
  botOutcomes: z.array(adminAlertOutcomeSchema),
  /** Every error seen: failed attempts and failed bots. */
  errors: z.array(z.object({ at: z.string(), source: z.string(), message: z.string() })),
  history: z.array(adminAlertEventSchema),
});
export type AdminAlertDetail = z.infer<typeof adminAlertDetailSchema>;

export const markAlertDeadBody = z.object({
  reason: z
    .string({ error: 'A reason is required to mark an alert dead' })
    .trim()
    .min(1, 'A reason is required to mark an alert dead')
    .max(500),
});

// ─── trade control ──────────────────────────────────────────────────────────────────────────────
export const tradeControlFiguresSchema = z.object({
  botsTotal: z.number().int(),
  botsActive: z.number().int(),
  activeTrades: z.number().int(),
  openOrders: z.number().int(),
});

export const adminStrategySchema = z.object({
  id: z.string(),
  nickname: z.string(),
  strategyKey: z.string(),
  tradeCurrency: z.string(),
  timeFrame: z.string(),
  status: strategyStatusSchema,
  isPublic: z.boolean(),
  ownerId: z.string(),
  ownerEmail: z.string(),
  figures: tradeControlFiguresSchema,
});
export type AdminStrategy = z.infer<typeof adminStrategySchema>;

export const tradeControlBotSchema = z.object({
  botId: z.string(),
  nickname: z.string(),
  userId: z.string(),
  userEmail: z.string(),
  isActive: z.boolean(),
  position: z.enum(['long', 'short', 'out']),
  tradingAccount: z.object({ id: z.string(), nickname: z.string(), exchange: z.string() }),
  trade: z
    .object({
      id: z.string(),
      symbol: z.string(),
      side: z.enum(['long', 'short']),
      status: z.string(),
      quantity: z.string(),
      entryPrice: z.string().nullable(),
      openedAt: z.string(),
      /** Issue 21: the venue's last price and what closing now would give (absent while it cannot be read). */
      currentPrice: z.string().nullable().optional(),
      unrealisedPnl: z.string().nullable().optional(),
      estimatedClosePnl: z.string().nullable().optional(),
    })
    .nullable(),
  openOrders: z.number().int(),
});

export const tradeControlStatusSchema = z.object({
  strategy: adminStrategySchema,
  bots: z.array(tradeControlBotSchema),
});
export type TradeControlStatus = z.infer<typeof tradeControlStatusSchema>;

export const tradeControlActionSchema = z.enum(['push-to-tp', 'close-positions', 'cancel-orders']);
export type TradeControlAction = z.infer<typeof tradeControlActionSchema>;

export const pushToTpBody = z
  .object({
    /** Push this rung only (`tp1`…); default: each bot's lowest take profit still resting. */
    takeProfitRole: z.string().regex(TAKE_PROFIT_ROLE, 'Take-profit role must be tp1, tp2, …').optional(),
  })
  .optional();

/** What a strategy-wide push or close would touch (issue 21), shown in its confirmation. */
export const tradeControlScopeQuery = z.object({
  action: z.enum(['push-to-tp', 'close-positions']).default('close-positions'),
});
export const tradeControlScopeSchema = z.object({
  strategyId: z.string(),
  action: z.enum(['push-to-tp', 'close-positions']),
  /** Owners of the trades the action would reach. */
  users: z.number().int(),
  trades: z.number().int(),
  /** Of those, the trades whose venue gave no price now: counted, left out of the totals. */
  unpriced: z.number().int(),
  /** Per quote currency: what would be sold or bought at the last price, and the estimated result after fees. */
  totals: z.array(z.object({ currency: z.string(), notional: z.string(), estimatedPnl: z.string() })),
});
export type TradeControlScope = z.infer<typeof tradeControlScopeSchema>;

/** Pause (no new entries from its alerts, for every subscriber) or resume a strategy (issue 21). */
export const strategyPauseBody = z.object({
  status: z.enum(['active', 'paused'], { error: 'Status must be active or paused' }),
});

export const botActionOutcomeSchema = z.object({
  botId: z.string(),
  userId: z.string(),
  status: z.enum(['done', 'skipped', 'failed']),
  /** What happened, in English, as the server built it. */
  message: z.string(),
  /**
   * Its code and params (`API_MESSAGES`), from which the web says it in the user's language (issue 21): a
   * refusal inside it (PUSH_FAILED's `error`) is nested with its own code and params (`nestedParams`).
   */
  code: z.string(),
  params: apiParamsSchema,
  /** Orders placed or cancelled for this bot by this action. */
  orderIds: z.array(z.string()),
});
export type BotActionOutcome = z.infer<typeof botActionOutcomeSchema>;

export const tradeControlResultSchema = z.object({
  strategyId: z.string(),
  action: tradeControlActionSchema,
  done: z.number().int(),
  skipped: z.number().int(),
  failed: z.number().int(),
  outcomes: z.array(botActionOutcomeSchema),
});
export type TradeControlResult = z.infer<typeof tradeControlResultSchema>;

// ─── billing ────────────────────────────────────────────────────────────────────────────────────
export const billingRecordStatusSchema = z.enum(['no_fee', 'waived', 'pending', 'invoiced', 'paid']);
export const invoiceStatusSchema = z.enum(['draft', 'open', 'paid', 'void']);
export const invoiceCurrencySchema = z.enum(['USDT', 'USD']);

const year = z.coerce.number().int().min(2000).max(2999);
const month = z.coerce.number().int().min(1, 'Month must be 1–12').max(12, 'Month must be 1–12');

export const billingPlanSchema = z.object({
  percent: z.string(),
  active: z.boolean(),
  autoCharge: z.boolean(),
  updatedAt: z.string().nullable(),
});

export const billingRecordSchema = z.object({
  id: z.string(),
  userId: z.string(),
  userEmail: z.string(),
  year: z.number().int(),
  month: z.number().int(),
  profit: z.string(),
  cumulativeProfitBefore: z.string(),
  cumulativeProfit: z.string(),
  highWaterMarkBefore: z.string(),
  highWaterMarkAfter: z.string(),
  percent: z.string(),
  feeableProfit: z.string(),
  fee: z.string(),
  status: billingRecordStatusSchema,
  invoiceId: z.string().nullable(),
  processedAt: z.string(),
});
export type BillingRecord = z.infer<typeof billingRecordSchema>;

/** A ledger event a month's record billed (issue 19): what the record's profit is the sum of. */
export const billingRecordEventSchema = z.object({
  id: z.number().int(),
  tradeId: z.string().nullable(),
  kind: z.string(),
  /** Signed, in `currency`. */
  amount: z.string(),
  currency: z.string(),
  /** USDT per unit of `currency` it was billed at ('1' for a USD stablecoin). */
  rate: z.string(),
  /** `amount × rate`, what it added to the record's profit. */
  amountUsdt: z.string(),
  rateSource: z.string().nullable(),
  /** When the money moved at the venue (the trade's last fill), and when Kairos booked it. */
  effectiveAt: z.string(),
  bookedAt: z.string(),
  /** An adjustment's reason; null for a trade's PnL (and from servers before adjustments). */
  note: z.string().nullable().default(null),
});
export type BillingRecordEvent = z.infer<typeof billingRecordEventSchema>;

/**
 * `POST /admin/ledger/adjustments` (issue 19): a correction of what a user is billed on, as a new ledger event
 * (never an edit): signed, in its currency, with why. It is billed in the first month processed after it.
 */
export const ledgerAdjustmentBody = z.object({
  userId: z.string().uuid('User not found'),
  amount: decimalInput.refine((v) => Number(v) !== 0, 'An adjustment cannot be zero'),
  currency: z
    .string({ error: 'Please enter a currency code such as USDT' })
    .trim()
    .regex(CURRENCY_CODE_PATTERN, 'Please enter a currency code such as USDT')
    .transform((s) => s.toUpperCase()),
  reason: z
    .string({ error: 'A reason is required for an adjustment' })
    .trim()
    .min(1, 'A reason is required for an adjustment')
    .max(500),
});
export type LedgerAdjustmentBody = z.infer<typeof ledgerAdjustmentBody>;

export const ledgerAdjustmentSchema = z.object({
  id: z.number().int(),
  userId: z.string(),
  kind: z.literal('adjustment'),
  amount: z.string(),
  currency: z.string(),
  note: z.string(),
  effectiveAt: z.string(),
  bookedAt: z.string(),
});
export type LedgerAdjustment = z.infer<typeof ledgerAdjustmentSchema>;

/** `GET /admin/ledger/adjustments`: the adjustments, newest first, optionally of one user. */
export const ledgerAdjustmentsQuery = z.object({
  ...skipTakeQuery(25),
  userId: z.string().uuid('Please enter a valid user id').optional(),
});
export type LedgerAdjustmentsQuery = z.infer<typeof ledgerAdjustmentsQuery>;
/** An adjustment as the list shows it: with the user's email. */
export const ledgerAdjustmentListItemSchema = ledgerAdjustmentSchema.extend({ userEmail: z.string() });
export type LedgerAdjustmentListItem = z.infer<typeof ledgerAdjustmentListItemSchema>;

export const invoiceSchema = z.object({
  id: z.string(),
  number: z.string(),
  userId: z.string(),
  userEmail: z.string(),
  billingRecordId: z.string(),
  year: z.number().int(),
  month: z.number().int(),
  amount: z.string(),
  currency: invoiceCurrencySchema,
  status: invoiceStatusSchema,
  dueDate: z.string(),
  issuedAt: z.string().nullable(),
  paidAt: z.string().nullable(),
  voidedAt: z.string().nullable(),
  voidReason: z.string().nullable(),
  provider: z.string(),
  providerReference: z.string().nullable(),
  createdAt: z.string(),
});
export type Invoice = z.infer<typeof invoiceSchema>;

/** Live figures of the month in progress (nothing is stored until the month is processed). */
export const billingCurrentMonthSchema = z.object({
  year: z.number().int(),
  month: z.number().int(),
  profit: z.string(),
  highWaterMark: z.string(),
  estimatedFee: z.string(),
});

export const billingUserSchema = z.object({
  userId: z.string(),
  email: z.string(),
  /** null: no plan yet (nothing is charged). */
  plan: billingPlanSchema.nullable(),
  currentMonth: billingCurrentMonthSchema,
  latestInvoice: invoiceSchema.nullable(),
});
export type BillingUser = z.infer<typeof billingUserSchema>;

export const billingUserDetailSchema = billingUserSchema.extend({
  records: z.array(billingRecordSchema),
  invoices: z.array(invoiceSchema),
});
export type BillingUserDetail = z.infer<typeof billingUserDetailSchema>;

export const billingUsersQuery = z.object({ ...skipTakeQuery(25), active: queryBoolean.optional() });
export const billingUserQuery = z.object({ userId: z.string().uuid('User not found') });
export const billingRecordsQuery = z.object({
  ...skipTakeQuery(50),
  userId: z.string().uuid('Please enter a valid user id').optional(),
  year: year.optional(),
  month: month.optional(),
  status: billingRecordStatusSchema.optional(),
});
export const billingInvoicesQuery = z.object({
  ...skipTakeQuery(50),
  userId: z.string().uuid('Please enter a valid user id').optional(),
  status: invoiceStatusSchema.optional(),
});

const percentInput = decimalInput.refine((v) => Number(v) >= 0 && Number(v) <= 100, {
  message: 'Plan percent must be between 0 and 100',
});

/** Creates the plan when the user has none (percent required then), else changes the given fields. */
export const billingPlanUpdateBody = z.object({
  userId: z.string().uuid('User not found'),
  percent: percentInput.optional(),
  active: z.boolean().optional(),
  autoCharge: z.boolean().optional(),
});

export const billingPeriodBody = z.object({ year, month });
export const monthlyProcessResultSchema = z.object({
  year: z.number().int(),
  month: z.number().int(),
  /** Records written by this call (months caught up for a user included). */
  created: z.number().int(),
  /** Users whose month was already processed: left exactly as they were. */
  unchanged: z.number().int(),
  /** Users with a later month already processed: this month cannot be inserted before it. */
  skipped: z.number().int(),
  totalProfit: z.string(),
  totalFees: z.string(),
  /** Invoices opened for users with auto charge. */
  invoicesCreated: z.number().int(),
});
export type MonthlyProcessResult = z.infer<typeof monthlyProcessResultSchema>;

export const invoiceCreateBody = z.object({
  userId: z.string().uuid('User not found'),
  year,
  month,
  currency: invoiceCurrencySchema.default('USDT'),
  /** Days until due; 14 by default. */
  dueInDays: z.number().int().min(0).max(365).default(14),
});
export const invoiceCreateResultSchema = z.object({ invoice: invoiceSchema, created: z.boolean() });

export const invoicePayBody = z
  .object({
    /** Bank transfer id, tx hash…; defaults to `manual`. */
    reference: z.string().trim().min(1).max(200).optional(),
    paidAt: dateOrDateTime.optional(),
  })
  .optional();
export const invoiceVoidBody = z.object({
  reason: z
    .string({ error: 'A reason is required to void an invoice' })
    .trim()
    .min(1, 'A reason is required to void an invoice')
    .max(500),
});

// ─── audit ──────────────────────────────────────────────────────────────────────────────────────
export const auditEntrySchema = z.object({
  id: z.string(),
  actorId: z.string().nullable(),
  actor: z.string(),
  actorEmail: z.string().nullable(),
  action: z.string(),
  target: z.string(),
  details: z.record(z.string(), z.unknown()),
  outcome: z.enum(['ok', 'error']),
  error: z.string().nullable(),
  at: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
const auditDate = z
  .string()
  .trim()
  .refine((v) => !Number.isNaN(new Date(v).getTime()), 'Please enter a valid date')
  .optional();
/**
 * `GET /admin/audit`: `action` is an action (`billing.plan_update`) or its family (`billing`: every
 * `billing.*`); `actor` a part of the actor's email or name (`system`), any case; `from`/`to` bound `at`
 * (ISO instants, both included).
 */
export const auditQuery = z.object({
  ...skipTakeQuery(50),
  action: z.string().trim().min(1).max(80).optional(),
  actorId: z.string().uuid().optional(),
  actor: z.string().trim().min(1).max(200).optional(),
  from: auditDate,
  to: auditDate,
});
export type AuditQuery = z.infer<typeof auditQuery>;

// ─── mail outbox ────────────────────────────────────────────────────────────────────────────────
/**
 * A mail Kairos sent or keeps (issue 20): without SMTP it waits here and nowhere else (never in the log), and
 * the admin passes it on — reset links carry tokens, so only an admin reads it.
 */
export const outboxMailSchema = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  body: z.string(),
  /** `waiting`: not delivered (no SMTP, or not yet); `failed`: SMTP refused it (`error`). */
  status: z.enum(['waiting', 'sent', 'failed']),
  error: z.string().nullable(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
});
export type OutboxMail = z.infer<typeof outboxMailSchema>;
export const outboxQuery = z.object({ ...skipTakeQuery(20, 100) });

// ─── invites (issue 20) ─────────────────────────────────────────────────────────────────────────
/** How long an invite link works unless the admin says otherwise. */
export const DEFAULT_INVITE_DAYS = 7;
export const MAX_INVITE_DAYS = 30;
export const inviteCreateBody = z.object({
  /** The admin's own label (whom the link is for); never shown to the invitee. */
  note: z.string().trim().max(100).optional(),
  expiresInDays: z.number().int().min(1).max(MAX_INVITE_DAYS).default(DEFAULT_INVITE_DAYS),
});
export type InviteCreateBody = z.input<typeof inviteCreateBody>;
export const INVITE_STATUSES = ['pending', 'used', 'expired', 'revoked'] as const;
export type InviteStatus = (typeof INVITE_STATUSES)[number];
/** An invite as the admin's list shows it: never its token (handed over once, at creation, in `link`). */
export const inviteSchema = z.object({
  id: z.string(),
  note: z.string().nullable(),
  status: z.enum(INVITE_STATUSES),
  createdAt: z.string(),
  expiresAt: z.string(),
  usedAt: z.string().nullable(),
  createdByEmail: z.string().nullable(),
  usedByEmail: z.string().nullable(),
});
export type Invite = z.infer<typeof inviteSchema>;
/** A new invite with its link (`<KAIROS_PUBLIC_URL>/register?invite=<token>`), shown this once. */
export const inviteCreatedSchema = inviteSchema.extend({ link: z.string() });
export type InviteCreated = z.infer<typeof inviteCreatedSchema>;
export const invitesQuery = z.object({ ...skipTakeQuery(20, 100) });
export const inviteIdParams = z.object({ id: z.uuid() });

// ─── quotas (issue 20) ──────────────────────────────────────────────────────────────────────────
/** What one user may hold at once, set by the operator; admins are not capped. */
export const DEFAULT_USER_QUOTAS = {
  maxStrategies: 50,
  maxTradingAccounts: 20,
  maxBots: 200,
  maxEventStreams: 10,
} as const;
const quotaCap = z.number().int().min(1).max(100_000);
export const quotaSettingsSchema = z.object({
  /** Strategies a user owns. */
  maxStrategies: quotaCap,
  /** Trading accounts in use (a deleted account, archived, does not count). */
  maxTradingAccounts: quotaCap,
  maxBots: quotaCap,
  /** Live event streams open at once, per server process. */
  maxEventStreams: quotaCap,
});
export type QuotaSettings = z.infer<typeof quotaSettingsSchema>;
export const quotaSettingsResponse = z.object({ success: z.literal(true), results: quotaSettingsSchema });
