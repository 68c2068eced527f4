import { describe, expect, it } from 'vitest';
import { onAccountVenues } from './account-venues';

/**
 * What connecting (or re-keying) an account checks before Kairos trades on it, on each venue's own protocol:
 * a futures account in hedge mode is refused with how to switch (Kairos keeps one position per symbol; the
 * venue would refuse every order at the first trade), and so is a key that cannot trade the account's market.
 */
const key = (name: string) => ({ apiKey: `${name}Key000000000000001`, secret: `${name}-secret` });
const BINANCE_HEDGE = key('bnHedge');
const BINANCE_ONEWAY = key('bnOneWay');
const BINANCE_SPOT_ONLY = key('bnSpotOnly');
const BYBIT_HEDGE = key('bbHedge');
const BYBIT_ONEWAY = key('bbOneWay');
const BYBIT_READ_ONLY = key('bbReadOnly');
const BYBIT_UNREPORTED = key('bbUnreported');
const OKX_HEDGE = { ...key('okHedge'), passphrase: 'Hedge-pass1' };
const OKX_NET = { ...key('okNet'), passphrase: 'Net-pass1' };
const OKX_READ_ONLY = { ...key('okReadOnly'), passphrase: 'Read-pass1' };

const venues = onAccountVenues({
  binance: [
    { ...BINANCE_HEDGE, futuresWallet: '1000', dualSidePosition: true },
    { ...BINANCE_ONEWAY, futuresWallet: '1000' },
    { ...BINANCE_SPOT_ONLY, futuresWallet: '1000', balances: { USDT: '1000' }, enableFutures: false },
  ],
  bybit: [
    { ...BYBIT_HEDGE, wallet: { USDT: '1000' }, hedgeMode: true },
    { ...BYBIT_ONEWAY, wallet: { USDT: '1000' } },
    { ...BYBIT_READ_ONLY, wallet: { USDT: '1000' }, readOnly: true },
    { ...BYBIT_UNREPORTED, wallet: { USDT: '1000' }, canWithdraw: 'unreported' },
  ],
  okx: [
    { ...OKX_HEDGE, balances: { USDT: '1000' }, posMode: 'long_short_mode' },
    { ...OKX_NET, balances: { USDT: '1000' } },
    { ...OKX_READ_ONLY, balances: { USDT: '1000' }, readOnly: true },
  ],
});

const connect = (body: Record<string, unknown>) =>
  venues.api().post('/api/trading-accounts', { nickname: `${body.exchange}`, ...body });

