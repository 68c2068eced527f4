import { sql } from 'drizzle-orm';
import { check, integer, pgTable, smallint, text, timestamp } from 'drizzle-orm/pg-core';

/** One row per worker process, refreshed by the scheduled heartbeat job; `/healthz` reports its age. */
export const workerHeartbeats = pgTable('worker_heartbeats', {
  workerId: text('worker_id').primaryKey(),
  hostname: text('hostname').notNull(),
  pid: integer('pid').notNull(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
  beatAt: timestamp('beat_at', { withTimezone: true }).notNull(),
});

/**
 * The operator's caps on what one user may hold (issue 20): one row, `id` 1, written by Admin → Settings.
 * No row: the contract's DEFAULT_USER_QUOTAS.
 */
export const quotaSettings = pgTable(
  'quota_settings',
  {
    id: smallint('id').primaryKey().default(1),
    maxStrategies: integer('max_strategies').notNull(),
    maxTradingAccounts: integer('max_trading_accounts').notNull(),
    maxBots: integer('max_bots').notNull(),
    maxEventStreams: integer('max_event_streams').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('quota_settings_one_row', sql`${t.id} = 1`)],
);
