import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app';
import { startTestAlertWorker, waitForAlert } from '../support/engine';
import { registerUser, TEST_ADMIN_SETUP_TOKEN, totpCode, uniqueEmail, type Session } from '../support/users';
import { BinanceTestServer } from '../fakes/binance-server';
import { callApi, type Reply } from './world';

/**
 * No secret in any response or log line (DESIGN §3, §4): a whole user story — register, 2FA, a Binance
 * account through ccxt, strategies, webhooks processed into orders, live updates, password changes and a
 * reset — with the app's own logger at trace level, then every response body, every log line and every
 * table searched for every secret. Each secret may appear only where it is handed over: tokens in the
 * answer that issues them, the TOTP secret in enable-2fa, the webhook secret to the strategy's owner,
 * and the reset link in the mail log when there is no SMTP (docs/decisions.md).
 */
const ADMIN_EMAIL = 'secrets-admin@example.com';
const KEYS = { apiKey: 'secretsKeyAAAA0000000000000001', secret: 'binance-secret-AAAA-0000001' };
const ROTATED = { apiKey: 'secretsKeyBBBB0000000000000002', secret: 'binance-secret-BBBB-0000002' };
const PASSWORDS = {
  first: 'first-long-passphrase-9x1',
  second: 'second-long-passphrase-8y2',
  third: 'third-long-passphrase-7z3',
  wrong: 'wrong-guess-passphrase-6w4',
};
const WRONG_WEBHOOK_SECRET = 'guessed-webhook-secret-0000000000';

type Secret = {
  value: string;
  what: string;
  /** Responses allowed to carry it (its documented hand-over). */
  allowedIn: Set<number>;
};

const logLines: string[] = [];
const logStream = new Writable({
  write(chunk, _encoding, done) {
    logLines.push(...String(chunk).split('\n').filter(Boolean));
    done();
  },
});

let venue: BinanceTestServer;
let t: TestApp;
const responses: Array<{ label: string; body: string }> = [];
const secrets: Secret[] = [];

function secret(value: string, what: string, allowedIn: number[] = []) {
  secrets.push({ value, what, allowedIn: new Set(allowedIn) });
}

/** Every call is recorded; returns the reply and its index (to allow a secret in it). */
async function call(
  label: string,
  who: Session | undefined,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  body?: unknown,
): Promise<Reply & { index: number }> {
  const reply = await callApi(t, who, method, url, body);
  responses.push({ label: `${label} (${method} ${url})`, body: reply.body });
  return { ...reply, index: responses.length - 1 };
}

function expectStatus(reply: Reply, status: number) {
  expect(reply.status, reply.body).toBe(status);
}

/** A session from an answer that hands out tokens; its tokens may appear in that answer only. */
function sessionFrom(reply: Reply & { index: number }, email: string): Session {
  const r = reply.json().results;
  secret(r.apiToken, 'apiToken', [reply.index]);
  secret(r.refreshToken, 'refreshToken', [reply.index]);
  return { email, apiToken: r.apiToken, refreshToken: r.refreshToken, user: r.user };
}

beforeAll(async () => {
  venue = await BinanceTestServer.start({
    accounts: [
      { ...KEYS, balances: { USDT: '10000' } },
      { ...ROTATED, balances: { USDT: '5000' } },
    ],
  });
  t = await createTestApp(
    { KAIROS_ADMIN_EMAIL: ADMIN_EMAIL, LOG_LEVEL: 'trace' },
    { logStream, venueUrls: venue.venueUrls() },
  );
  await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await t.close();
  await venue.close();
});

