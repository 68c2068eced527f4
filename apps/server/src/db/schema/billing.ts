import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  date,
  index,
  integer,
  numeric,
  pgSequence,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './auth';

const money = (name: string) => numeric(name, { precision: 38, scale: 18 });
const ts = (name: string) => timestamp(name, { withTimezone: true });

/** A user's profit-share plan (DESIGN §8). No row: no plan (nothing is charged). */
export const billingPlans = pgTable('billing_plans', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** 0–100: share of new profit above the high-water mark. */
  percent: money('percent').notNull(),
  active: boolean('active').notNull().default(true),
  /** Charge through the configured payment provider as soon as a month is processed. */
  autoCharge: boolean('auto_charge').notNull().default(false),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const BILLING_RECORD_STATUSES = ['no_fee', 'waived', 'pending', 'invoiced', 'paid'] as const;

/**
 * One row per user per processed month. Rows chain: each month starts from the previous month's
 * cumulative profit and high-water mark, so a month is written once and never recomputed.
 */
export const billingRecords = pgTable(
  'billing_records',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    year: integer('year').notNull(),
    month: integer('month').notNull(),
    /** Realised net PnL of the user's trades closed in the month. */
    profit: money('profit').notNull(),
    cumulativeProfitBefore: money('cumulative_profit_before').notNull(),
    cumulativeProfit: money('cumulative_profit').notNull(),
    highWaterMarkBefore: money('high_water_mark_before').notNull(),
    highWaterMarkAfter: money('high_water_mark_after').notNull(),
    /** The plan percent applied (a snapshot: later plan edits do not rewrite history). */
    percent: money('percent').notNull(),
    feeableProfit: money('feeable_profit').notNull(),
    fee: money('fee').notNull(),
    status: text('status', { enum: BILLING_RECORD_STATUSES }).notNull(),
    processedAt: ts('processed_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('billing_records_user_period_uq').on(t.userId, t.year, t.month),
    index('billing_records_period_idx').on(t.year, t.month),
  ],
);

export const invoiceNumberSeq = pgSequence('invoice_number_seq', { startWith: 1 });

export const INVOICE_STATUSES = ['draft', 'open', 'paid', 'void'] as const;

export const invoices = pgTable(
  'invoices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** `INV-202501-000001`: period plus a global sequence. */
    number: text('number').notNull().unique(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    billingRecordId: uuid('billing_record_id')
      .notNull()
      .references(() => billingRecords.id, { onDelete: 'cascade' }),
    year: integer('year').notNull(),
    month: integer('month').notNull(),
    amount: money('amount').notNull(),
    currency: text('currency', { enum: ['USDT', 'USD'] })
      .notNull()
      .default('USDT'),
    status: text('status', { enum: INVOICE_STATUSES }).notNull().default('open'),
    dueDate: date('due_date', { mode: 'string' }).notNull(),
    issuedAt: ts('issued_at'),
    paidAt: ts('paid_at'),
    voidedAt: ts('voided_at'),
    voidReason: text('void_reason'),
    /** `manual` or a configured provider (e.g. `stripe`). */
    provider: text('provider').notNull(),
    providerReference: text('provider_reference'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    // One live invoice per user and period; a voided one may be replaced.
    uniqueIndex('invoices_user_period_live_uq')
      .on(t.userId, t.year, t.month)
      .where(sql`status <> 'void'`),
    index('invoices_user_idx').on(t.userId, t.createdAt),
    index('invoices_status_idx').on(t.status, t.createdAt),
  ],
);

/** What billing adds up: a trade's booked PnL and an admin's corrections. */
export const BILLED_LEDGER_KINDS = ['realised_pnl', 'adjustment'] as const;
/** The money movements behind a trade's PnL, one event each (never billed themselves). */
export const MOVEMENT_LEDGER_KINDS = ['fill', 'fee', 'funding'] as const;

/**
 * The money ledger (issue 19): append-only (a trigger refuses every update and delete; a correction is a new
 * event). Every change of a trade's booked PnL — its realised PnL once closed, fees and funding included — is
 * one event, written by a trigger on `trades` in the same transaction: a late close, funding read after the
 * close, or a reopened trade each add an event, never edit one. Billing reads those and the admin's
 * adjustments. Beside them, triggers on `fills` and `funding_payments` write every money movement at the venue
 * as it is stored: a fill's two legs (quote paid or received, base received or given), its fee, each funding
 * payment; a fill replaced or removed is taken back by events of the opposite sign.
 */
export const ledgerEvents = pgTable(
  'ledger_events',
  {
    /** Booking order. */
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id').notNull(),
    tradeId: uuid('trade_id'),
    kind: text('kind', { enum: [...BILLED_LEDGER_KINDS, ...MOVEMENT_LEDGER_KINDS] }).notNull(),
    /** Signed, in `currency` (a PnL's: the trade's quote). */
    amount: money('amount').notNull(),
    currency: text('currency').notNull(),
    /**
     * A movement in a currency other than the trade's quote: the quote per unit it is counted at in the trade's
     * figures (a base leg or a base fee: the fill's price; a fee in a third currency: the venue's price when the
     * fill was stored). Null in the quote, and on PnL events and adjustments.
     */
    rate: money('rate'),
    /** The row a movement comes from: the fill's or the funding payment's id. */
    ref: uuid('ref'),
    /** An adjustment's reason, as the admin wrote it. */
    note: text('note'),
    /** When the money moved at the venue (the trade's last fill); the month it is billed in follows it, unless billed already. */
    effectiveAt: ts('effective_at').notNull(),
    /** When Kairos learnt it. */
    bookedAt: ts('booked_at').notNull().defaultNow(),
  },
  (t) => [
    index('ledger_events_user_effective_idx').on(t.userId, t.effectiveAt),
    /** A trade's figures are read from its events (trade lists and details: one aggregate per page). */
    index('ledger_events_trade_idx').on(t.tradeId),
    /** The dashboard's realised PnL: a user's booked PnL and adjustments by day, without the movements beside them. */
    index('ledger_events_user_booked_pnl_idx')
      .on(t.userId, t.effectiveAt)
      .where(sql`kind IN ('realised_pnl', 'adjustment')`),
  ],
);

/** Which month's record billed each ledger event: an event is billed once, in the first month processed after it. */
export const billedEvents = pgTable('billed_events', {
  eventId: bigint('event_id', { mode: 'number' }).primaryKey(),
  recordId: uuid('record_id')
    .notNull()
    .references(() => billingRecords.id, { onDelete: 'cascade' }),
});

/**
 * The rate a ledger event in a currency other than a USD stablecoin was converted to the billing currency
 * (USDT) at, recorded once, when the month that bills it was processed: a bill can be reproduced from the
 * ledger and these rates. Append-only like the ledger.
 */
export const ledgerRates = pgTable('ledger_rates', {
  eventId: bigint('event_id', { mode: 'number' }).primaryKey(),
  currency: text('currency').notNull(),
  /** USDT per unit of `currency`. */
  rate: money('rate').notNull(),
  /** Where the rate was read (e.g. 'BTC/USDT (paper venue)'). */
  source: text('source').notNull(),
  recordedAt: ts('recorded_at').notNull().defaultNow(),
});
