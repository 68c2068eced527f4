import { describe, expect, it } from 'vitest';
import { VenueError } from '../../src/exchange/errors';
import { accountKeyAt } from '../../src/exchange/gateway-provider';
import { refreshError } from '../../src/modules/accounts/refresh-error';
import { onAccountVenues } from './account-venues';
import { createSealer, loadMasterKey } from '../../src/lib/crypto';

/**
 * Issue 21: when an account's balance refresh fails, the account shows why (`lastError`) — and says it with a
 * code and params (`lastErrorCode`, `lastErrorParams`) beside the English, so the web says it in the user's
 * language. One test per way a refresh fails: the venue refuses the key, cannot be reached, asks for a pause;
 * the stored keys do not open; the account's venue is not one Kairos can build.
 */
const key = (name: string) => ({ apiKey: `${name}Key000000000000001`, secret: `${name}-secret` });
const BYBIT_ALICE = key('bbAlice');
const BYBIT_BOB = key('bbBob');
const BINANCE_ALICE = key('bnAlice');
const OKX_ALICE = { ...key('okAlice'), passphrase: 'Alice-pass1' };

const venues = onAccountVenues({
  binance: [{ ...BINANCE_ALICE, balances: { USDT: '700' } }],
  bybit: [
    { ...BYBIT_ALICE, wallet: { USDT: '500' } },
    { ...BYBIT_BOB, wallet: { USDT: '40' } },
  ],
  okx: [{ ...OKX_ALICE, balances: { USDT: '300' } }],
});

const q = async (text: string, params: unknown[] = []) => (await venues.t.db.pool.query(text, params)).rows;

