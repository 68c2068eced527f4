import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BinanceTestServer, binanceSignature } from './binance-server';

/** The protocol server itself, checked against Binance's documented examples with a raw HTTP client. */
describe('Binance protocol test server', () => {
  // Key pair and request from Binance's API documentation (SIGNED endpoint examples).
  const DOC_KEY = 'vmPUZE6mv9SD5VNHk4HlWFsOr6aKE2zvsw0MuIgwCIPy6utIco14y7Ju91duEh8A';
  const DOC_SECRET = 'NhqPtmdSJYdKjVHjA7PZj4Mge3R5YNiP1e3UZjInClVN65XAbvqqM6A7H5fATj0j';
  let venue: BinanceTestServer;

  beforeAll(async () => {
    venue = await BinanceTestServer.start({
      accounts: [{ apiKey: DOC_KEY, secret: DOC_SECRET, balances: { USDT: '1000' } }],
    });
  });
  afterAll(() => venue.close());

  it("computes Binance's documented signatures (query only, and query + body)", () => {
    const query =
      'symbol=LTCBTC&side=BUY&type=LIMIT&timeInForce=GTC&quantity=1&price=0.1&recvWindow=5000&timestamp=1499827319559';
    expect(binanceSignature(DOC_SECRET, query)).toBe(
      'c8db56825ae71d6d79447849e617115f4a920fa2acdcab2b053c4b2838bd6b71',
    );
    expect(
      binanceSignature(
        DOC_SECRET,
        'symbol=LTCBTC&side=BUY&type=LIMIT&timeInForce=GTC' +
          'quantity=1&price=0.1&recvWindow=5000&timestamp=1499827319559',
      ),
    ).toBe('0fd168b8ddb4876a0358a8d14d0c9f3da0e9b20c5d52b2a00fcf7d1c602f9a77');
  });

  async function call(
    method: string,
    path: string,
    query: string,
    body = '',
    headers: Record<string, string> = {},
  ) {
    const response = await fetch(`${venue.origin}${path}${query ? `?${query}` : ''}`, {
      method,
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      ...(body ? { body } : {}),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  it('accepts a signature split between query string and body, as Binance does', async () => {
    const query = 'symbol=BTCUSDT&side=BUY&type=LIMIT&timeInForce=GTC';
    const body = `quantity=0.001&price=60000&timestamp=${Date.now()}`;
    const signature = binanceSignature(DOC_SECRET, query + body);
    const placed = await call('POST', '/api/v3/order', query, `${body}&signature=${signature}`, {
      'X-MBX-APIKEY': DOC_KEY,
    });
    expect(placed.status).toBe(200);
    expect(placed.body).toMatchObject({ symbol: 'BTCUSDT', status: 'NEW', origQty: '0.00100000' });
  });

  it('answers with Binance error bodies for a missing key, an unknown key, a bad signature and a stale timestamp', async () => {
    const query = `timestamp=${Date.now()}`;
    const signed = `${query}&signature=${binanceSignature(DOC_SECRET, query)}`;
    expect(await call('GET', '/api/v3/account', signed)).toEqual({
      status: 401,
      body: { code: -2014, msg: 'API-key format invalid.' },
    });
    expect(
      await call('GET', '/api/v3/account', signed, '', { 'X-MBX-APIKEY': 'someoneElse000000000' }),
    ).toEqual({
      status: 401,
      body: { code: -2015, msg: 'Invalid API-key, IP, or permissions for action.' },
    });
    expect(
      await call('GET', '/api/v3/account', `${query}&signature=${'0'.repeat(64)}`, '', {
        'X-MBX-APIKEY': DOC_KEY,
      }),
    ).toEqual({ status: 400, body: { code: -1022, msg: 'Signature for this request is not valid.' } });
    const stale = `timestamp=${Date.now() - 120_000}&recvWindow=5000`;
    expect(
      await call('GET', '/api/v3/account', `${stale}&signature=${binanceSignature(DOC_SECRET, stale)}`, '', {
        'X-MBX-APIKEY': DOC_KEY,
      }),
    ).toMatchObject({ status: 400, body: { code: -1021 } });
  });

  it('injects a 418 with Retry-After for the next matching calls only', async () => {
    venue.failNext({
      count: 1,
      status: 418,
      retryAfterSeconds: 120,
      match: (_m, path) => path === '/api/v3/time',
    });
    const banned = await fetch(`${venue.origin}/api/v3/time`);
    expect(banned.status).toBe(418);
    expect(banned.headers.get('retry-after')).toBe('120');
    expect((await fetch(`${venue.origin}/api/v3/ping`)).status).toBe(200);
    expect((await fetch(`${venue.origin}/api/v3/time`)).status).toBe(200);
  });

  it('keeps USDⓈ-M conditional orders in the Algo Service: place, query, list, trigger into a market order, cancel', async () => {
    const key = { apiKey: 'algoTrader00000000000001', secret: 'algo-secret' };
    venue.addAccount({ ...key, futuresWallet: '10000' });
    const signed = (method: string, path: string, params: Record<string, string>) => {
      const query = new URLSearchParams({ ...params, timestamp: String(Date.now()) }).toString();
      const signature = binanceSignature(key.secret, query);
      return call(method, path, `${query}&signature=${signature}`, '', { 'X-MBX-APIKEY': key.apiKey });
    };
    const stop = {
      algoType: 'CONDITIONAL',
      symbol: 'SOLUSDT',
      side: 'SELL',
      type: 'STOP_MARKET',
      quantity: '10',
      triggerPrice: '140',
      workingType: 'MARK_PRICE',
      reduceOnly: 'true',
      clientAlgoId: 'sol-stop-1',
    };

    // The plain order endpoint no longer takes conditional types.
    expect(
      await signed('POST', '/fapi/v1/order', {
        symbol: 'SOLUSDT',
        side: 'SELL',
        type: 'STOP_MARKET',
        quantity: '10',
        stopPrice: '140',
      }),
    ).toMatchObject({ status: 400, body: { code: -4120 } });
    // Reduce-only with no position; a trigger the price is already through.
    expect(await signed('POST', '/fapi/v1/algoOrder', stop)).toEqual({
      status: 400,
      body: { code: -2022, msg: 'ReduceOnly Order is rejected.' },
    });
    expect(
      await signed('POST', '/fapi/v1/order', {
        symbol: 'SOLUSDT',
        side: 'BUY',
        type: 'MARKET',
        quantity: '10',
      }),
    ).toMatchObject({ status: 200, body: { status: 'FILLED' } });
    expect(await signed('POST', '/fapi/v1/algoOrder', { ...stop, triggerPrice: '151' })).toEqual({
      status: 400,
      body: { code: -2021, msg: 'Order would immediately trigger.' },
    });

    const placed = await signed('POST', '/fapi/v1/algoOrder', stop);
    expect(placed.status).toBe(200);
    expect(placed.body).toMatchObject({
      clientAlgoId: 'sol-stop-1',
      algoType: 'CONDITIONAL',
      orderType: 'STOP_MARKET',
      symbol: 'SOLUSDT',
      side: 'SELL',
      positionSide: 'BOTH',
      quantity: '10',
      algoStatus: 'NEW',
      triggerPrice: '140.00',
      workingType: 'MARK_PRICE',
      reduceOnly: true,
      closePosition: false,
      triggerTime: 0,
    });
    expect(placed.body).not.toHaveProperty('actualOrderId');
    const algoId = String(placed.body['algoId']);
    expect(await signed('POST', '/fapi/v1/algoOrder', stop)).toMatchObject({
      status: 400,
      body: { code: -4116 },
    });

    const open = await signed('GET', '/fapi/v1/openAlgoOrders', { symbol: 'SOLUSDT' });
    expect(open.body).toEqual([expect.objectContaining({ algoId: Number(algoId), actualOrderId: '' })]);
    expect(await signed('GET', '/fapi/v1/algoOrder', { algoId: '999999' })).toEqual({
      status: 400,
      body: { code: -2013, msg: 'Order does not exist.' },
    });

    venue.setPrice('SOLUSDT', '139');
    const triggered = await signed('GET', '/fapi/v1/algoOrder', { clientAlgoId: 'sol-stop-1' });
    expect(triggered.body).toMatchObject({ algoStatus: 'FINISHED', actualType: 'MARKET', actualQty: '10' });
    const actualOrderId = String(triggered.body['actualOrderId']);
    expect(actualOrderId).toMatch(/^\d+$/);
    expect(
      await signed('GET', '/fapi/v1/order', { symbol: 'SOLUSDT', orderId: actualOrderId }),
    ).toMatchObject({
      body: { status: 'FILLED', type: 'MARKET', side: 'SELL', reduceOnly: true, executedQty: '10' },
    });
    expect(venue.positionAmount(key.apiKey, 'SOLUSDT')).toBe('0');
    expect(await signed('DELETE', '/fapi/v1/algoOrder', { algoId })).toEqual({
      status: 400,
      body: { code: -2011, msg: 'Unknown order sent.' },
    });
    expect((await signed('GET', '/fapi/v1/openAlgoOrders', {})).body).toEqual([]);

    // A close-all stop under a new short, cancelled: Binance answers a cancel with the ids only.
    await signed('POST', '/fapi/v1/order', {
      symbol: 'SOLUSDT',
      side: 'SELL',
      type: 'MARKET',
      quantity: '5',
    });
    const closeAll = await signed('POST', '/fapi/v1/algoOrder', {
      algoType: 'CONDITIONAL',
      symbol: 'SOLUSDT',
      side: 'BUY',
      type: 'STOP_MARKET',
      triggerPrice: '150',
      closePosition: 'true',
      clientAlgoId: 'sol-stop-2',
    });
    expect(closeAll.body).toMatchObject({ algoStatus: 'NEW', closePosition: true, quantity: '0' });
    expect(await signed('DELETE', '/fapi/v1/algoOrder', { clientAlgoId: 'sol-stop-2' })).toEqual({
      status: 200,
      body: { algoId: closeAll.body['algoId'], clientAlgoId: 'sol-stop-2', code: '200', msg: 'success' },
    });
    const history = await signed('GET', '/fapi/v1/allAlgoOrders', { symbol: 'SOLUSDT' });
    expect((history.body as unknown as { algoStatus: string }[]).map((a) => a.algoStatus)).toEqual([
      'FINISHED',
      'CANCELED',
    ]);
    venue.setPrice('SOLUSDT', '150.00');
  });

  it('keeps spot STOP_LOSS_LIMIT orders: locks the base at placement, works as a limit order (same orderId) once the price reaches its stop, cancels back to free', async () => {
    const key = { apiKey: 'stopLimit000000000000001', secret: 'stop-limit-secret' };
    venue.addAccount({ ...key, balances: { SOL: '10', USDT: '0' } });
    const signed = (method: string, path: string, params: Record<string, string>) => {
      const query = new URLSearchParams({ ...params, timestamp: String(Date.now()) }).toString();
      const signature = binanceSignature(key.secret, query);
      return call(method, path, `${query}&signature=${signature}`, '', { 'X-MBX-APIKEY': key.apiKey });
    };
    const stop = {
      symbol: 'SOLUSDT',
      side: 'SELL',
      type: 'STOP_LOSS_LIMIT',
      timeInForce: 'GTC',
      quantity: '4',
      price: '139',
      stopPrice: '140',
      newClientOrderId: 'sol-stop-limit',
    };
    expect(await signed('POST', '/api/v3/order', { ...stop, stopPrice: '151' })).toEqual({
      status: 400,
      body: { code: -2010, msg: 'Stop price would trigger immediately.' },
    });
    expect(await signed('POST', '/api/v3/order', { ...stop, quantity: '11' })).toEqual({
      status: 400,
      body: { code: -2010, msg: 'Account has insufficient balance for requested action.' },
    });
    const placed = await signed('POST', '/api/v3/order', stop);
    expect(placed.body).toMatchObject({
      status: 'NEW',
      type: 'STOP_LOSS_LIMIT',
      price: '139.00000000',
      stopPrice: '140.00000000',
      executedQty: '0.00000000',
      workingTime: -1,
    });
    const orderId = String(placed.body['orderId']);
    expect(venue.balance(key.apiKey, 'SOL')).toEqual({ free: '6', locked: '4' });
    const read = () => signed('GET', '/api/v3/order', { symbol: 'SOLUSDT', orderId });
    expect((await read()).body).toMatchObject({ status: 'NEW', isWorking: false });
    expect((await signed('GET', '/api/v3/openOrders', { symbol: 'SOLUSDT' })).body).toEqual([
      expect.objectContaining({ orderId: Number(orderId), type: 'STOP_LOSS_LIMIT', isWorking: false }),
    ]);
    // A price above its limit does not fill it while it waits.
    venue.setPrice('SOLUSDT', '160');
    expect((await read()).body).toMatchObject({ status: 'NEW', isWorking: false, executedQty: '0.00000000' });

    // Down through the stop: the same order works, at its limit or better.
    venue.setPrice('SOLUSDT', '139.95');
    const working = (await read()).body;
    expect(working).toMatchObject({ isWorking: true, status: 'FILLED', executedQty: '4.00000000' });
    expect(Number(working['workingTime'])).toBeGreaterThan(0);
    const trades = await signed('GET', '/api/v3/myTrades', { symbol: 'SOLUSDT', orderId });
    const prices = (trades.body as unknown as { price: string }[]).map((t) => Number(t.price));
    expect(prices.every((price) => price >= 139)).toBe(true);
    expect(venue.balance(key.apiKey, 'SOL')).toEqual({ free: '6', locked: '0' });

    // Another, cancelled before its stop: the lock goes back to free.
    const second = await signed('POST', '/api/v3/order', {
      ...stop,
      stopPrice: '130',
      price: '129',
      newClientOrderId: 'sol-2',
    });
    expect(venue.balance(key.apiKey, 'SOL')).toEqual({ free: '2', locked: '4' });
    expect(
      (await signed('DELETE', '/api/v3/order', { symbol: 'SOLUSDT', origClientOrderId: 'sol-2' })).body,
    ).toMatchObject({ orderId: second.body['orderId'], status: 'CANCELED', type: 'STOP_LOSS_LIMIT' });
    expect(venue.balance(key.apiKey, 'SOL')).toEqual({ free: '6', locked: '0' });
    venue.setPrice('SOLUSDT', '150.00');
  });
});
