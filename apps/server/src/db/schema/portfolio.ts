import { index, integer, numeric, pgTable, primaryKey, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth';
import { tradingAccounts } from './trading';

/** An account's USDT-equivalent equity at a point in time: the equity curve and portfolio history. */
export const balanceSnapshots = pgTable(
  'balance_snapshots',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tradingAccountId: uuid('trading_account_id')
      .notNull()
      .references(() => tradingAccounts.id, { onDelete: 'cascade' }),
    equity: numeric('equity', { precision: 38, scale: 18 }).notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('balance_snapshots_account_at_idx').on(t.tradingAccountId, t.at),
    index('balance_snapshots_user_at_idx').on(t.userId, t.at),
  ],
);

/**
 * Closed trades rolled up per owner, account, bot and hour, kept by a trigger on `trades`
 * (migration 0009). The dashboard sums these rows instead of scanning every trade: a user with a
 * million trades costs at most 24 rows per day per bot.
 */
export const tradePnlHourly = pgTable(
  'trade_pnl_hourly',
  {
    userId: uuid('user_id').notNull(),
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    tradingAccountId: uuid('trading_account_id').notNull(),
    /** The zero uuid for manual trades (no bot). */
    botId: uuid('bot_id').notNull(),
    pnl: numeric('pnl', { precision: 38, scale: 18 }).notNull(),
    notional: numeric('notional', { precision: 38, scale: 18 }).notNull(),
    trades: integer('trades').notNull(),
    wins: integer('wins').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.hour, t.tradingAccountId, t.botId] })],
);

/**
 * The ledger's booked PnL (issue 19: `ledger_events` of kind `realised_pnl` and `adjustment`) rolled up per
 * owner, account, bot and hour of when the money moved, kept by a trigger on `ledger_events` (migration 0038;
 * the ledger is append-only, so every event only adds). The dashboard's daily PnL and a bot's month profit sum
 * these rows instead of every event: a user with a million trades costs at most 24 rows per day per bot. An
 * adjustment is the user's, on no trade: account and bot are the zero uuid; so is the bot of a manual trade.
 */
export const ledgerPnlHourly = pgTable(
  'ledger_pnl_hourly',
  {
    userId: uuid('user_id').notNull(),
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    tradingAccountId: uuid('trading_account_id').notNull(),
    botId: uuid('bot_id').notNull(),
    pnl: numeric('pnl', { precision: 38, scale: 18 }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.hour, t.tradingAccountId, t.botId] }),
    // A bot's month profit (the bots list): its hours since the 1st, without the user's other bots.
    index('ledger_pnl_hourly_bot_hour_idx').on(t.botId, t.hour),
  ],
);