describe('connecting a futures account in hedge mode', () => {
  it.each([
    [
      'binanceusdm',
      BINANCE_HEDGE,
      /Binance Futures is in hedge mode.*Preferences → Position Mode.*One-way Mode/,
    ],
    ['binance', BINANCE_HEDGE, /Binance Futures is in hedge mode/],
    ['bybit', BYBIT_HEDGE, /Bybit is in hedge mode.*Position Mode.*One-Way Mode/],
    ['okx', OKX_HEDGE, /OKX is in long\/short mode.*One-way mode \(net\)/],
  ])('is refused on %s, saying how to switch to one-way mode', async (exchange, keys, message) => {
    const res = await connect({
      exchange,
      marketType: 'future',
      apiKey: keys.apiKey,
      apiSecret: keys.secret,
      ...('passphrase' in keys ? { passphrase: keys.passphrase } : {}),
    });
    expect([res.status, res.body.error]).toEqual([422, 'HEDGE_MODE']);
    expect(res.body.message).toMatch(message);
    const accounts = (await venues.api().get('/api/trading-accounts')).body.results;
    expect(accounts.filter((a: { exchange: string }) => a.exchange === exchange)).toEqual([]);
  });

  it.each([
    ['binanceusdm', BINANCE_ONEWAY],
    ['bybit', BYBIT_ONEWAY],
    ['okx', OKX_NET],
  ])('is accepted on %s in one-way mode', async (exchange, keys) => {
    const res = await connect({
      exchange,
      marketType: 'future',
      apiKey: keys.apiKey,
      apiSecret: keys.secret,
      ...('passphrase' in keys ? { passphrase: keys.passphrase } : {}),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  });

  it('refuses re-keying an account onto a hedge-mode key', async () => {
    const created = await connect({
      exchange: 'binanceusdm',
      nickname: 'rekey',
      marketType: 'future',
      apiKey: BINANCE_ONEWAY.apiKey,
      apiSecret: BINANCE_ONEWAY.secret,
    });
    expect(created.status).toBe(201);
    const res = await venues.api().put(`/api/trading-accounts/${created.body.results.id}`, {
      apiKey: BINANCE_HEDGE.apiKey,
      apiSecret: BINANCE_HEDGE.secret,
    });
    expect([res.status, res.body.error]).toEqual([422, 'HEDGE_MODE']);
  });
});

describe('connecting a key that cannot trade the market type', () => {
  it.each([
    ['binanceusdm', 'future', BINANCE_SPOT_ONLY],
    ['bybit', 'future', BYBIT_READ_ONLY],
    ['okx', 'spot', OKX_READ_ONLY],
  ])('is refused on %s (%s)', async (exchange, marketType, keys) => {
    const res = await connect({
      exchange,
      marketType,
      apiKey: keys.apiKey,
      apiSecret: keys.secret,
      ...('passphrase' in keys ? { passphrase: keys.passphrase } : {}),
    });
    expect([res.status, res.body.error]).toEqual([422, 'KEY_CANNOT_TRADE']);
    expect(res.body.message).toBe(
      `This API key cannot trade ${marketType} on ${exchange}. Enable ${marketType} trading for the key, then connect again.`,
    );
  });

  it('accepts a spot account on a key without futures', async () => {
    const res = await connect({
      exchange: 'binance',
      marketType: 'spot',
      apiKey: BINANCE_SPOT_ONLY.apiKey,
      apiSecret: BINANCE_SPOT_ONLY.secret,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  });
});

describe('bots on a Bybit unified account', () => {
  it('share one margin mode (the account’s): a bot in the other mode is refused, on another venue it is not', async () => {
    const api = venues.api();
    const strategy = await api.post('/api/strategies', {
      nickname: 'Margin',
      tradeCurrency: 'BTC',
      timeFrame: '1h',
    });
    const eth = await api.post('/api/strategies', {
      nickname: 'Margin ETH',
      tradeCurrency: 'ETH',
      timeFrame: '1h',
    });
    const accounts = (await api.get('/api/trading-accounts')).body.results as {
      id: string;
      exchange: string;
    }[];
    const bybitAccount = accounts.find((a) => a.exchange === 'bybit')!;
    const binanceAccount = accounts.find((a) => a.exchange === 'binanceusdm')!;
    let made = 0;
    const bot = (strategyId: string, tradingAccountId: string, marginMode: string) =>
      api.post('/api/bots', {
        nickname: `Margin bot ${++made}`,
        strategyId,
        tradingAccountId,
        fixedAmount: 100,
        marginMode,
      });

    expect((await bot(strategy.body.results.id, bybitAccount.id, 'isolated')).status).toBe(201);
    const refused = await bot(eth.body.results.id, bybitAccount.id, 'cross');
    expect([refused.status, refused.body.error]).toEqual([409, 'MARGIN_MODE_SHARED']);
    expect(refused.body.message).toMatch(/whole account’s: the bot ".*" on this account trades isolated/);
    expect((await bot(eth.body.results.id, bybitAccount.id, 'isolated')).status).toBe(201);

    // Binance sets it per symbol: mixed modes on one account are fine.
    expect((await bot(strategy.body.results.id, binanceAccount.id, 'isolated')).status).toBe(201);
    expect((await bot(eth.body.results.id, binanceAccount.id, 'cross')).status).toBe(201);
  });
});

describe('a key whose withdraw permission the venue does not report', () => {
  const body = {
    exchange: 'bybit',
    marketType: 'spot',
    apiKey: BYBIT_UNREPORTED.apiKey,
    apiSecret: BYBIT_UNREPORTED.secret,
  };

  it('is connected only once the user acknowledges the risk, and the acknowledgement is audited', async () => {
    const refused = await connect(body);
    expect([refused.status, refused.body.error]).toEqual([422, 'WITHDRAW_PERMISSION_UNKNOWN']);
    expect(refused.body.message).toMatch(/cannot tell whether this API key can withdraw/);
    const notTrue = await connect({ ...body, withdrawRiskAcknowledged: false });
    expect(notTrue.body.error).toBe('WITHDRAW_PERMISSION_UNKNOWN');

    const accepted = await connect({ ...body, nickname: 'acknowledged', withdrawRiskAcknowledged: true });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(201);
    const { rows } = await venues.t.db.pool.query(
      `SELECT actor_id, action, target, details FROM audit_log WHERE action = 'account.withdraw_risk_acknowledged'`,
    );
    expect(rows).toEqual([
      {
        actor_id: venues.alice.user.id,
        action: 'account.withdraw_risk_acknowledged',
        target: `account:${accepted.body.results.id}`,
        details: expect.objectContaining({
          exchange: 'bybit',
          marketType: 'spot',
          source: 'bybit query-api',
        }),
      },
    ]);
  });

  it('is stored on the account and returned with it, so the app can show it', async () => {
    const before = Date.now();
    const accepted = await connect({ ...body, nickname: 'shown', withdrawRiskAcknowledged: true });
    expect(accepted.status).toBe(201);
    const at = accepted.body.results.withdrawRiskAcknowledgedAt as string;
    expect(Date.parse(at)).toBeGreaterThanOrEqual(before - 1000);
    const listed = (await venues.api().get('/api/trading-accounts')).body.results as {
      id: string;
      withdrawRiskAcknowledgedAt: string | null;
    }[];
    expect(listed.find((a) => a.id === accepted.body.results.id)?.withdrawRiskAcknowledgedAt).toBe(at);
    // A key whose permission the venue reports needs no acknowledgement, and none is shown for it.
    const reported = await connect({
      exchange: 'bybit',
      marketType: 'spot',
      nickname: 'reported',
      apiKey: BYBIT_ONEWAY.apiKey,
      apiSecret: BYBIT_ONEWAY.secret,
      withdrawRiskAcknowledged: true,
    });
    expect(reported.body.results.withdrawRiskAcknowledgedAt).toBeNull();
  });

  it('needs the acknowledgement when an account is re-keyed onto such a key', async () => {
    const account = await connect({
      exchange: 'bybit',
      marketType: 'spot',
      apiKey: BYBIT_ONEWAY.apiKey,
      apiSecret: BYBIT_ONEWAY.secret,
    });
    expect(account.status).toBe(201);
    const rekey = (extra: Record<string, unknown>) =>
      venues.api().put(`/api/trading-accounts/${account.body.results.id}`, {
        apiKey: BYBIT_UNREPORTED.apiKey,
        apiSecret: BYBIT_UNREPORTED.secret,
        ...extra,
      });
    expect(account.body.results.withdrawRiskAcknowledgedAt).toBeNull();
    expect((await rekey({})).body.error).toBe('WITHDRAW_PERMISSION_UNKNOWN');
    const rekeyed = await rekey({ withdrawRiskAcknowledged: true });
    expect(rekeyed.status).toBe(200);
    expect(rekeyed.body.results.withdrawRiskAcknowledgedAt).toEqual(expect.any(String));
    // Back onto a key whose permission the venue reports: the acknowledgement was for the other key.
    const back = await venues.api().put(`/api/trading-accounts/${account.body.results.id}`, {
      apiKey: BYBIT_ONEWAY.apiKey,
      apiSecret: BYBIT_ONEWAY.secret,
    });
    expect(back.status).toBe(200);
    expect(back.body.results.withdrawRiskAcknowledgedAt).toBeNull();
  });
});

describe('a venue Kairos does not know', () => {
  it('is refused at connect with the same code as one it does not offer', async () => {
    const res = await connect({
      exchange: 'notavenue',
      marketType: 'spot',
      apiKey: 'k0000001',
      apiSecret: 's',
    });
    expect([res.status, res.body.error]).toEqual([422, 'UNSUPPORTED_EXCHANGE']);
  });
});

describe('a venue Kairos keeps in its table but does not offer (no protocol server proves it yet)', () => {
  it('is refused at connect and not listed', async () => {
    const res = await connect({
      exchange: 'kraken',
      marketType: 'spot',
      apiKey: 'krakenKey0001',
      apiSecret: 'c2VjcmV0',
    });
    expect([res.status, res.body.error]).toEqual([422, 'UNSUPPORTED_EXCHANGE']);
    expect(res.body.message).toMatch(/^kraken is not offered yet/);
    const listed = (await venues.api().get('/market/exchanges')).body.results as {
      id: string;
    }[];
    expect(listed.map((v) => v.id)).toEqual(['paper', 'binance', 'binanceusdm', 'bybit', 'okx']);
  });
});
