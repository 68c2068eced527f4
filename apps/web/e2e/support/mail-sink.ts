import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/** A mail as the server sent it, decoded to text. */
export interface SentMail {
  to: string;
  subject: string;
  text: string;
  receivedAt: number;
}

function decodeQuotedPrintable(body: string): string {
  const bytes = body
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

function parseMail(raw: string, recipients: string[]): SentMail {
  const split = raw.indexOf('\n\n');
  const head = split === -1 ? raw : raw.slice(0, split);
  const body = split === -1 ? '' : raw.slice(split + 2);
  // Folded header lines continue with whitespace.
  const headers = new Map<string, string>();
  for (const line of head.replace(/\n[ \t]+/g, ' ').split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  const encoding = headers.get('content-transfer-encoding')?.toLowerCase();
  const text =
    encoding === 'quoted-printable'
      ? decodeQuotedPrintable(body)
      : encoding === 'base64'
        ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
        : body;
  return {
    to: (recipients[0] ?? headers.get('to') ?? '').toLowerCase(),
    subject: headers.get('subject') ?? '',
    text,
    receivedAt: Date.now(),
  };
}

/**
 * Just enough SMTP for nodemailer (no TLS, no auth): every mail the server sends is written
 * as JSON into `dir`, where the tests' `waitForMail` reads it.
 */
export async function startMailSink(dir: string): Promise<{ port: number; close: () => Promise<void> }> {
  fs.mkdirSync(dir, { recursive: true });
  const server = net.createServer((socket) => {
    socket.setEncoding('utf8');
    const reply = (line: string) => socket.write(`${line}\r\n`);
    let buffer = '';
    let inData = false;
    let data: string[] = [];
    let recipients: string[] = [];
    reply('220 kairos-e2e ESMTP');
    socket.on('error', () => socket.destroy());
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      let end: number;
      while ((end = buffer.indexOf('\r\n')) !== -1) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            const mail = parseMail(data.join('\n'), recipients);
            const file = `${Date.now()}-${randomBytes(4).toString('hex')}.json`;
            fs.writeFileSync(path.join(dir, file), JSON.stringify(mail));
            data = [];
            recipients = [];
            reply('250 OK: queued');
          } else data.push(line.startsWith('..') ? line.slice(1) : line);
          continue;
        }
        const command = line.slice(0, 4).toUpperCase();
        if (command === 'EHLO') {
          reply('250-kairos-e2e');
          reply('250 8BITMIME');
        } else if (command === 'HELO') reply('250 kairos-e2e');
        else if (command === 'MAIL' || command === 'RSET' || command === 'NOOP') reply('250 OK');
        else if (command === 'RCPT') {
          recipients.push(/<([^>]*)>/.exec(line)?.[1] ?? '');
          reply('250 OK');
        } else if (command === 'DATA') {
          inData = true;
          reply('354 End data with <CR><LF>.<CR><LF>');
        } else if (command === 'QUIT') {
          reply('221 Bye');
          socket.end();
        } else reply('502 Command not implemented');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('mail sink has no port');
  return {
    port: address.port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Every mail received so far in `dir`, oldest first. */
export function readMails(dir: string): SentMail[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as SentMail);
}
