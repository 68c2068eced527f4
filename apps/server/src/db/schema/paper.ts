import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { tradingAccounts } from './trading';

/**
 * The paper venue's ledger (exchange/paper): what the simulated exchange knows about each paper account.
 * Rows are the venue's side of the story, like a real exchange's database — Kairos' own orders, trades and
 * fills (engine) mirror them through the ExchangeGateway, exactly as for a real venue.
 */

const amount = (name: string) => numeric(name, { precision: 38, scale: 18 });
const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const paperBalances = pgTable(
  'paper_balances',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => tradingAccounts.id, { onDelete: 'cascade' }),
    asset: text('asset').notNull(),
    free: amount('free').notNull(),
    used: amount('used').notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.asset] })],
);

export const paperOrders = pgTable(
  'paper_orders',
  {
    venueOrderId: text('venue_order_id').primaryKey(),
    /** Insertion order: "oldest first" without relying on equal timestamps. */
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => tradingAccounts.id, { onDelete: 'cascade' }),
    clientOrderId: text('client_order_id').notNull(),
    marketType: text('market_type', { enum: ['spot', 'future'] }).notNull(),
    symbol: text('symbol').notNull(),
    side: text('side', { enum: ['buy', 'sell'] }).notNull(),
    type: text('type', { enum: ['market', 'limit'] }).notNull(),
    price: amount('price'),
    amount: amount('amount').notNull(),
    filled: amount('filled').notNull(),
    cost: amount('cost').notNull(),
    fee: amount('fee').notNull(),
    feeCurrency: text('fee_currency').notNull(),
    status: text('status', {
      enum: ['open', 'partially_filled', 'filled', 'cancelled', 'rejected', 'expired'],
    }).notNull(),
    reduceOnly: boolean('reduce_only').notNull(),
    reservedAsset: text('reserved_asset'),
    reserved: amount('reserved').notNull(),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
    checkedUntil: ts('checked_until').notNull(),
  },
  (t) => [
    uniqueIndex('paper_orders_client_order_id_uq').on(t.accountId, t.clientOrderId),
    index('paper_orders_open_idx')
      .on(t.accountId, t.seq)
      .where(sql`status in ('open', 'partially_filled')`),
  ],
);

export const paperFills = pgTable(
  'paper_fills',
  {
    venueTradeId: text('venue_trade_id').primaryKey(),
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => tradingAccounts.id, { onDelete: 'cascade' }),
    venueOrderId: text('venue_order_id')
      .notNull()
      .references(() => paperOrders.venueOrderId, { onDelete: 'cascade' }),
    marketType: text('market_type', { enum: ['spot', 'future'] }).notNull(),
    symbol: text('symbol').notNull(),
    side: text('side', { enum: ['buy', 'sell'] }).notNull(),
    price: amount('price').notNull(),
    amount: amount('amount').notNull(),
    cost: amount('cost').notNull(),
    fee: amount('fee').notNull(),
    feeCurrency: text('fee_currency').notNull(),
    takerOrMaker: text('taker_or_maker', { enum: ['taker', 'maker'] }).notNull(),
    realizedPnl: amount('realized_pnl').notNull(),
    executedAt: ts('executed_at').notNull(),
  },
  (t) => [index('paper_fills_account_symbol_idx').on(t.accountId, t.symbol, t.executedAt)],
);

/** One-way futures positions; a row with amount 0 keeps the leverage chosen for the symbol. */
export const paperPositions = pgTable(
  'paper_positions',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => tradingAccounts.id, { onDelete: 'cascade' }),
    symbol: text('symbol').notNull(),
    amount: amount('amount').notNull(),
    entryPrice: amount('entry_price').notNull(),
    leverage: integer('leverage').notNull(),
    /** As on Binance USD-M, a symbol is cross-margined until set otherwise. */
    marginMode: text('margin_mode', { enum: ['isolated', 'cross'] })
      .notNull()
      .default('cross'),
    margin: amount('margin').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.symbol] })],
);

/**
 * Stop orders resting on the paper venue (futures, issue 18), as Binance USD-M keeps its conditional orders
 * apart from the order book: a reduce-only stop-market that, once the price path crosses `trigger_price`,
 * becomes an ordinary market order of the account (`triggered_order_id`, in paper_orders).
 */
export const paperStops = pgTable(
  'paper_stops',
  {
    venueOrderId: text('venue_order_id').primaryKey(),
    /** Insertion order: "oldest first" without relying on equal timestamps. */
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => tradingAccounts.id, { onDelete: 'cascade' }),
    clientOrderId: text('client_order_id').notNull(),
    marketType: text('market_type', { enum: ['spot', 'future'] }).notNull(),
    symbol: text('symbol').notNull(),
    side: text('side', { enum: ['buy', 'sell'] }).notNull(),
    amount: amount('amount').notNull(),
    triggerPrice: amount('trigger_price').notNull(),
    status: text('status', { enum: ['open', 'triggered', 'cancelled', 'rejected', 'expired'] }).notNull(),
    triggeredOrderId: text('triggered_order_id'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
    /** The price path has been checked against the trigger up to this time. */
    checkedUntil: ts('checked_until').notNull(),
  },
  (t) => [
    uniqueIndex('paper_stops_client_order_id_uq').on(t.accountId, t.clientOrderId),
    index('paper_stops_open_idx')
      .on(t.accountId, t.seq)
      .where(sql`status = 'open'`),
  ],
);

/**
 * Futures funding the paper venue settled (issue 19): every 8 hours on each open position, at the venue's price
 * then and its fixed rate (exchange/paper/paper-funding.ts); `amount` moved the account's USDT in the same
 * transaction. What `fetchFundingHistory` lists, as a real venue's income history.
 */
export const paperFunding = pgTable(
  'paper_funding',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => tradingAccounts.id, { onDelete: 'cascade' }),
    /** Unique per account: the symbol and the funding time. */
    id: text('id').notNull(),
    symbol: text('symbol').notNull(),
    /** Positive received, negative paid. */
    amount: amount('amount').notNull(),
    currency: text('currency').notNull(),
    rate: amount('rate').notNull(),
    price: amount('price').notNull(),
    /** The position held (signed: negative short). */
    position: amount('position').notNull(),
    paidAt: ts('paid_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.id] }),
    index('paper_funding_account_symbol_idx').on(t.accountId, t.symbol, t.paidAt),
  ],
);
