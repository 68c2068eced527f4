import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSealer, loadMasterKey } from '../../src/lib/crypto';
import { call, createStrategy } from '../admin/admin-fixtures';
import { createTestApp, type TestApp } from '../support/app';
import { bearer, GOOD_PASSWORD, registerUser, totpCode } from '../support/users';

/**
 * Issue 20: a sealed value is bound to its table, column and row (AES-GCM associated data, `v2:`), so a
 * database writer who moves one into another column or row cannot have the app open it there; values sealed
 * before (`v1:`) are re-sealed at start.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const q = async (text: string, params: unknown[] = []) => (await t.db.pool.query(text, params)).rows;

describe('sealed values v2', () => {
  it('seals new strategy secrets, 2FA secrets, mail and kept answers as v2', async () => {
    const s = await registerUser(t.app);
    const strategy = await createStrategy(t, s);
    await t.app.inject({
      method: 'POST',
      url: '/auth/enable-2fa',
      headers: bearer(s.apiToken),
      payload: { email: s.email, password: GOOD_PASSWORD },
    });
    await t.app.inject({ method: 'POST', url: '/auth/forgot-pass', payload: { email: s.email } });
    await t.app.inject({
      method: 'PUT',
      url: '/user/settings',
      headers: { ...bearer(s.apiToken), 'idempotency-key': 'sealed-v2-1' },
      payload: { theme: 'light' },
    });
    const [row] = await q('SELECT webhook_secret_sealed AS v FROM strategies WHERE id = $1', [strategy.id]);
    const [user] = await q('SELECT totp_pending_sealed AS v FROM users WHERE email = $1', [s.email]);
    const mail = await q('SELECT body_sealed AS v FROM mail_outbox');
    const kept = await q(`SELECT response->>'sealed' AS v FROM idempotency_keys WHERE key = 'sealed-v2-1'`);
    for (const v of [row.v, user.v, ...mail.map((m) => m.v), kept[0]?.v]) expect(v).toMatch(/^v2:/);
  });

  it('refuses to open a value moved into another row or column', async () => {
    const alice = await registerUser(t.app);
    const mallory = await registerUser(t.app);
    const victim = await createStrategy(t, alice, { nickname: 'Victim' });
    const own = await createStrategy(t, mallory, { nickname: 'Mine' });
    // A database writer copies Alice's sealed webhook secret into Mallory's strategy…
    await q(
      `UPDATE strategies SET webhook_secret_sealed = (SELECT webhook_secret_sealed FROM strategies WHERE id = $1)
       WHERE id = $2`,
      [victim.id, own.id],
    );
    const read = await call(t, mallory, 'GET', `/api/strategies/${own.id}`);
    expect(read.status).toBe(500);
    expect(JSON.stringify(read.body)).not.toContain(victim.webhookSecret);
    // …and a reset mail's sealed body into the strategy's secret column.
    await q(
      `UPDATE strategies SET webhook_secret_sealed = (SELECT body_sealed FROM mail_outbox LIMIT 1)
             WHERE id = $1`,
      [own.id],
    );
    expect((await call(t, mallory, 'GET', `/api/strategies/${own.id}`)).status).toBe(500);
    // The webhook of a strategy whose secret does not open is refused like a wrong secret.
    const hook = await t.app.inject({
      method: 'POST',
      url: '/webhooks/tradingview',
      payload: {
        strategyKey: own.strategyKey,
        secret: victim.webhookSecret,
        action: 'buy',
        symbol: 'BTCUSDT',
      },
    });
    expect(hook.statusCode).toBe(401);
  });

  it('re-seals v1 values as v2 at start, and they still open', async () => {
    const s = await registerUser(t.app);
    const strategy = await createStrategy(t, s, { nickname: 'Old' });
    const v1 = createSealer(loadMasterKey(undefined, t.config.dataDir));
    expect(fs.existsSync(path.join(t.config.dataDir, 'master.key'))).toBe(true);
    const secret = 'JBSWY3DPEHPK3PXP';
    await q('UPDATE strategies SET webhook_secret_sealed = $1 WHERE id = $2', [
      v1.sealUnbound('whsec-legacy'),
      strategy.id,
    ]);
    await q('UPDATE users SET totp_secret_sealed = $1, use_two_fa = true WHERE email = $2', [
      v1.sealUnbound(secret),
      s.email,
    ]);
    await q(
      `INSERT INTO mail_outbox (id, "to", subject, body_sealed) VALUES (gen_random_uuid(), 'x@example.com', 'old', $1)`,
      [v1.sealUnbound('an old mail')],
    );

    const counted = await t.app.services.secrets.resealLegacy();
    expect(counted).toBeGreaterThanOrEqual(3);
    expect(await t.app.services.secrets.resealLegacy()).toBe(0);

    const left =
      await q(`SELECT webhook_secret_sealed AS v FROM strategies WHERE webhook_secret_sealed LIKE 'v1:%'
      UNION ALL SELECT totp_secret_sealed FROM users WHERE totp_secret_sealed LIKE 'v1:%'
      UNION ALL SELECT body_sealed FROM mail_outbox WHERE body_sealed LIKE 'v1:%'`);
    expect(left).toEqual([]);
    const read = await call(t, s, 'GET', `/api/strategies/${strategy.id}`);
    expect(read.body.results.webhookSecret).toBe('whsec-legacy');
    const login = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: s.email, password: GOOD_PASSWORD, code: totpCode(secret) },
    });
    expect(login.statusCode, login.body).toBe(200);
  });
});
