import { count, desc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { mailOutbox } from '../../db/schema/index';

export type OutboxRepo = ReturnType<typeof createOutboxRepo>;

/** Every mail sent, its body sealed, and whether its delivery went through. */
export function createOutboxRepo(db: Database) {
  return {
    /** The new row's id. */
    async insert(mail: { to: string; subject: string; bodySealed: string }): Promise<string> {
      const [row] = await db.insert(mailOutbox).values(mail).returning({ id: mailOutbox.id });
      return row!.id;
    },
    async markSent(id: string): Promise<void> {
      await db.update(mailOutbox).set({ sentAt: new Date() }).where(eq(mailOutbox.id, id));
    },
    async markFailed(id: string, error: string): Promise<void> {
      await db.update(mailOutbox).set({ error }).where(eq(mailOutbox.id, id));
    },
    /** Newest first. */
    async list(q: { skip: number; take: number }) {
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(mailOutbox)
          .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id))
          .offset(q.skip)
          .limit(q.take),
        db.select({ n: count() }).from(mailOutbox),
      ]);
      return { rows, total: total?.n ?? 0 };
    },
  };
}
