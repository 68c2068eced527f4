import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BybitTestServer, bybitSignature } from './bybit-server';

const KEY = 'bybitRawClientKey0001';
const SECRET = 'raw-client-secret';
const DAY = 86_400_000;

/** The protocol server itself, driven with a raw HTTP client the way Bybit's v5 documentation describes. */
describe('Bybit v5 protocol test server', () => {
  let venue: BybitTestServer;

  beforeAll(async () => {
    venue = await BybitTestServer.start({
      accounts: [{ apiKey: KEY, secret: SECRET, wallet: { USDT: '1000', SOL: '10' } }],
    });
  });
  afterAll(() => venue.close());

  type Answer = {
    status: number;
    headers: Headers;
    body: {
      retCode: number;
      retMsg: string;
      result: { orderId?: string; list: Record<string, string>[]; nextPageCursor?: string };
    };
  };

  /** Signs as the guide says: timestamp + key + recv window + (query string | JSON body). */
  async function call(
    method: 'GET' | 'POST',
    path: string,
    params: Record<string, string | boolean> = {},
    options: { secret?: string; timestamp?: number; headers?: Record<string, string> } = {},
  ): Promise<Answer> {
    const timestamp = String(options.timestamp ?? Date.now());
    const query = method === 'GET' ? new URLSearchParams(params as Record<string, string>).toString() : '';
    const body = method === 'POST' ? JSON.stringify(params) : '';
    const sign = bybitSignature(
      options.secret ?? SECRET,
      timestamp,
      KEY,
      '5000',
      method === 'GET' ? query : body,
    );
    const response = await fetch(`${venue.origin}${path}${query ? `?${query}` : ''}`, {
      method,
      headers: {
        'content-type': 'application/json',
        'X-BAPI-API-KEY': KEY,
        'X-BAPI-TIMESTAMP': timestamp,
        'X-BAPI-RECV-WINDOW': '5000',
        'X-BAPI-SIGN': sign,
        ...options.headers,
      },
      ...(body ? { body } : {}),
    });
    return {
      status: response.status,
      headers: response.headers,
      body: (await response.json()) as Answer['body'],
    };
  }

  const place = (linkId: string, extra: Record<string, string> = {}) =>
    call('POST', '/v5/order/create', {
      category: 'linear',
      symbol: 'BTCUSDT',
      side: 'Buy',
      orderType: 'Market',
      qty: '0.01',
      orderLinkId: linkId,
      ...extra,
    });

  it('acknowledges an order with its ids only, and answers with the rate-limit headers', async () => {
    const placed = await place('raw-1');
    expect(placed.body).toMatchObject({ retCode: 0, retMsg: 'OK', result: { orderLinkId: 'raw-1' } });
    expect(Object.keys(placed.body.result).sort()).toEqual(['orderId', 'orderLinkId']);
    expect(placed.headers.get('x-bapi-limit')).toBe('10');
    expect(Number(placed.headers.get('x-bapi-limit-status'))).toBeLessThan(10);
    const again = await place('raw-1');
    expect(again.body).toMatchObject({ retCode: 110072, retMsg: 'OrderLinkedID is duplicate' });
  });

  it('refuses a missing header, an unknown key, a bad signature and a timestamp outside the receive window', async () => {
    const wallet = { accountType: 'UNIFIED' };
    const missing = await call('GET', '/v5/account/wallet-balance', wallet, {
      headers: { 'X-BAPI-SIGN': '' },
    });
    expect(missing.body.retCode).toBe(10001);
    expect(missing.body.retMsg).toContain('openapi sign params error!');
    const unknown = await call('GET', '/v5/account/wallet-balance', wallet, {
      headers: { 'X-BAPI-API-KEY': 'someoneElse00000000' },
    });
    expect([unknown.status, unknown.body.retCode]).toEqual([401, 10003]);
    const badSign = await call('GET', '/v5/account/wallet-balance', wallet, { secret: 'wrong' });
    expect(badSign.body.retCode).toBe(10004);
    const stale = await call('GET', '/v5/account/wallet-balance', wallet, { timestamp: Date.now() - 6_000 });
    expect(stale.body.retCode).toBe(10002);
    const early = await call('GET', '/v5/account/wallet-balance', wallet, { timestamp: Date.now() + 1_500 });
    expect(early.body.retCode).toBe(10002);
  });

  it('keeps the execution list in 7-day windows, except when asked by order id', async () => {
    const placed = await place('raw-old');
    const orderId = placed.body.result.orderId!;
    venue.backdate(8 * DAY);
    const list = (params: Record<string, string>) =>
      call('GET', '/v5/execution/list', { category: 'linear', ...params });
    const ids = (answer: Answer) => answer.body.result.list.map((e) => e['orderId']);

    expect(ids(await list({}))).not.toContain(orderId);
    expect(ids(await list({ startTime: String(Date.now() - 9 * DAY) }))).toContain(orderId);
    expect(ids(await list({ endTime: String(Date.now() - 7.5 * DAY) }))).toContain(orderId);
    expect(
      (await list({ startTime: String(Date.now() - 9 * DAY), endTime: String(Date.now()) })).body,
    ).toMatchObject({
      retCode: 10001,
    });
    expect(ids(await list({ orderId, startTime: String(Date.now() - DAY) }))).toEqual([orderId]);
  });

  it('pages the execution list with nextPageCursor, newest first', async () => {
    for (let i = 0; i < 3; i++) await place(`raw-page-${i}`);
    const first = await call('GET', '/v5/execution/list', { category: 'linear', limit: '2' });
    expect(first.body.result.list).toHaveLength(2);
    expect(first.body.result.nextPageCursor).not.toBe('');
    const second = await call('GET', '/v5/execution/list', {
      category: 'linear',
      limit: '2',
      cursor: first.body.result.nextPageCursor!,
    });
    const links = [...first.body.result.list, ...second.body.result.list].map((e) => e['orderLinkId']);
    expect(links.slice(0, 3)).toEqual(['raw-page-2', 'raw-page-1', 'raw-page-0']);
  });

  it('lists an order cancelled without fills in the history for 24 hours, and forgets it in realtime after a restart', async () => {
    const placed = await call('POST', '/v5/order/create', {
      category: 'linear',
      symbol: 'BTCUSDT',
      side: 'Buy',
      orderType: 'Limit',
      qty: '0.01',
      price: '60000',
      orderLinkId: 'raw-cancel',
    });
    expect(placed.body.retCode).toBe(0);
    const cancel = await call('POST', '/v5/order/cancel', {
      category: 'linear',
      symbol: 'BTCUSDT',
      orderLinkId: 'raw-cancel',
    });
    expect(cancel.body.retCode).toBe(0);
    const byLink = (path: string) =>
      call('GET', path, { category: 'linear', symbol: 'BTCUSDT', orderLinkId: 'raw-cancel' });

    expect((await byLink('/v5/order/realtime')).body.result.list[0]).toMatchObject({
      orderStatus: 'Cancelled',
    });
    venue.forgetRecentOrders();
    expect((await byLink('/v5/order/realtime')).body.result.list).toEqual([]);
    expect((await byLink('/v5/order/history')).body.result.list[0]).toMatchObject({
      orderStatus: 'Cancelled',
    });
    venue.backdate(25 * 3_600_000);
    expect((await byLink('/v5/order/history')).body.result.list).toEqual([]);
  });

  it('injects retCode 10006 with the reset time, and an HTTP 429, for the next matching calls only', async () => {
    venue.failNext({
      count: 1,
      kind: 'retCode10006',
      resetAfterMs: 2_000,
      match: (_m, path) => path === '/v5/market/time',
    });
    const limited = await fetch(`${venue.origin}/v5/market/time`);
    expect(limited.status).toBe(200);
    expect(((await limited.json()) as { retCode: number }).retCode).toBe(10006);
    expect(limited.headers.get('x-bapi-limit-status')).toBe('0');
    expect(Number(limited.headers.get('x-bapi-limit-reset-timestamp'))).toBeGreaterThan(Date.now() + 1_000);
    venue.failNext({ count: 1, kind: 'http429', match: (_m, path) => path === '/v5/market/time' });
    expect((await fetch(`${venue.origin}/v5/market/time`)).status).toBe(429);
    expect((await fetch(`${venue.origin}/v5/market/time`)).status).toBe(200);
  });

  it('keeps spot TP/SL orders (orderFilter tpslOrder): the coin locked at placement, the same orderId working as a limit order once the price reaches the trigger, Deactivated on cancel', async () => {
    const tpsl = {
      category: 'spot',
      symbol: 'SOLUSDT',
      side: 'Sell',
      orderType: 'Limit',
      qty: '4',
      price: '139',
      triggerPrice: '140',
      orderFilter: 'tpslOrder',
      orderLinkId: 'sol-tpsl-1',
    };
    expect(
      (await call('POST', '/v5/order/create', { ...tpsl, qty: '11', orderLinkId: 'sol-big' })).body,
    ).toMatchObject({
      retCode: 170131,
      retMsg: 'Insufficient balance.',
    });
    const placed = await call('POST', '/v5/order/create', tpsl);
    expect(placed.body.retCode).toBe(0);
    const orderId = placed.body.result.orderId!;
    expect(venue.coin(KEY, 'SOL')).toEqual({ wallet: '10', locked: '4' });
    const read = async (filter: Record<string, string>) =>
      (await call('GET', '/v5/order/realtime', { category: 'spot', symbol: 'SOLUSDT', orderId, ...filter }))
        .body.result.list;
    expect(await read({ orderFilter: 'tpslOrder' })).toMatchObject([
      {
        orderStatus: 'Untriggered',
        stopOrderType: 'tpslOrder',
        triggerPrice: '140',
        price: '139',
        triggerDirection: 2,
      },
    ]);
    expect(await read({ orderFilter: 'Order' })).toEqual([]);
    // Without a filter, every kind (v5's open-orders doc).
    expect(await read({})).toHaveLength(1);

    venue.setPrice('SOLUSDT', '139.5');
    const [working] = await read({ orderFilter: 'tpslOrder' });
    expect(working).toMatchObject({ orderId, orderStatus: 'Filled', cumExecQty: '4' });
    expect(Number(working!['avgPrice'])).toBeGreaterThanOrEqual(139);
    expect(venue.coin(KEY, 'SOL')).toEqual({ wallet: '6', locked: '0' });

    const second = await call('POST', '/v5/order/create', {
      ...tpsl,
      triggerPrice: '130',
      price: '129',
      orderLinkId: 'sol-tpsl-2',
    });
    expect(venue.coin(KEY, 'SOL')).toEqual({ wallet: '6', locked: '4' });
    const cancelled = await call('POST', '/v5/order/cancel', {
      category: 'spot',
      symbol: 'SOLUSDT',
      orderId: second.body.result.orderId!,
      orderFilter: 'tpslOrder',
    });
    expect(cancelled.body.retCode).toBe(0);
    expect(venue.coin(KEY, 'SOL')).toEqual({ wallet: '6', locked: '0' });
    const history = await call('GET', '/v5/order/history', { category: 'spot', orderFilter: 'tpslOrder' });
    expect(history.body.result.list.map((o) => o.orderStatus)).toEqual(['Deactivated', 'Filled']);
    venue.setPrice('SOLUSDT', '150');
  });
});
