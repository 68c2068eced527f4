import { sql } from 'drizzle-orm';
import type { CloseReason } from '@kairos/contract';
import { ALERT_STATUSES, ORDER_STATES, TRADE_STATUSES } from '@kairos/core';
import {
  boolean,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './auth';

const money = (name: string) => numeric(name, { precision: 38, scale: 18 });
const ts = (name: string) => timestamp(name, { withTimezone: true });

/** An exchange account: `paper` (simulated venue) or any ccxt exchange id. Secrets sealed, never returned. */
export const tradingAccounts = pgTable(
  'trading_accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    nickname: text('nickname').notNull(),
    exchange: text('exchange').notNull(),
    marketType: text('market_type', { enum: ['spot', 'future'] })
      .notNull()
      .default('spot'),
    sandbox: boolean('sandbox').notNull().default(false),
    apiKeySealed: text('api_key_sealed'),
    apiSecretSealed: text('api_secret_sealed'),
    passphraseSealed: text('passphrase_sealed'),
    /** `abcd…wxyz`, the only form of the key ever shown. */
    apiKeyMask: text('api_key_mask'),
    usdtBalance: money('usdt_balance').notNull().default('0'),
    balanceUpdatedAt: ts('balance_updated_at'),
    status: text('status', { enum: ['active', 'error'] })
      .notNull()
      .default('active'),
    lastError: text('last_error'),
    /** The code and params `last_error` was built from (API_MESSAGES): the web says it in its language. */
    lastErrorCode: text('last_error_code'),
    lastErrorParams: jsonb('last_error_params').$type<Record<string, string | number>>(),
    /**
     * When the user acknowledged that the venue does not report whether the account's key can withdraw and
     * that they made sure it cannot (issue 20); null for a key whose permission the venue reported.
     */
    withdrawRiskAcknowledgedAt: ts('withdraw_risk_acknowledged_at'),
    /**
     * Set when the user deletes the account (issue 19): it leaves every list and its keys are wiped, but the
     * row stays so that its trades, and what they made, stay on the books.
     */
    archivedAt: ts('archived_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('trading_accounts_user_idx').on(t.userId)],
);

export type TakeProfitPlan = { role: string; percent: string; sizePercent: string };

/** A signal source. Admin strategies are offered to every user; a user's own are private. */
export const strategies = pgTable(
  'strategies',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    isPublic: boolean('is_public').notNull().default(false),
    nickname: text('nickname').notNull(),
    strategyKey: text('strategy_key').notNull().unique(),
    tradeCurrency: text('trade_currency').notNull(),
    stableCoin: text('stable_coin').notNull().default('USDT'),
    timeFrame: text('time_frame').notNull(),
    status: text('status', { enum: ['active', 'paused', 'retired'] })
      .notNull()
      .default('active'),
    takeProfits: jsonb('take_profits').$type<TakeProfitPlan[]>().notNull().default([]),
    stopLossPercent: money('stop_loss_percent'),
    breakEvenAfterTp1: boolean('break_even_after_tp1').notNull().default(true),
    maxLagSeconds: integer('max_lag_seconds').notNull().default(300),
    /** How far (percent) a signal's price may be from the venue's and still size entries (issue 19). */
    priceTolerancePercent: numeric('price_tolerance_percent', { precision: 10, scale: 4 })
      .notNull()
      .default('2'),
    /**
     * Spot stops resting on the venue are stop-limits (issue 18): once triggered they sell at this many
     * percent below the stop (buy above it), so a fast fall still fills instead of skipping the limit.
     */
    stopLimitOffsetPercent: numeric('stop_limit_offset_percent', { precision: 10, scale: 4 })
      .notNull()
      .default('0.5'),
    webhookSecretSealed: text('webhook_secret_sealed').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('strategies_owner_idx').on(t.ownerId)],
);

export type BotOutcomeStatus = 'opened' | 'closed' | 'reversed' | 'skipped' | 'failed';

/** A received signal and its trip through the queue (DESIGN §5). */
export const alerts = pgTable(
  'alerts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    strategyId: uuid('strategy_id')
      .notNull()
      .references(() => strategies.id, { onDelete: 'cascade' }),
    strategyKey: text('strategy_key').notNull(),
    dedupeKey: text('dedupe_key').notNull(),
    action: text('action', { enum: ['long', 'short', 'exit'] }).notNull(),
    symbol: text('symbol').notNull(),
    price: money('price'),
    signalAt: ts('signal_at'),
    /**
     * How far the signal's price was from the venue's last price when the alert was processed, in percent
     * (issue 19): shown, and past the strategy's tolerance the venue's price sized the entries.
     */
    priceDeviationPercent: numeric('price_deviation_percent', { precision: 20, scale: 8 }),
    payload: jsonb('payload').notNull(),
    /** An admin resumed it knowing it late: it runs past the strategy's max lag (issue 20). */
    lateOk: boolean('late_ok').notNull().default(false),
    status: text('status', { enum: ALERT_STATUSES }).notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(5),
    nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
    lockedBy: text('locked_by'),
    lockedUntil: ts('locked_until'),
    lastError: text('last_error'),
    deadReason: text('dead_reason'),
    receivedAt: ts('received_at').notNull().defaultNow(),
    startedAt: ts('started_at'),
    finishedAt: ts('finished_at'),
  },
  (t) => [
    uniqueIndex('alerts_dedupe_uq').on(t.strategyId, t.dedupeKey),
    index('alerts_claim_idx')
      .on(t.nextAttemptAt)
      .where(sql`status = 'queued'`),
    index('alerts_lease_idx')
      .on(t.lockedUntil)
      .where(sql`status = 'in_progress'`),
    // Each strategy's queue: its length at ingest (the cap) and its turn in the claim (issue 20).
    index('alerts_queued_strategy_idx')
      .on(t.strategyId, t.receivedAt)
      .where(sql`status = 'queued'`),
    index('alerts_received_idx').on(t.receivedAt),
    index('alerts_status_received_idx').on(t.status, t.receivedAt),
  ],
);

