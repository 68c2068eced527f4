import { and, count, desc, eq, gte, ilike, like, lte, or, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { auditLog } from '../../db/schema/index';

export type AuditRow = typeof auditLog.$inferSelect;
export type NewAuditEntry = typeof auditLog.$inferInsert;

/** The admin's filters (issue 21): an action or its family, a part of the actor, a time range. */
export type AuditListFilters = {
  skip: number;
  take: number;
  action?: string;
  actorId?: string;
  actor?: string;
  from?: Date;
  to?: Date;
};

/** `%`, `_` and `\\` typed by the admin match themselves. */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export function createAuditRepo(db: Database) {
  return {
    async insert(entry: NewAuditEntry): Promise<void> {
      await db.insert(auditLog).values(entry);
    },

    async list(q: AuditListFilters) {
      const conditions: SQL[] = [];
      if (q.action)
        conditions.push(
          or(eq(auditLog.action, q.action), like(auditLog.action, `${likeLiteral(q.action)}.%`))!,
        );
      if (q.actorId) conditions.push(eq(auditLog.actorId, q.actorId));
      if (q.actor) {
        const part = `%${likeLiteral(q.actor)}%`;
        conditions.push(or(ilike(auditLog.actorEmail, part), ilike(auditLog.actor, part))!);
      }
      if (q.from) conditions.push(gte(auditLog.at, q.from));
      if (q.to) conditions.push(lte(auditLog.at, q.to));
      const where = conditions.length ? and(...conditions) : undefined;
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(auditLog)
          .where(where)
          .orderBy(desc(auditLog.at), desc(auditLog.id))
          .offset(q.skip)
          .limit(q.take),
        db.select({ n: count() }).from(auditLog).where(where),
      ]);
      return { rows, total: total?.n ?? 0 };
    },
  };
}

export type AuditRepo = ReturnType<typeof createAuditRepo>;
