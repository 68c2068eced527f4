import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { manualOpenRequest } from '../support/engine';
import { registerUser, type Session } from '../support/users';
import { OkxTestServer } from '../fakes/okx-server';
import { asUser, startTradesApp, type TradesApp } from '../support/trades-app';

const SWAPS = { apiKey: 'okxEngineSwap0001', secret: 'okx-engine-secret-1', passphrase: 'Engine-Pass-1' };
const SPOT = { apiKey: 'okxEngineSpot0002', secret: 'okx-engine-secret-2', passphrase: 'Engine-Pass-2' };

/**
 * The engine on OKX through ccxt and the OKX-protocol server: an account connected with its passphrase, a
 * trade opened with a take-profit ladder (reduce-only limits on the swap, in contracts), the price moving
 * through the ladder at the venue, and one reconciliation pass booking the fills and closing the trade.
 */
describe('a trade on OKX with a take-profit ladder', () => {
  let venue: OkxTestServer;
  let t: TradesApp;
  let alice: Session;

  beforeAll(async () => {
    venue = await OkxTestServer.start({
      accounts: [
        { ...SWAPS, balances: { USDT: '10000' } },
        { ...SPOT, balances: { USDT: '10000' } },
      ],
    });
    t = await startTradesApp({ venueUrls: venue.venueUrls() });
    alice = await registerUser(t.app);
  });
  beforeEach(() => venue.setPrice('BTC-USDT', '65000'));
  afterAll(async () => {
    await t?.close();
    await venue?.close();
  });

  async function connect(keys: typeof SWAPS, marketType: 'spot' | 'future') {
    const res = await asUser(t.app, alice).post('/api/trading-accounts', {
      nickname: `OKX ${marketType}`,
      exchange: 'okx',
      marketType,
      apiKey: keys.apiKey,
      apiSecret: keys.secret,
      passphrase: keys.passphrase,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const row = (await t.app.services.repos.accounts.findById(res.body.results.id))!;
    return { accountId: row.id, gateway: await t.app.services.venues.gateways.forAccount(row) };
  }

  const openRequest = (accountId: string, clientOrderId: string) =>
    manualOpenRequest({ userId: String(alice.user.id), accountId, clientOrderId, quantity: '0.02' });

  async function ordersOf(tradeId: string) {
    const { rows } = await t.db.pool.query(
      `SELECT client_order_id, role, status, amount, filled, venue_order_id FROM orders WHERE trade_id = $1
       ORDER BY created_at, role`,
      [tradeId],
    );
    return rows as {
      client_order_id: string;
      role: string;
      status: string;
      amount: string;
      filled: string;
      venue_order_id: string | null;
    }[];
  }

  async function fillsByRole(tradeId: string) {
    const { rows } = await t.db.pool.query(
      `SELECT o.role, trim_scale(sum(f.amount))::text AS amount, bool_or(f.inferred) AS inferred, count(*)::int AS n
       FROM fills f JOIN orders o ON o.id = f.order_id WHERE f.trade_id = $1 GROUP BY o.role ORDER BY o.role`,
      [tradeId],
    );
    return rows as { role: string; amount: string; inferred: boolean; n: number }[];
  }

  /** The order entries ccxt sent for one client order id. */
  const sent = (clientOrderId: string) =>
    venue.requests
      .filter((r) => r.method === 'POST' && r.path === '/api/v5/trade/batch-orders')
      .flatMap((r) => JSON.parse(r.body) as Record<string, unknown>[])
      .filter((entry) => entry['clOrdId'] === clientOrderId);

  it('refuses to connect an OKX account without its passphrase', async () => {
    const res = await asUser(t.app, alice).post('/api/trading-accounts', {
      nickname: 'OKX',
      exchange: 'okx',
      marketType: 'future',
      apiKey: SWAPS.apiKey,
      apiSecret: SWAPS.secret,
    });
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('PASSPHRASE_REQUIRED');
  });

  it('on a USDT swap: reconciliation books both take-profit fills and closes the trade, the position flat', async () => {
    const { accountId, gateway } = await connect(SWAPS, 'future');
    const { supervisor, reconciler } = t.app.services.engine;
    const opened = await supervisor.managedLifecycle.open(gateway, openRequest(accountId, 'okxswapentry1'));
    expect(opened).toMatchObject({ status: 'open', quantity: '0.02', entryPrice: '65001' });
    expect(venue.positionContracts(SWAPS.apiKey, 'BTC-USDT-SWAP')).toBe('2');

    const ladder = (await ordersOf(opened.id)).filter((o) => o.role.startsWith('tp'));
    expect(ladder.map((o) => [o.role, o.status, o.amount])).toEqual([
      ['tp1', 'open', '0.01'],
      ['tp2', 'open', '0.01'],
    ]);
    // At the venue: reduce-only limits of one contract each, cross margin, Kairos' client ids.
    for (const tp of ladder) {
      expect(sent(tp.client_order_id)).toEqual([
        expect.objectContaining({
          instId: 'BTC-USDT-SWAP',
          side: 'sell',
          sz: '1',
          tdMode: 'cross',
          reduceOnly: true,
        }),
      ]);
      expect(venue.orderByClientId(tp.client_order_id)).toMatchObject({ state: 'live' });
    }

    // The price goes through both take-profits at the venue; nothing is listening but reconciliation.
    venue.setPrice('BTC-USDT', '67500');
    await reconciler.reconcileAccount({ id: accountId }, { sweep: true });

    const trade = (await t.app.services.repos.trades.findById(opened.id))!;
    expect(trade.status).toBe('closed');
    const orders = await ordersOf(opened.id);
    expect(orders.filter((o) => o.role.startsWith('tp')).map((o) => [o.role, o.status, o.filled])).toEqual([
      ['tp1', 'filled', '0.01'],
      ['tp2', 'filled', '0.01'],
    ]);
    // Every fill as OKX lists it (none inferred), in base units.
    expect(await fillsByRole(opened.id)).toEqual([
      { role: 'entry', amount: '0.02', inferred: false, n: 1 },
      { role: 'tp1', amount: '0.01', inferred: false, n: 1 },
      { role: 'tp2', amount: '0.01', inferred: false, n: 1 },
    ]);
    expect(Number(trade.realisedPnl)).toBeGreaterThan(0);
    expect(venue.positionContracts(SWAPS.apiKey, 'BTC-USDT-SWAP')).toBe('0');
    expect(await gateway.fetchPositions()).toEqual([]);
  });

  it('on spot: the ladder sells what the entry bought net of its fee, and the trade closes', async () => {
    const { accountId, gateway } = await connect(SPOT, 'spot');
    const { supervisor, reconciler } = t.app.services.engine;
    const opened = await supervisor.managedLifecycle.open(gateway, openRequest(accountId, 'okxspotentry1'));
    expect(opened.status).toBe('open');
    const entry = sent('okxspotentry1');
    expect(entry).toEqual([expect.objectContaining({ instId: 'BTC-USDT', tdMode: 'cash', sz: '0.02' })]);
    const ladder = (await ordersOf(opened.id)).filter((o) => o.role.startsWith('tp'));
    // OKX charged the entry's fee in BTC (0.1 % of 0.02): the ladder sells the 0.01998 held.
    expect(ladder.map((o) => [o.status, o.amount])).toEqual([
      ['open', '0.00999'],
      ['open', '0.00999'],
    ]);
    for (const tp of ladder) expect(sent(tp.client_order_id)[0]).not.toHaveProperty('reduceOnly');

    venue.setPrice('BTC-USDT', '67500');
    await reconciler.reconcileAccount({ id: accountId }, { sweep: true });
    const trade = (await t.app.services.repos.trades.findById(opened.id))!;
    expect(trade.status).toBe('closed');
    const held = (await gateway.fetchBalances())['BTC']?.total ?? '0';
    expect(held).toBe('0');
    expect((await fillsByRole(opened.id)).every((f) => !f.inferred)).toBe(true);
  });
});
