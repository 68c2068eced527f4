import { inject } from 'vitest';
import { type SentMail, readMails } from './mail-sink';

export type { SentMail };

/** Waits for a mail to `to` received after `since` (ms epoch; default: any), newest first. */
export async function waitForMail(
  to: string,
  options: { since?: number; subject?: RegExp; timeoutMs?: number } = {},
): Promise<SentMail> {
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  for (;;) {
    const mail = readMails(inject('mailDir'))
      .reverse()
      .find(
        (candidate) =>
          candidate.to === to.toLowerCase() &&
          candidate.receivedAt >= (options.since ?? 0) &&
          (!options.subject || options.subject.test(candidate.subject)),
      );
    if (mail) return mail;
    if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${options.timeoutMs ?? 10_000} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The first http(s) link in a mail's text. */
export function linkIn(mail: SentMail): URL {
  const match = /https?:\/\/\S+/.exec(mail.text);
  if (!match) throw new Error(`no link in the mail "${mail.subject}"`);
  return new URL(match[0]);
}
