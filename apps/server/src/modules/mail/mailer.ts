import { randomUUID } from 'node:crypto';
import type { OutboxMail } from '@kairos/contract';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { Sealer } from '../../lib/crypto';
import { mailBodyAt, type OutboxRepo } from './outbox-repo';

export type Mail = { to: string; subject: string; text: string };
export type Mailer = { send(mail: Mail): Promise<void> };

/**
 * Mail through SMTP (`SMTP_URL`) when configured. Every mail is also kept, sealed, in the outbox table;
 * without SMTP the outbox is the delivery channel (an admin reads it: GET /admin/outbox, the Outbox page).
 * The log never carries a mail's text: reset links hold tokens.
 */
export function createMailer(deps: {
  outbox: OutboxRepo;
  sealer: Sealer;
  smtpUrl: string | undefined;
  from?: string;
  log: FastifyBaseLogger;
}): Mailer {
  const transport = deps.smtpUrl ? nodemailer.createTransport(deps.smtpUrl) : undefined;
  const from = deps.from ?? 'Kairos <no-reply@kairos.local>';
  return {
    async send(mail) {
      const id = randomUUID();
      await deps.outbox.insert({
        id,
        to: mail.to,
        subject: mail.subject,
        bodySealed: deps.sealer.seal(mail.text, mailBodyAt(id)),
      });
      if (!transport) {
        deps.log.info(
          { mailId: id, subject: mail.subject },
          'a mail waits in the outbox (no SMTP_URL): an admin reads it under Admin → Outbox',
        );
        return;
      }
      try {
        await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text });
        await deps.outbox.markSent(id);
      } catch (e) {
        deps.log.error({ err: e, mailTo: mail.to }, 'mail delivery failed');
        await deps.outbox.markFailed(id, e instanceof Error ? e.message : String(e));
      }
    },
  };
}

/** The outbox as the admin reads it: bodies opened, newest first. */
export function createOutboxService(deps: { outbox: OutboxRepo; sealer: Sealer }) {
  return {
    async list(q: { skip: number; take: number }): Promise<{
      results: OutboxMail[];
      total: number;
      skip: number;
      take: number;
    }> {
      const { rows, total } = await deps.outbox.list(q);
      return {
        results: rows.map((row) => ({
          id: row.id,
          to: row.to,
          subject: row.subject,
          body: deps.sealer.open(row.bodySealed, mailBodyAt(row.id)),
          status: row.sentAt ? 'sent' : row.error ? 'failed' : 'waiting',
          error: row.error,
          createdAt: row.createdAt.toISOString(),
          sentAt: row.sentAt?.toISOString() ?? null,
        })),
        total,
        skip: q.skip,
        take: q.take,
      };
    },
  };
}
