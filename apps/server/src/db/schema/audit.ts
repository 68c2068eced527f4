import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Every admin action, allowed or refused: who, what, on what, and how it ended. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The admin's user id; null for the system (scheduled jobs). No FK: the log outlives users. */
    actorId: uuid('actor_id'),
    /** `admin:<userId>` or `system`. */
    actor: text('actor').notNull(),
    actorEmail: text('actor_email'),
    /** e.g. `alert.mark_dead`, `billing.monthly_process`. */
    action: text('action').notNull(),
    /** e.g. `alert:<id>`, `strategy:<id>`, `billing:2025-01`. */
    target: text('target').notNull(),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    outcome: text('outcome', { enum: ['ok', 'error'] }).notNull(),
    error: text('error'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('audit_log_at_idx').on(t.at), index('audit_log_actor_idx').on(t.actorId, t.at)],
);