describe('no secret in any response, log line or table', () => {
  it('runs the whole story', async () => {
    for (const [what, value] of Object.entries(PASSWORDS)) secret(value, `password (${what})`);
    secret(KEYS.apiKey, 'exchange API key');
    secret(KEYS.secret, 'exchange API secret');
    secret(ROTATED.apiKey, 'rotated exchange API key');
    secret(ROTATED.secret, 'rotated exchange API secret');
    secret(WRONG_WEBHOOK_SECRET, 'guessed webhook secret');
    secret(TEST_ADMIN_SETUP_TOKEN, 'admin setup token (the operator chose it: never echoed)');

    const email = uniqueEmail('alice');
    const register = await call('register', undefined, 'POST', '/auth/register', {
      email,
      password: PASSWORDS.first,
      confirm_password: PASSWORDS.first,
    });
    expectStatus(register, 201);
    let alice: Session;
    const admin = await registerUser(t.app, ADMIN_EMAIL);
    const bob = await registerUser(t.app);

    // A wrong password, then a good login and a refresh.
    expectStatus(
      await call('wrong password', undefined, 'POST', '/auth/login', { email, password: PASSWORDS.wrong }),
      401,
    );
    const login = await call('login', undefined, 'POST', '/auth/login', { email, password: PASSWORDS.first });
    expectStatus(login, 200);
    alice = sessionFrom(login, email);
    const refresh = await call('refresh', undefined, 'POST', '/auth/refresh', {
      refreshToken: alice.refreshToken,
    });
    expectStatus(refresh, 200);
    alice = sessionFrom(refresh, email);

    // 2FA on: the secret is handed over once, by enable-2fa.
    const enable = await call('enable 2FA', alice, 'POST', '/auth/enable-2fa', {
      email,
      password: PASSWORDS.first,
    });
    expectStatus(enable, 200);
    const totp = enable.json().secret as string;
    secret(totp, 'TOTP secret', [enable.index]);
    // The otpauth URI and QR code carry it too, in the same answer.
    const verify = await call('verify 2FA', alice, 'POST', '/auth/verify-2fa', {
      email,
      code: totpCode(totp),
    });
    expectStatus(verify, 200);
    // The ten recovery codes are handed over once, by verify-2fa.
    for (const code of verify.json().results.recoveryCodes as string[]) {
      secret(code, 'recovery code', [verify.index]);
      secret(code.replace('-', ''), 'recovery code (typed)');
    }
    alice = sessionFrom(verify, email);
    const verified = alice;
    const needsCode = await call('login without code', undefined, 'POST', '/auth/login', {
      email,
      password: PASSWORDS.first,
    });
    expect(needsCode.json().results).toEqual({ requires2FA: true });
    const withCode = await call('login with code', undefined, 'POST', '/auth/login', {
      email,
      password: PASSWORDS.first,
      code: totpCode(totp, Date.now() + 30_000),
    });
    expectStatus(withCode, 200);
    alice = sessionFrom(withCode, email);

    // A Binance account through ccxt, then its keys rotated.
    const account = await call('connect Binance', alice, 'POST', '/api/trading-accounts', {
      nickname: 'Binance',
      exchange: 'binance',
      apiKey: KEYS.apiKey,
      apiSecret: KEYS.secret,
    });
    expectStatus(account, 201);
    const accountId = account.json().results.id as string;
    expect(account.json().results.apiKeyMask).toMatch(/…/);
    expectStatus(
      await call('rotate keys', alice, 'PUT', `/api/trading-accounts/${accountId}`, {
        apiKey: ROTATED.apiKey,
        apiSecret: ROTATED.secret,
      }),
      200,
    );
    expectStatus(
      await call('refused keys', alice, 'POST', '/api/trading-accounts', {
        nickname: 'Wrong keys',
        exchange: 'binance',
        apiKey: `${KEYS.apiKey}X`,
        apiSecret: `${KEYS.secret}X`,
      }),
      422,
    );
    secret(`${KEYS.apiKey}X`, 'refused API key');
    secret(`${KEYS.secret}X`, 'refused API secret');
    for (const url of [
      '/api/trading-accounts',
      `/market/pairs?accountId=${accountId}`,
      `/market/BTC-USDT?accountId=${accountId}`,
      '/portfolio',
      '/user/profile',
    ]) {
      expectStatus(await call('read', alice, 'GET', url), 200);
    }

    // Strategies: the webhook secret goes to its owner only.
    const created = await call('create strategy', alice, 'POST', '/api/strategies', {
      nickname: 'BTC swing',
      tradeCurrency: 'BTC',
      timeFrame: '1h',
      takeProfits: [{ percent: 1, sizePercent: 100 }],
    });
    expectStatus(created, 201);
    const strategy = created.json().results;
    const ownerReads = [created.index];
    for (const url of ['/api/strategies', `/api/strategies/${strategy.id}`]) {
      const read = await call('owner reads strategy', alice, 'GET', url);
      expectStatus(read, 200);
      ownerReads.push(read.index);
    }
    const rotated = await call('rotate webhook secret', alice, 'PUT', `/api/strategies/${strategy.id}`, {
      rotateWebhookSecret: true,
    });
    expectStatus(rotated, 200);
    ownerReads.push(rotated.index);
    secret(strategy.webhookSecret, 'webhook secret (before rotation)', ownerReads);
    const webhookSecret = rotated.json().results.webhookSecret as string;
    secret(webhookSecret, 'webhook secret', [...ownerReads]);
    for (const who of [bob, admin]) {
      expectStatus(await call('another user lists strategies', who, 'GET', '/api/strategies'), 200);
      expectStatus(
        await call('another user reads the strategy', who, 'GET', `/api/strategies/${strategy.id}`),
        404,
      );
    }

    // A bot on the Binance account; webhooks in, orders out through ccxt.
    const bot = await call('create bot', alice, 'POST', '/api/bots', {
      nickname: 'Binance bot',
      strategyId: strategy.id,
      tradingAccountId: accountId,
      fixedAmount: 100,
      isActive: true,
    });
    expectStatus(bot, 201);
    const hook = (body: Record<string, unknown>) =>
      t.app.inject({
        method: 'POST',
        url: '/webhooks/tradingview',
        payload: { strategyKey: strategy.strategyKey, ...body },
      });
    const wrong = await hook({ secret: WRONG_WEBHOOK_SECRET, action: 'long' });
    responses.push({ label: 'webhook with a wrong secret', body: wrong.body });
    expect(wrong.statusCode).toBe(401);
    const signal = await hook({ secret: webhookSecret, action: 'long', id: 'secrets-1' });
    responses.push({ label: 'webhook', body: signal.body });
    const textPlain = await t.app.inject({
      method: 'POST',
      url: `/webhooks/${strategy.strategyKey}`,
      headers: { 'content-type': 'text/plain' },
      payload: JSON.stringify({ secret: webhookSecret, action: 'exit', id: 'secrets-2' }),
    });
    responses.push({ label: 'text/plain webhook', body: textPlain.body });
    const worker = startTestAlertWorker(t, 'secrets-worker');
    try {
      expect(await waitForAlert(t, signal.json().results.alertId)).toBe('succeeded');
      expect(await waitForAlert(t, textPlain.json().results.alertId)).toBe('succeeded');
    } finally {
      await worker.stop();
    }
    expect(venue.requests.some((r) => r.method === 'POST' && r.path === '/api/v3/order')).toBe(true);
    const trades = await call('trades', alice, 'GET', `/api/trades?bot_id=${bot.json().results.id}`);
    expectStatus(trades, 200);
    for (const url of [
      `/admin/alerts?strategyKey=${strategy.strategyKey}`,
      `/admin/alerts/${signal.json().results.alertId}`,
      '/admin/audit',
    ]) {
      expectStatus(await call('admin reads', admin, 'GET', url), 200);
    }

    // Live updates: EventSource cannot send headers, so a single-use ticket travels in the query string
    // (never the access token); it may appear in the answer that hands it out only.
    const ticketReply = await call('stream ticket', alice, 'POST', '/api/events/ticket');
    expectStatus(ticketReply, 200);
    const ticket = ticketReply.json().results.ticket as string;
    secret(ticket, 'stream ticket', [ticketReply.index]);
    const port = (t.app.server.address() as AddressInfo).port;
    const abort = new AbortController();
    const stream = await fetch(`http://127.0.0.1:${port}/api/events?ticket=${encodeURIComponent(ticket)}`, {
      signal: abort.signal,
    });
    expect(stream.status).toBe(200);
    await stream.body!.getReader().read();
    abort.abort();

    // Signed out of one session; the password changed with the current one, then reset through the mail.
    expectStatus(await call('logout', verified, 'POST', '/auth/logout'), 200);
    expectStatus(
      await call('change password', alice, 'POST', '/auth/change-pass', {
        email,
        password: PASSWORDS.second,
        confirm_password: PASSWORDS.second,
        currentPassword: PASSWORDS.first,
      }),
      200,
    );
    expectStatus(await call('forgot password', undefined, 'POST', '/auth/forgot-pass', { email }), 200);
    // Without SMTP the mail waits in the outbox, which only an admin reads (and the log never carries it).
    expect(logLines.some((l) => l.includes('a mail waits in the outbox'))).toBe(true);
    const outbox = await call('admin reads the outbox', admin, 'GET', '/admin/outbox?take=5');
    expectStatus(outbox, 200);
    const resetMail = (outbox.json().results as { to: string; body: string }[]).find(
      (m) => m.to === email && m.body.includes('reset-password?token='),
    );
    expect(resetMail, 'the reset mail is in the outbox').toBeDefined();
    const resetToken = decodeURIComponent(/reset-password\?token=([^&\s"]+)/.exec(resetMail!.body)![1]!);
    secret(resetToken, 'password reset token', [outbox.index]);
    expectStatus(
      await call('reset password', undefined, 'POST', '/auth/change-pass', {
        email,
        password: PASSWORDS.third,
        confirm_password: PASSWORDS.third,
        token: resetToken,
      }),
      200,
    );
    const relogin = await call('login after reset', undefined, 'POST', '/auth/login', {
      email,
      password: PASSWORDS.third,
    });
    expect(relogin.json().results).toEqual({ requires2FA: true });
    expect(responses.length).toBeGreaterThan(30);
  });

  it('puts no secret in a response except where it is handed over', () => {
    for (const s of secrets) {
      responses.forEach((r, i) => {
        if (s.allowedIn.has(i)) return;
        expect(
          r.body.includes(s.value),
          `${s.what} in the answer to ${r.label}: ${r.body.slice(0, 400)}`,
        ).toBe(false);
      });
    }
  });

  it('puts no secret in a log line, the reset link included', () => {
    expect(logLines.length).toBeGreaterThan(50);
    for (const s of secrets) {
      for (const line of logLines) {
        expect(line.includes(s.value), `${s.what} in a log line: ${line.slice(0, 600)}`).toBe(false);
      }
    }
  });

  it('keeps every secret sealed or hashed at rest', async () => {
    const { rows: tables } = await t.db.pool.query(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`,
    );
    for (const { table_name: table } of tables as { table_name: string }[]) {
      const { rows } = await t.db.pool.query(`SELECT t::text AS row FROM "${table}" t`);
      for (const { row } of rows as { row: string }[]) {
        for (const s of secrets) expect(row.includes(s.value), `${s.what} in table ${table}`).toBe(false);
      }
    }
  });
});