/** Connects a spot account on `exchange` with these keys; its id. */
async function connect(
  exchange: string,
  keys: { apiKey: string; secret: string; passphrase?: string },
): Promise<string> {
  const res = await venues.api().post('/api/trading-accounts', {
    nickname: `${exchange} ${Math.random()}`,
    exchange,
    marketType: 'spot',
    sandbox: false,
    apiKey: keys.apiKey,
    apiSecret: keys.secret,
    ...(keys.passphrase ? { passphrase: keys.passphrase } : {}),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.results.id as string;
}

/** The account as the accounts list answers it. */
async function accountOf(id: string) {
  const list = (await venues.api().get('/api/trading-accounts')).body.results as Record<string, unknown>[];
  return list.find((a) => a.id === id)!;
}

/** Refreshes the account's balance as the scheduled job does; the account as listed after it. */
async function refresh(id: string) {
  await venues.t.app.services.accounts.refreshBalances([id]);
  return accountOf(id);
}

describe('an account whose balance refresh fails says why with a code and params (issue 21)', () => {
  it('the venue refuses the key (revoked): EXCHANGE_AUTH_FAILED with the venue’s name and words', async () => {
    const id = await connect('bybit', BYBIT_ALICE);
    // The key stored for the account is one the venue no longer knows.
    const sealer = createSealer(loadMasterKey(undefined, venues.t.config.dataDir));
    await q('UPDATE trading_accounts SET api_key_sealed = $1, updated_at = now() WHERE id = $2', [
      sealer.seal('revokedKey00000000000001', accountKeyAt(id, 'api_key_sealed')),
      id,
    ]);
    const account = await refresh(id);
    expect(account).toMatchObject({
      status: 'error',
      usdtBalance: '500',
      lastErrorCode: 'EXCHANGE_AUTH_FAILED',
      lastErrorParams: { exchange: 'Bybit', reason: expect.stringMatching(/API key is invalid/) },
    });
    expect(account.lastError).toMatch(/^Bybit refused the API key: .*API key is invalid/);
  });

  it('the stored keys do not open (another account’s moved in): ACCOUNT_KEYS_UNREADABLE', async () => {
    const victim = await connect('bybit', BYBIT_ALICE);
    const own = await connect('bybit', BYBIT_BOB);
    await q(
      `UPDATE trading_accounts SET (api_key_sealed, api_secret_sealed, updated_at) =
         (SELECT api_key_sealed, api_secret_sealed, now() FROM trading_accounts WHERE id = $1) WHERE id = $2`,
      [victim, own],
    );
    expect(await refresh(own)).toMatchObject({
      status: 'error',
      usdtBalance: '40',
      lastError: 'The API keys stored for this account cannot be opened: enter them again',
      lastErrorCode: 'ACCOUNT_KEYS_UNREADABLE',
      lastErrorParams: null,
    });
    // What it says works: the key and secret entered again replace the keys that do not open.
    const rekeyed = await venues.api().put(`/api/trading-accounts/${own}`, {
      apiKey: BYBIT_BOB.apiKey,
      apiSecret: BYBIT_BOB.secret,
    });
    expect(rekeyed.status, JSON.stringify(rekeyed.body)).toBe(200);
    expect(await refresh(own)).toMatchObject({ status: 'active', lastError: null, lastErrorCode: null });
  });

  it('the account’s venue is not one Kairos can build: the gateway’s UNSUPPORTED with its params', async () => {
    const id = await connect('bybit', BYBIT_ALICE);
    await q("UPDATE trading_accounts SET exchange = 'nosuchvenue', updated_at = now() WHERE id = $1", [id]);
    expect(await refresh(id)).toMatchObject({
      status: 'error',
      lastError: 'Unknown exchange: nosuchvenue',
      lastErrorCode: 'UNSUPPORTED',
      lastErrorParams: { variant: 'unknownExchange', exchange: 'nosuchvenue' },
    });
  });

  it('a refresh that works again clears the error, its code and its params', async () => {
    const id = await connect('bybit', BYBIT_ALICE);
    await q(
      `UPDATE trading_accounts SET status = 'error', last_error = 'old', last_error_code = 'EXCHANGE_REFUSED',
         last_error_params = '{"exchange":"Bybit","reason":"old"}' WHERE id = $1`,
      [id],
    );
    expect(await refresh(id)).toMatchObject({
      status: 'active',
      lastError: null,
      lastErrorCode: null,
      lastErrorParams: null,
    });
  });

  it('the venue asks for a pause: EXCHANGE_RATE_LIMITED with the wait in seconds', async () => {
    const id = await connect('binance', BINANCE_ALICE);
    // Longer than the gateway waits in place: the refresh gives up at once.
    venues.binance.failNext({ count: 1, status: 418, retryAfterSeconds: 5 });
    const account = await refresh(id);
    expect(account).toMatchObject({
      status: 'error',
      usdtBalance: '700',
      lastErrorCode: 'EXCHANGE_RATE_LIMITED',
      lastErrorParams: { variant: 'wait', exchange: 'Binance', seconds: 5 },
    });
    expect(account.lastError).toBe('Binance asked Kairos to wait 5 s before calling it again');
  });

  it('the venue cannot be reached: EXCHANGE_UNAVAILABLE with the venue’s name and the failure', async () => {
    const id = await connect('okx', OKX_ALICE);
    await venues.okx.close();
    const account = await refresh(id);
    expect(account).toMatchObject({
      status: 'error',
      usdtBalance: '300',
      lastErrorCode: 'EXCHANGE_UNAVAILABLE',
      lastErrorParams: { exchange: 'OKX', reason: expect.any(String) },
    });
    expect(account.lastError).toMatch(/^Could not connect to OKX: /);
  });
});

describe('the other ways a refresh fails, as the account keeps them', () => {
  it('the venue refuses the read otherwise: EXCHANGE_REFUSED; anything else: BALANCE_REFRESH_FAILED', () => {
    expect(
      refreshError('okx', new VenueError('okx {"code":"50001","msg":"Service temporarily unavailable"}')),
    ).toEqual({
      lastError:
        'OKX refused to give the balance: okx {"code":"50001","msg":"Service temporarily unavailable"}',
      lastErrorCode: 'EXCHANGE_REFUSED',
      lastErrorParams: {
        exchange: 'OKX',
        reason: 'okx {"code":"50001","msg":"Service temporarily unavailable"}',
      },
    });
    expect(refreshError('paper', new Error('connection terminated'))).toEqual({
      lastError: 'Kairos could not read the balance: connection terminated',
      lastErrorCode: 'BALANCE_REFRESH_FAILED',
      lastErrorParams: { reason: 'connection terminated' },
    });
  });
});
