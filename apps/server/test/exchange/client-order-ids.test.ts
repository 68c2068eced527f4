import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientOrderId, retryClientOrderId, tradeClientOrderId } from '@kairos/core';
import { knownVenues } from '../../src/exchange/capabilities';
import { CcxtGateway } from '../../src/exchange/ccxt-gateway';
import { MarketCache } from '../../src/exchange/market-cache';
import { VenueThrottleRegistry } from '../../src/exchange/venue-throttle';
import { closeServer, listenOnLoopback } from '../fakes/venue-kit';

/**
 * Every client order id the engine makes reaches each listed venue in a form that venue takes (its documented
 * length and characters), and comes back as ours. Kraken takes a UUID or at most 18 characters: our 23-character
 * ids travel as the same 128 bits in 32 hex digits (a "short UUID").
 */
const engineIds = (() => {
  const ids = [
    clientOrderId({ alertId: '8f14e45f-ceea-467f-a8f0-5e3d2c1b0a99', botId: 'b-1', leg: 'open_long' }),
    clientOrderId({ alertId: 1, botId: 2, leg: 'close_short' }),
    tradeClientOrderId('0b4a3c1e-9d2f-4e8a-b7c6-5d4e3f2a1b0c', 'tp1', 0),
    tradeClientOrderId('0b4a3c1e-9d2f-4e8a-b7c6-5d4e3f2a1b0c', 'tp1', 'push'),
    tradeClientOrderId('0b4a3c1e-9d2f-4e8a-b7c6-5d4e3f2a1b0c', 'stop'),
  ];
  let retry = ids[4]!;
  for (let i = 0; i < 5; i++) ids.push((retry = retryClientOrderId(retry)));
  return ids;
})();

function gatewayFor(exchangeId: string, apiUrls?: string) {
  const venue = knownVenues().find((v) => v.id === exchangeId)!;
  return new CcxtGateway({
    exchangeId,
    apiKey: 'key',
    secret: 'c2VjcmV0',
    password: 'pass',
    marketType: venue.marketTypes[0]!,
    throttle: new VenueThrottleRegistry(),
    marketCache: new MarketCache(),
    retry: { retries: 0, baseMs: 1, maxMs: 1 },
    ...(apiUrls ? { apiUrls } : {}),
  });
}

describe.each(knownVenues().map((v) => [v.id, v] as const))('client order ids on %s', (id, venue) => {
  it(`fit the venue's rule (${venue.clientOrderIdRule.description})`, () => {
    const gateway = gatewayFor(id);
    for (const ours of engineIds) {
      expect(gateway.venueClientOrderId(ours)).toMatch(venue.clientOrderIdRule.pattern);
    }
    // Distinct ids stay distinct on the venue.
    expect(new Set(engineIds.map((ours) => gateway.venueClientOrderId(ours))).size).toBe(engineIds.length);
  });
});

describe('a Kraken order, on the wire', () => {
  let origin: string;
  let server: Awaited<ReturnType<typeof listenOnLoopback>>['server'];
  const sent: Record<string, string>[] = [];
  const orders = new Map<string, Record<string, unknown>>();

  beforeAll(async () => {
    ({ server, origin } = await listenOnLoopback(
      async (request, response) => {
        const chunks: Buffer[] = [];
        for await (const chunk of request) chunks.push(chunk as Buffer);
        const body = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
        const path = (request.url ?? '').split('?')[0];
        let result: unknown;
        if (path === '/0/public/Time') {
          result = { unixtime: Math.floor(Date.now() / 1000), rfc1123: new Date().toUTCString() };
        } else if (path === '/0/public/AssetPairs') {
          result = {
            XBTUSDT: {
              altname: 'XBTUSDT',
              wsname: 'XBT/USDT',
              base: 'XXBT',
              quote: 'USDT',
              pair_decimals: 1,
              lot_decimals: 8,
              ordermin: '0.0001',
              costmin: '0.5',
              tick_size: '0.1',
              status: 'online',
              fees: [[0, 0.4]],
              fees_maker: [[0, 0.25]],
            },
          };
        } else if (path === '/0/private/AddOrder') {
          sent.push(body);
          orders.set('OQCLML-BW3P3-BUCMWZ', {
            status: 'open',
            cl_ord_id: body['cl_ord_id'],
            opentm: 1795500000.1,
            descr: {
              pair: 'XBTUSDT',
              type: body['type'],
              ordertype: body['ordertype'],
              price: body['price'],
            },
            vol: body['volume'],
            vol_exec: '0.00000000',
            cost: '0',
            fee: '0',
            price: '0',
          });
          result = { descr: { order: 'buy 0.01 XBTUSDT @ limit 60000.0' }, txid: ['OQCLML-BW3P3-BUCMWZ'] };
        } else if (path === '/0/private/QueryOrders') {
          result = Object.fromEntries(
            [...orders].filter(([txid]) => body['txid']?.split(',').includes(txid)),
          );
        } else {
          response.writeHead(404, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ error: [`EGeneral:Unknown method ${path}`] }));
          return;
        }
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: [], result }));
      },
      (error) => ({ error: [String(error)] }),
    ));
  });
  afterAll(() => closeServer(server));

  it('sends our id as 32 hex digits in cl_ord_id and reads the order back under our id', async () => {
    const ours = tradeClientOrderId('kraken-trade', 'tp1', 0);
    const gateway = gatewayFor('kraken', origin);
    const order = await gateway.createOrder({
      symbol: 'BTC/USDT',
      side: 'buy',
      type: 'limit',
      amount: '0.01',
      price: '60000',
      clientOrderId: ours,
    });
    expect(sent).toHaveLength(1);
    expect(sent[0]!['cl_ord_id']).toMatch(/^[0-9a-f]{32}$/);
    expect(order).toMatchObject({ venueOrderId: 'OQCLML-BW3P3-BUCMWZ', clientOrderId: ours, status: 'open' });
    const again = await gateway.fetchOrder('OQCLML-BW3P3-BUCMWZ', 'BTC/USDT');
    expect(again.clientOrderId).toBe(ours);
  });
});