/** What each bot did with an alert (one row per bot; an alert may reach 10,000 bots). */
export const alertOutcomes = pgTable(
  'alert_outcomes',
  {
    alertId: uuid('alert_id')
      .notNull()
      .references(() => alerts.id, { onDelete: 'cascade' }),
    botId: uuid('bot_id').notNull(),
    userId: uuid('user_id').notNull(),
    status: text('status', { enum: ['opened', 'closed', 'reversed', 'skipped', 'failed'] }).notNull(),
    message: text('message').notNull(),
    tradeIds: jsonb('trade_ids').$type<string[]>().notNull().default([]),
    retryable: boolean('retryable').notNull().default(false),
    at: ts('at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.alertId, t.botId] })],
);

/** Every status change of an alert, with who made it and why. */
export const alertEvents = pgTable(
  'alert_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    alertId: uuid('alert_id')
      .notNull()
      .references(() => alerts.id, { onDelete: 'cascade' }),
    fromStatus: text('from_status'),
    toStatus: text('to_status').notNull(),
    actor: text('actor').notNull(),
    error: text('error'),
    at: ts('at').notNull().defaultNow(),
  },
  (t) => [index('alert_events_alert_idx').on(t.alertId, t.at)],
);

export const bots = pgTable(
  'bots',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tradingAccountId: uuid('trading_account_id')
      .notNull()
      .references(() => tradingAccounts.id, { onDelete: 'restrict' }),
    strategyId: uuid('strategy_id')
      .notNull()
      .references(() => strategies.id, { onDelete: 'restrict' }),
    nickname: text('nickname').notNull().default('Bot'),
    isActive: boolean('is_active').notNull().default(false),
    tradeCurrency: text('trade_currency').notNull(),
    stableCoin: text('stable_coin').notNull().default('USDT'),
    portfolioPercent: money('portfolio_percent'),
    fixedAmount: money('fixed_amount'),
    leveragePercent: money('leverage_percent').notNull().default('100'),
    /** Futures: the margin mode set on the bot's symbol before each entry (isolated unless the user chose cross). */
    marginMode: text('margin_mode', { enum: ['isolated', 'cross'] })
      .notNull()
      .default('isolated'),
    monthlyGoalPercent: money('monthly_goal_percent'),
    position: text('position', { enum: ['long', 'short', 'out'] })
      .notNull()
      .default('out'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('bots_user_idx').on(t.userId),
    index('bots_strategy_idx').on(t.strategyId),
    index('bots_account_idx').on(t.tradingAccountId),
  ],
);

export const trades = pgTable(
  'trades',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    botId: uuid('bot_id').references(() => bots.id, { onDelete: 'set null' }),
    tradingAccountId: uuid('trading_account_id')
      .notNull()
      .references(() => tradingAccounts.id, { onDelete: 'cascade' }),
    strategyId: uuid('strategy_id').references(() => strategies.id, { onDelete: 'set null' }),
    alertId: uuid('alert_id').references(() => alerts.id, { onDelete: 'set null' }),
    symbol: text('symbol').notNull(),
    side: text('side', { enum: ['long', 'short'] }).notNull(),
    status: text('status', { enum: TRADE_STATUSES }).notNull().default('open'),
    quantity: money('quantity').notNull().default('0'),
    entryPrice: money('entry_price'),
    exitPrice: money('exit_price'),
    realisedPnl: money('realised_pnl'),
    pnlPercent: money('pnl_percent'),
    commission: money('commission').notNull().default('0'),
    /** The notional the trade committed when opened (capital deployed). */
    entryNotional: money('entry_notional'),
    takeProfits: jsonb('take_profits').$type<TakeProfitPlan[]>().notNull().default([]),
    stopLossPercent: money('stop_loss_percent'),
    stopLossPrice: money('stop_loss_price'),
    /** The strategy's stop-limit offset when the trade opened (spot venue stops; null: the default 0.5 %). */
    stopLimitOffsetPercent: numeric('stop_limit_offset_percent', { precision: 10, scale: 4 }),
    breakEvenAfterTp1: boolean('break_even_after_tp1').notNull().default(true),
    /** Set once the stop moved to break-even after TP1, so a later user edit of the stop stands. */
    stopMovedToBreakEvenAt: ts('stop_moved_to_break_even_at'),
    /** Why it ended: one of the contract's CLOSE_REASONS (the column stays text; the strings are the stored ones). */
    closeReason: text('close_reason').$type<CloseReason>(),
    error: text('error'),
    /** The code and params `error` was built from (the contract's API_MESSAGES): the web says it in its language. */
    errorCode: text('error_code'),
    errorParams: jsonb('error_params').$type<Record<string, string | number>>(),
    openedAt: ts('opened_at').notNull().defaultNow(),
    closedAt: ts('closed_at'),
    /** Set when the user deletes an ended trade (issue 19): gone from their screens, never from the books. */
    hiddenAt: ts('hidden_at'),
    /**
     * Futures: the leverage the trade was opened at, in percent (the bot's; null for spot and for a manual
     * trade) — its PnL % on margin is its PnL % on notional × this ÷ 100 (issue 19).
     */
    leveragePercent: money('leverage_percent'),
    /** Futures funding booked on the trade (issue 19), in quote: positive received, negative paid. */
    funding: money('funding').notNull().default('0'),
    /** When the venue's funding history was last read for it: an ended trade is read once more after its close. */
    fundingCheckedAt: ts('funding_checked_at'),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('trades_user_opened_idx').on(t.userId, t.openedAt),
    // A user's open trades (the dashboard's protection check and open positions, on every dashboard read)
    // without walking the closed ones: a busy user has a million of those.
    index('trades_user_active_idx')
      .on(t.userId, t.openedAt)
      .where(sql`status IN ('open', 'closing')`),
    index('trades_bot_opened_idx').on(t.botId, t.openedAt),
    index('trades_account_idx').on(t.tradingAccountId),
    index('trades_user_closed_idx')
      .on(t.userId, t.closedAt)
      .where(sql`status = 'closed'`),
    uniqueIndex('trades_one_open_per_bot_uq')
      .on(t.botId)
      .where(sql`status IN ('open', 'closing') AND bot_id IS NOT NULL`),
  ],
);

