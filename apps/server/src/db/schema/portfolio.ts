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
