import { count, desc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import type { SealedAt } from '../../lib/crypto';
import { mailOutbox } from '../../db/schema/index';

/** Where a mail's body is sealed (issue 20). */
export const mailBodyAt = (mailId: string): SealedAt => ({
  table: 'mail_outbox',
  column: 'body_sealed',
  row: mailId,
});

export type OutboxRepo = ReturnType<typeof createOutboxRepo>;

/** Every mail sent, its body sealed, and whether its delivery went through. */
export function createOutboxRepo(db: Database) {
  return {
    /** The new row's id (chosen by the caller, which seals the body to it). */
    async insert(mail: { id: string; to: string; subject: string; bodySealed: string }): Promise<string> {
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
