import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { Sealer } from '../../lib/crypto';
import type { OutboxRepo } from './outbox-repo';

export type Mail = { to: string; subject: string; text: string };
export type Mailer = { send(mail: Mail): Promise<void> };

/**
 * Mail through SMTP (`SMTP_URL`) when configured. Every mail is also kept, sealed, in the
 * outbox table; without SMTP the outbox and the server log are the delivery channel.
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
      const id = await deps.outbox.insert({
        to: mail.to,
        subject: mail.subject,
        bodySealed: deps.sealer.seal(mail.text),
      });
      if (!transport) {
        deps.log.info(
          { mailTo: mail.to, subject: mail.subject, text: mail.text },
          'mail (no SMTP_URL: kept in outbox)',
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
