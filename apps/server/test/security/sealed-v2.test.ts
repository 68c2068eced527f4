import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSealer, loadMasterKey, UnreadableSealedValueError } from '../../src/lib/crypto';
import { call, createStrategy } from '../admin/admin-fixtures';
import { BybitTestServer } from '../fakes/bybit-server';
import { createTestApp, type TestApp } from '../support/app';
import { asUser } from '../support/trades-app';
import { bearer, GOOD_PASSWORD, registerUser, totpCode, type Session } from '../support/users';

/**
 * Issue 20: a sealed value is bound to its table, column and row (AES-GCM associated data, `v2:`), so a
 * database writer who moves one into another column or row cannot have the app open it there; values sealed
 * before (`v1:`) are re-sealed at start.
 */
const ALICE_KEYS = { apiKey: 'aliceKey0000000000000001', secret: 'alice-secret' };
const MALLORY_KEYS = { apiKey: 'malloryKey00000000000001', secret: 'mallory-secret' };

let bybit: BybitTestServer;
let t: TestApp;
beforeAll(async () => {
  bybit = await BybitTestServer.start({
    accounts: [
      { ...ALICE_KEYS, wallet: { USDT: '25000' } },
      { ...MALLORY_KEYS, wallet: { USDT: '40' } },
    ],
  });
  t = await createTestApp({}, { venueUrls: bybit.venueUrls() });
});
afterAll(async () => {
  await t.close();
  await bybit.close();
});

const q = async (text: string, params: unknown[] = []) => (await t.db.pool.query(text, params)).rows;

/** Connects a Bybit futures account with these keys; its id. */
async function connect(who: Session, keys: typeof ALICE_KEYS): Promise<string> {
  const res = await asUser(t.app, who).post('/api/trading-accounts', {
    nickname: 'Bybit',
    exchange: 'bybit',
    marketType: 'future',
    sandbox: false,
    apiKey: keys.apiKey,
    apiSecret: keys.secret,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.results.id as string;
}

/** The user's account as the accounts list shows it. */
async function accountOf(who: Session, id: string) {
  const list = (await asUser(t.app, who).get('/api/trading-accounts')).body.results as {
    id: string;
    usdtBalance: string;
    status: string;
  }[];
  return list.find((a) => a.id === id)!;
}

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

  it("seals exchange keys as v2: another account's keys moved into a row do not open there", async () => {
    const alice = await registerUser(t.app);
    const mallory = await registerUser(t.app);
    const victim = await connect(alice, ALICE_KEYS);
    const own = await connect(mallory, MALLORY_KEYS);
    const [row] = await q(
      'SELECT api_key_sealed, api_secret_sealed, passphrase_sealed FROM trading_accounts WHERE id = $1',
      [victim],
    );
    expect(row.api_key_sealed).toMatch(/^v2:/);
    expect(row.api_secret_sealed).toMatch(/^v2:/);
    // A database writer copies Alice's sealed keys into Mallory's account…
    await q(
      `UPDATE trading_accounts SET (api_key_sealed, api_secret_sealed, updated_at) =
         (SELECT api_key_sealed, api_secret_sealed, now() FROM trading_accounts WHERE id = $1) WHERE id = $2`,
      [victim, own],
    );
    await t.app.services.accounts.refreshBalances([own]);
    // …and Mallory's account does not reach Alice's wallet with them: it shows an error, not her balance.
    const account = await accountOf(mallory, own);
    expect(account.status).toBe('error');
    expect(Number(account.usdtBalance)).toBe(40);
  });

  it('re-seals v1 values as v2 at start, and they still open', async () => {
    const s = await registerUser(t.app);
    const strategy = await createStrategy(t, s, { nickname: 'Old' });
    const account = await connect(s, MALLORY_KEYS);
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
    await q(
      'UPDATE trading_accounts SET api_key_sealed = $1, api_secret_sealed = $2, updated_at = now() WHERE id = $3',
      [v1.sealUnbound(MALLORY_KEYS.apiKey), v1.sealUnbound(MALLORY_KEYS.secret), account],
    );

    const counted = await t.app.services.secrets.resealLegacy();
    expect(counted).toBeGreaterThanOrEqual(5);
    expect(await t.app.services.secrets.resealLegacy()).toBe(0);

    const left =
      await q(`SELECT webhook_secret_sealed AS v FROM strategies WHERE webhook_secret_sealed LIKE 'v1:%'
      UNION ALL SELECT totp_secret_sealed FROM users WHERE totp_secret_sealed LIKE 'v1:%'
      UNION ALL SELECT body_sealed FROM mail_outbox WHERE body_sealed LIKE 'v1:%'
      UNION ALL SELECT api_key_sealed FROM trading_accounts WHERE api_key_sealed LIKE 'v1:%'
      UNION ALL SELECT api_secret_sealed FROM trading_accounts WHERE api_secret_sealed LIKE 'v1:%'`);
    expect(left).toEqual([]);
    // The account's re-sealed keys still reach its own wallet.
    await q("UPDATE trading_accounts SET usdt_balance = '0' WHERE id = $1", [account]);
    await t.app.services.accounts.refreshBalances([account]);
    expect(await accountOf(s, account)).toMatchObject({ status: 'active', usdtBalance: '40' });
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

describe('a sealed value that does not open', () => {
  const sealer = createSealer(Buffer.alloc(32, 7));
  const at = { table: 'trading_accounts', column: 'api_key_sealed', row: 'a1' };

  it('says so by its own error, whatever the reason, so callers tell it from any other failure', () => {
    const sealed = sealer.seal('key', at);
    expect(sealer.open(sealed, at)).toBe('key');
    const refusals = [
      () => sealer.open(sealed, { ...at, row: 'a2' }), // moved to another row
      () => createSealer(Buffer.alloc(32, 8)).open(sealed, at), // another master key
      () => sealer.open('v3:abc', at), // not our format
      () => sealer.open(sealer.sealUnbound('key'), at), // a v1 value where a v2 is due
      () => sealer.open(sealed), // a v2 value without its place
    ];
    for (const refusal of refusals) expect(refusal).toThrow(UnreadableSealedValueError);
  });
});
