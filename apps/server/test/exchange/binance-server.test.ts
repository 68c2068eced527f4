import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BinanceTestServer, binanceSignature } from '../venues/binance-server';

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
});
