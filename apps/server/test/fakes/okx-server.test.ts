import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OkxTestServer, okxSignature } from './okx-server';

/** The protocol server itself, driven with a raw HTTP client signing as OKX's REST authentication says. */
describe('OKX protocol test server', () => {
  const TRADER = { apiKey: 'okxRawTrader0001', secret: 'raw-secret-1', passphrase: 'Raw-pass-1' };
  const MAKER = { apiKey: 'okxRawMaker0002', secret: 'raw-secret-2', passphrase: 'Raw-pass-2' };
  const DEMO = { apiKey: 'okxRawDemo0003', secret: 'raw-secret-3', passphrase: 'Raw-pass-3' };
  let venue: OkxTestServer;

  beforeAll(async () => {
    venue = await OkxTestServer.start({
      accounts: [
        { ...TRADER, balances: { USDT: '5000' } },
        { ...MAKER, balances: { BTC: '1' } },
        { ...DEMO, balances: { USDT: '100' }, demo: true },
      ],
    });
  });
  afterAll(() => venue.close());

  type Keys = { apiKey: string; secret: string; passphrase: string };
  type Answer = { status: number; body: { code: string; msg: string; data: Record<string, string>[] } };

  async function call(
    keys: Keys | null,
    method: 'GET' | 'POST',
    requestPath: string,
    payload?: unknown,
    overrides: { timestamp?: string; headers?: Record<string, string> } = {},
  ): Promise<Answer> {
    const body = payload === undefined ? '' : JSON.stringify(payload);
    const timestamp = overrides.timestamp ?? new Date().toISOString();
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (keys) {
      headers['OK-ACCESS-KEY'] = keys.apiKey;
      headers['OK-ACCESS-PASSPHRASE'] = keys.passphrase;
      headers['OK-ACCESS-TIMESTAMP'] = timestamp;
      headers['OK-ACCESS-SIGN'] = okxSignature(keys.secret, timestamp, method, requestPath, body);
    }
    const response = await fetch(`${venue.origin}${requestPath}`, {
      method,
      headers: { ...headers, ...overrides.headers },
      ...(body ? { body } : {}),
    });
    return { status: response.status, body: (await response.json()) as Answer['body'] };
  }

  it("signs as the documentation's example: base64 HMAC-SHA256 of timestamp + method + path with query + body", async () => {
    const timestamp = '2020-12-08T09:08:57.715Z';
    expect(
      okxSignature('22582BD0CFF14C41EDBF1AB98506286D', timestamp, 'GET', '/api/v5/account/balance?ccy=BTC'),
    ).toBe(
      createHmac('sha256', '22582BD0CFF14C41EDBF1AB98506286D')
        .update(`${timestamp}GET/api/v5/account/balance?ccy=BTC`)
        .digest('base64'),
    );
    const balance = await call(TRADER, 'GET', '/api/v5/account/balance?ccy=USDT');
    expect(balance.status).toBe(200);
    expect(balance.body.code).toBe('0');
    expect(balance.body.data[0]).toMatchObject({
      details: [{ ccy: 'USDT', cashBal: '5000', eq: '5000', availEq: '5000', frozenBal: '0' }],
    });
  });

  it('refuses a missing key, an unknown key, a wrong passphrase, a bad signature, a stale timestamp and the wrong environment', async () => {
    const refusal = async (answer: Promise<Answer>) => {
      const { status, body } = await answer;
      return [status, body.code];
    };
    expect(await refusal(call(null, 'GET', '/api/v5/account/config'))).toEqual([401, '50103']);
    expect(await refusal(call({ ...TRADER, apiKey: 'nobody' }, 'GET', '/api/v5/account/config'))).toEqual([
      401,
      '50111',
    ]);
    expect(await refusal(call({ ...TRADER, passphrase: 'nope' }, 'GET', '/api/v5/account/config'))).toEqual([
      401,
      '50105',
    ]);
    expect(await refusal(call({ ...TRADER, secret: 'nope' }, 'GET', '/api/v5/account/config'))).toEqual([
      401,
      '50113',
    ]);
    const stale = new Date(Date.now() - 60_000).toISOString();
    expect(
      await refusal(call(TRADER, 'GET', '/api/v5/account/config', undefined, { timestamp: stale })),
    ).toEqual([401, '50102']);
    expect(await refusal(call(DEMO, 'GET', '/api/v5/account/config'))).toEqual([401, '50101']);
    const demo = await call(DEMO, 'GET', '/api/v5/account/config', undefined, {
      headers: { 'x-simulated-trading': '1' },
    });
    expect(demo.body.data[0]).toMatchObject({ posMode: 'net_mode', acctLv: '2', perm: 'read_only,trade' });
  });

  it('answers order refusals per order under code 1, and a partial batch under code 2', async () => {
    const order = (extra: Record<string, unknown>) => ({
      instId: 'BTC-USDT',
      tdMode: 'cash',
      side: 'buy',
      ordType: 'limit',
      px: '60000',
      sz: '0.001',
      ...extra,
    });
    const poor = await call(TRADER, 'POST', '/api/v5/trade/order', order({ sz: '1', clOrdId: 'rawpoor1' }));
    expect(poor.status).toBe(200);
    expect(poor.body).toMatchObject({
      code: '1',
      msg: 'All operations failed',
      data: [{ clOrdId: 'rawpoor1', ordId: '', sCode: '51008' }],
    });
    const badId = await call(TRADER, 'POST', '/api/v5/trade/order', order({ clOrdId: 'not-alnum' }));
    expect(badId.body.data[0]).toMatchObject({ sCode: '51000', sMsg: 'Parameter clOrdId error' });
    const tooSmall = await call(TRADER, 'POST', '/api/v5/trade/order', order({ sz: '0.000001' }));
    expect(tooSmall.body.data[0]?.sCode).toBe('51020');
    const offTick = await call(TRADER, 'POST', '/api/v5/trade/order', order({ px: '60000.05' }));
    expect(offTick.body.data[0]?.sCode).toBe('51000');

    const batch = await call(TRADER, 'POST', '/api/v5/trade/batch-orders', [
      order({ clOrdId: 'rawbatch1' }),
      order({ clOrdId: 'rawbatch1' }),
    ]);
    expect(batch.body.code).toBe('2');
    expect(batch.body.data.map((d) => d.sCode)).toEqual(['0', '51016']);
    const placed = batch.body.data[0]!;
    const cancel = await call(TRADER, 'POST', '/api/v5/trade/cancel-order', {
      instId: 'BTC-USDT',
      ordId: placed.ordId,
    });
    expect(cancel.body).toMatchObject({ code: '0', data: [{ ordId: placed.ordId, sCode: '0' }] });
    const again = await call(TRADER, 'POST', '/api/v5/trade/cancel-order', {
      instId: 'BTC-USDT',
      clOrdId: 'rawbatch1',
    });
    expect(again.body).toMatchObject({ code: '1', data: [{ sCode: '51400' }] });
    const details = await call(TRADER, 'GET', `/api/v5/trade/order?instId=BTC-USDT&clOrdId=rawbatch1`);
    expect(details.body.data[0]).toMatchObject({ ordId: placed.ordId, state: 'canceled', accFillSz: '0' });

    // Cancelled without fills: the venue forgets it after two hours.
    venue.ageRecords(3 * 3_600_000);
    const forgotten = await call(TRADER, 'GET', `/api/v5/trade/order?instId=BTC-USDT&ordId=${placed.ordId}`);
    expect(forgotten).toEqual({
      status: 200,
      body: { code: '51603', msg: 'Order does not exist', data: [] },
    });
  });

  it('pages an order’s fills newest first, 100 at most, with after/before on billId', async () => {
    // 120 small asks inside the synthetic spread (bids from 64999, asks from 65001): one market buy takes them all.
    for (let i = 0; i < 120; i++) {
      const answer = await call(MAKER, 'POST', '/api/v5/trade/order', {
        instId: 'BTC-USDT',
        tdMode: 'cash',
        side: 'sell',
        ordType: 'limit',
        px: '65000.5',
        sz: '0.0001',
      });
      expect(answer.body.code).toBe('0');
    }
    const buy = await call(TRADER, 'POST', '/api/v5/trade/order', {
      instId: 'BTC-USDT',
      tdMode: 'cash',
      side: 'buy',
      ordType: 'market',
      tgtCcy: 'base_ccy',
      sz: '0.012',
      clOrdId: 'rawsweep1',
    });
    const ordId = buy.body.data[0]!.ordId!;
    const first = await call(TRADER, 'GET', `/api/v5/trade/fills-history?instType=SPOT&ordId=${ordId}`);
    expect(first.body.data).toHaveLength(100);
    const billIds = first.body.data.map((f) => BigInt(f.billId!));
    expect(billIds).toEqual([...billIds].sort((a, b) => (a > b ? -1 : 1)));
    expect(first.body.data[0]).toMatchObject({ ordId, clOrdId: 'rawsweep1', side: 'buy', execType: 'T' });
    const oldest = first.body.data.at(-1)!.billId;
    const second = await call(
      TRADER,
      'GET',
      `/api/v5/trade/fills-history?instType=SPOT&ordId=${ordId}&after=${oldest}`,
    );
    expect(second.body.data).toHaveLength(20);
    const back = await call(TRADER, 'GET', `/api/v5/trade/fills?ordId=${ordId}&before=${oldest}&limit=5`);
    expect(back.body.data.map((f) => f.billId)).toEqual(first.body.data.slice(-6, -1).map((f) => f.billId));
    const missing = await call(TRADER, 'GET', `/api/v5/trade/fills-history?ordId=${ordId}`);
    expect([missing.status, missing.body.code]).toEqual([400, '50014']);
  });

  it('refuses a swap order without posSide in long/short mode, and a reduce-only order with nothing to reduce', async () => {
    const swap = { instId: 'BTC-USDT-SWAP', tdMode: 'cross', side: 'buy', ordType: 'market', sz: '1' };
    const flat = await call(TRADER, 'POST', '/api/v5/trade/order', {
      ...swap,
      side: 'sell',
      reduceOnly: true,
    });
    expect(flat.body.data[0]?.sCode).toBe('51169');
    venue.setPositionMode(TRADER.apiKey, 'long_short_mode');
    const hedged = await call(TRADER, 'POST', '/api/v5/trade/order', swap);
    expect(hedged.body.data[0]).toMatchObject({ sCode: '51000', sMsg: 'Parameter posSide error' });
    const long = await call(TRADER, 'POST', '/api/v5/trade/order', { ...swap, posSide: 'long' });
    expect(long.body.code).toBe('0');
    expect(venue.positionContracts(TRADER.apiKey, 'BTC-USDT-SWAP')).toBe('1');
    const change = await call(TRADER, 'POST', '/api/v5/account/set-position-mode', { posMode: 'net_mode' });
    expect(change.body.code).toBe('59000');
    const close = await call(TRADER, 'POST', '/api/v5/trade/order', {
      ...swap,
      side: 'sell',
      posSide: 'long',
    });
    expect(close.body.code).toBe('0');
    expect(venue.positionContracts(TRADER.apiKey, 'BTC-USDT-SWAP')).toBe('0');
    const back = await call(TRADER, 'POST', '/api/v5/account/set-position-mode', { posMode: 'net_mode' });
    expect(back.body).toEqual({ code: '0', msg: '', data: [{ posMode: 'net_mode' }] });
  });

  it('answers a rate-limited call with HTTP 429 and code 50011, for the matching calls only', async () => {
    venue.failNext({ count: 1, match: (_method, path) => path === '/api/v5/public/time' });
    const limited = await fetch(`${venue.origin}/api/v5/public/time`);
    expect(limited.status).toBe(429);
    expect(await limited.json()).toMatchObject({ code: '50011', data: [] });
    expect((await fetch(`${venue.origin}/api/v5/market/ticker?instId=BTC-USDT`)).status).toBe(200);
    expect((await fetch(`${venue.origin}/api/v5/public/time`)).status).toBe(200);
  });

  it('keeps spot conditional algo orders: the base frozen at placement, a limit order (its ordId) once the price reaches the trigger, released on cancel', async () => {
    const SPOT = { apiKey: 'okxRawSpotAlgo04', secret: 'raw-secret-4', passphrase: 'Raw-pass-4' };
    venue.addAccount({ ...SPOT, balances: { SOL: '10' } });
    const algo = {
      instId: 'SOL-USDT',
      tdMode: 'cash',
      side: 'sell',
      ordType: 'conditional',
      sz: '4',
      slTriggerPx: '140',
      slOrdPx: '139',
      slTriggerPxType: 'last',
      algoClOrdId: 'solSpotStop',
    };
    const frozen = async () =>
      (await call(SPOT, 'GET', '/api/v5/account/balance?ccy=SOL')).body.data[0] as unknown as {
        details: { availBal: string; frozenBal: string }[];
      };
    const refused = async (over: Record<string, unknown>) =>
      (await call(SPOT, 'POST', '/api/v5/trade/order-algo', { ...algo, ...over })).body.data[0];
    expect(await refused({ tdMode: 'cross' })).toMatchObject({ sCode: '51000' });
    expect(await refused({ slTriggerPx: '151' })).toMatchObject({ sCode: '51280' });
    expect(await refused({ sz: '11' })).toMatchObject({ sCode: '51008' });
    expect(await refused({ reduceOnly: true })).toMatchObject({ sCode: '51205' });

    const placed = await call(SPOT, 'POST', '/api/v5/trade/order-algo', algo);
    expect(placed.body.data[0]).toMatchObject({ sCode: '0', algoClOrdId: 'solSpotStop' });
    expect((await frozen()).details[0]).toMatchObject({ availBal: '6', frozenBal: '4' });
    venue.setPrice('SOL-USDT', '139.5');
    const read = await call(SPOT, 'GET', '/api/v5/trade/order-algo?algoClOrdId=solSpotStop');
    expect(read.body.data[0]).toMatchObject({ state: 'effective', slOrdPx: '139', instType: 'SPOT' });
    const ordId = read.body.data[0]!['ordId']!;
    const order = await call(SPOT, 'GET', `/api/v5/trade/order?instId=SOL-USDT&ordId=${ordId}`);
    expect(order.body.data[0]).toMatchObject({
      ordType: 'limit',
      px: '139',
      state: 'filled',
      accFillSz: '4',
    });
    expect((await frozen()).details[0]).toMatchObject({ availBal: '6', frozenBal: '0' });

    const second = await call(SPOT, 'POST', '/api/v5/trade/order-algo', {
      ...algo,
      slTriggerPx: '130',
      slOrdPx: '129',
      algoClOrdId: 'solSpotStop2',
    });
    expect((await frozen()).details[0]).toMatchObject({ availBal: '2', frozenBal: '4' });
    const cancelled = await call(SPOT, 'POST', '/api/v5/trade/cancel-algos', [
      { instId: 'SOL-USDT', algoId: second.body.data[0]!['algoId'] },
    ]);
    expect(cancelled.body.data[0]).toMatchObject({ sCode: '0' });
    expect((await frozen()).details[0]).toMatchObject({ availBal: '6', frozenBal: '0' });
    venue.setPrice('SOL-USDT', '150');
  });
});
