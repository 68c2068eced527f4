import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** One row per worker process, refreshed by the scheduled heartbeat job; `/healthz` reports its age. */
export const workerHeartbeats = pgTable('worker_heartbeats', {
  workerId: text('worker_id').primaryKey(),
  hostname: text('hostname').notNull(),
  pid: integer('pid').notNull(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
  beatAt: timestamp('beat_at', { withTimezone: true }).notNull(),
});
