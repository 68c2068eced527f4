import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app';
import { registerUser, type Session } from '../support/users';
import { ADMIN_EMAIL, auditRows, call } from './admin-fixtures';

/**
 * Without SMTP, mail waits in the outbox (issue 20): the admin reads it there — bodies opened, newest first,
 * each read audited — and the log only says that a mail waits, never what it says.
 */
let t: TestApp;
let admin: Session;
const logLines: string[] = [];

beforeAll(async () => {
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  t = await createTestApp({ KAIROS_ADMIN_EMAIL: ADMIN_EMAIL, LOG_LEVEL: 'info' }, { logStream });
  admin = await registerUser(t.app, ADMIN_EMAIL);
});
afterAll(async () => {
  await t.close();
});

describe('the mail outbox', () => {
  it("shows the admin each waiting mail whole, newest first, and keeps the reset link's token out of the log", async () => {
    const user = await registerUser(t.app);
    const forgot = await t.app.inject({
      method: 'POST',
      url: '/auth/forgot-pass',
      payload: { email: user.email },
      remoteAddress: '10.0.9.1',
    });
    expect(forgot.statusCode).toBe(200);

    const res = await call(t, admin, 'GET', '/admin/outbox?take=2');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, skip: 0, take: 2 });
    const [latest] = res.body.results;
    expect(latest).toMatchObject({
      to: user.email,
      subject: 'Reset your Kairos password',
      status: 'waiting',
      error: null,
      sentAt: null,
    });
    const token = /reset-password\?token=([^&\s]+)/.exec(latest.body)![1]!;
    expect(decodeURIComponent(token)).toMatch(/^krp_/);
    expect(res.body.total).toBeGreaterThanOrEqual(1);

    // The log says a mail waits; the token is in no line.
    expect(logLines.some((l) => l.includes('a mail waits in the outbox'))).toBe(true);
    expect(logLines.filter((l) => l.includes(decodeURIComponent(token)) || l.includes(token))).toEqual([]);

    // Each read is in the audit log, with the mails it showed.
    const audit = await auditRows(t, 'outbox.read');
    expect(audit.at(-1)).toMatchObject({ outcome: 'ok', details: { mails: [latest.id] } });
  });

  it('refuses a page size it does not serve, with a clear error', async () => {
    const res = await call(t, admin, 'GET', '/admin/outbox?take=1000');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: 'VALIDATION_ERROR' });
  });
});
