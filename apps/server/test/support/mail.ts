import { mailBodyAt } from '../../src/modules/mail/outbox-repo';
import type { TestApp } from './app';

/** The mail sent to `email`, oldest first, bodies opened as the admin's outbox opens them. */
export async function mailsTo(t: TestApp, email: string): Promise<{ subject: string; text: string }[]> {
  const { rows } = await t.db.pool.query(
    `SELECT id, subject, body_sealed FROM mail_outbox WHERE "to" = $1 ORDER BY created_at, id`,
    [email],
  );
  return rows.map((r) => ({
    subject: r.subject,
    text: t.app.services.sealer.open(r.body_sealed, mailBodyAt(r.id)),
  }));
}