/** An order row mirrors what the venue said; the client order id is written before the venue call. */
export const orders = pgTable(
  'orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tradeId: uuid('trade_id')
      .notNull()
      .references(() => trades.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').notNull(),
    tradingAccountId: uuid('trading_account_id').notNull(),
    clientOrderId: text('client_order_id').notNull(),
    venueOrderId: text('venue_order_id'),
    role: text('role').notNull(),
    symbol: text('symbol').notNull(),
    side: text('side', { enum: ['buy', 'sell'] }).notNull(),
    type: text('type', { enum: ['market', 'limit'] }).notNull(),
    reduceOnly: boolean('reduce_only').notNull().default(false),
    price: money('price'),
    amount: money('amount').notNull(),
    filled: money('filled').notNull().default('0'),
    average: money('average'),
    status: text('status', { enum: ORDER_STATES }).notNull().default('new'),
    lastError: text('last_error'),
    /** The code and params `last_error` was built from (API_MESSAGES): the web says it in its language. */
    lastErrorCode: text('last_error_code'),
    lastErrorParams: jsonb('last_error_params').$type<Record<string, string | number>>(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('orders_client_order_id_uq').on(t.tradingAccountId, t.clientOrderId),
    index('orders_trade_idx').on(t.tradeId),
    index('orders_live_idx')
      .on(t.tradingAccountId)
      .where(sql`status IN ('submitted', 'open', 'partially_filled', 'unknown')`),
  ],
);

/**
 * Stop orders resting on the venue for a trade (issue 18): the trade's protection while Kairos is down. One row
 * per placement (a moved stop is a new row: the new one is placed before the old one is cancelled). Kept apart
 * from `orders`: a stop is placed, looked up and cancelled through its own venue calls, and the market order it
 * becomes once triggered is booked in `orders` like any exit.
 */
export const venueStops = pgTable(
  'venue_stops',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tradeId: uuid('trade_id')
      .notNull()
      .references(() => trades.id, { onDelete: 'cascade' }),
    tradingAccountId: uuid('trading_account_id').notNull(),
    clientOrderId: text('client_order_id').notNull(),
    venueOrderId: text('venue_order_id'),
    symbol: text('symbol').notNull(),
    side: text('side', { enum: ['buy', 'sell'] }).notNull(),
    triggerPrice: money('trigger_price').notNull(),
    amount: money('amount').notNull(),
    status: text('status', {
      enum: ['submitted', 'open', 'triggered', 'cancelled', 'rejected', 'expired', 'unknown'],
    }).notNull(),
    triggeredOrderId: text('triggered_order_id'),
    lastError: text('last_error'),
    /** The code and params `last_error` was built from (API_MESSAGES), as on `orders`. */
    lastErrorCode: text('last_error_code'),
    lastErrorParams: jsonb('last_error_params').$type<Record<string, string | number>>(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('venue_stops_client_order_id_uq').on(t.tradingAccountId, t.clientOrderId),
    index('venue_stops_trade_idx').on(t.tradeId),
    index('venue_stops_live_idx')
      .on(t.tradingAccountId)
      .where(sql`status IN ('submitted', 'open', 'unknown')`),
  ],
);

export const fills = pgTable(
  'fills',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    tradeId: uuid('trade_id').notNull(),
    venueTradeId: text('venue_trade_id').notNull(),
    price: money('price').notNull(),
    amount: money('amount').notNull(),
    fee: money('fee').notNull().default('0'),
    feeCurrency: text('fee_currency'),
    /**
     * The quote price of a fee paid in a third currency (BNB on Binance, say), read from the venue when the
     * fill was stored (issue 19): what the fee is booked at. Null for a fee in the base or quote currency.
     */
    feeRate: money('fee_rate'),
    at: ts('at').notNull(),
    /**
     * Written by Kairos for the part of an order's `filled` the venue did not list (yet), at the order's
     * average price and without its fee; replaced by the venue's own fills once it lists them.
     */
    inferred: boolean('inferred').notNull().default(false),
  },
  (t) => [
    uniqueIndex('fills_venue_trade_uq').on(t.orderId, t.venueTradeId),
    index('fills_inferred_idx')
      .on(t.orderId)
      .where(sql`${t.inferred}`),
    index('fills_trade_idx').on(t.tradeId),
  ],
);

/**
 * A futures funding payment as the venue lists it (issue 19), booked on the trade whose position it was paid
 * on: positive received, negative paid, in the settlement currency. Shared by two trades on one position, it
 * is split by their quantities (one row each).
 */
export const fundingPayments = pgTable(
  'funding_payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tradeId: uuid('trade_id')
      .notNull()
      .references(() => trades.id, { onDelete: 'cascade' }),
    tradingAccountId: uuid('trading_account_id').notNull(),
    /** The venue's id of the payment (Binance tranId, Bybit/OKX bill id). */
    venuePaymentId: text('venue_payment_id').notNull(),
    symbol: text('symbol').notNull(),
    amount: money('amount').notNull(),
    currency: text('currency').notNull(),
    at: ts('at').notNull(),
  },
  (t) => [uniqueIndex('funding_payments_uq').on(t.tradeId, t.venuePaymentId)],
);

/**
 * Webhook requests refused (issue 21: a misconfigured TradingView alert must not be invisible), counted per
 * minute, strategy key and reason — never the request's secret or body. Kept a week.
 */
export const webhookRejections = pgTable(
  'webhook_rejections',
  {
    minute: ts('minute').notNull(),
    /** As sent ('' when the request named none). */
    strategyKey: text('strategy_key').notNull(),
    /** The refusal's code (INVALID_WEBHOOK_SECRET, RATE_LIMITED, VALIDATION_ERROR, STALE_SIGNAL, …). */
    reason: text('reason').notNull(),
    count: integer('count').notNull(),
    lastAt: ts('last_at').notNull(),
    lastAddress: text('last_address'),
  },
  (t) => [
    primaryKey({ columns: [t.minute, t.strategyKey, t.reason] }),
    index('webhook_rejections_last_idx').on(t.lastAt),
  ],
);
