import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedMarket } from '../fakes/scripted-market';
import { createPaperAccount } from '../support/engine';
import { registerUser, type Session } from '../support/users';
import { asUser, eventually, startTradesApp, type TradesApp } from '../support/trades-app';

/**
 * Where a trade's stop lives (issue 18), as TradeDetail and the dashboard say it: on the venue (a stop resting
 * there at the trade's stop price), watched by Kairos (a stop price, nothing resting at it), or nowhere.
 * Each trade here has a take-profit holding all its coins, so no spot stop can rest beside it (issue 18: the
 * stop sells only what no take-profit holds): the venue's stops are written here as the guard writes them.
 */
let t: TradesApp;
let alice: Session;
let bob: Session;
let api: ReturnType<typeof asUser>;
let bobApi: ReturnType<typeof asUser>;
let spot: { id: string };
const market = new ScriptedMarket(() => Date.now());

beforeAll(async () => {
  t = await startTradesApp({ paperVenueOptions: { market } });
  [alice, bob] = await Promise.all([registerUser(t.app), registerUser(t.app)]);
  api = asUser(t.app, alice);
  bobApi = asUser(t.app, bob);
  spot = await createPaperAccount(t.app, alice);
});
afterAll(() => t.close());

async function openTrade(
  as: ReturnType<typeof asUser>,
  accountId: string,
  body: Record<string, unknown> = {},
) {
  const res = await as.post('/api/trades', {
    accountId,
    symbol: 'BTC/USDT',
    side: 'long',
    amount: '0.002',
    takeProfits: [{ percent: '20', sizePercent: '100' }],
    ...body,
  });
  expect(res.status).toBe(201);
  return res.body.results.trade as { id: string; stopLossPrice: string | null; status: string };
}

let seq = 0;
/** A placement of the trade's stop as the venue stop guard records it, each later than the one before. */
async function venueStop(
  trade: { id: string },
  v: { status: string; triggerPrice: string; venueOrderId?: string | null; updatedAt?: string },
) {
  seq += 1;
  await t.db.pool.query(
    `INSERT INTO venue_stops (trade_id, trading_account_id, client_order_id, venue_order_id, symbol, side,
       trigger_price, amount, status, created_at, updated_at)
     VALUES ($1, $2, $3, $4, 'BTC/USDT', 'sell', $5, '0.002', $6, $7::timestamptz, coalesce($8::timestamptz, $7::timestamptz))`,
    [
      trade.id,
      spot.id,
      `stop-test-${seq}`,
      v.venueOrderId ?? null,
      v.triggerPrice,
      v.status,
      new Date(Date.UTC(2026, 0, 1, 0, seq)).toISOString(),
      v.updatedAt ?? null,
    ],
  );
}

const protection = async (id: string) => {
  const res = await api.get(`/api/trades/${id}`);
  expect(res.status).toBe(200);
  return res.body.results.protection;
};
const dashboardProtection = async (as: ReturnType<typeof asUser>) => {
  const res = await as.get('/api/dashboard?include=metrics');
  expect(res.status).toBe(200);
  return res.body.results.protection;
};

describe('where the stop lives', () => {
  let watched: { id: string; stopLossPrice: string | null };
  let unprotected: { id: string };

  it('says "watched by Kairos" for a stop price with nothing resting on the venue', async () => {
    watched = await openTrade(api, spot.id, { stopLossPercent: 3 });
    expect(watched.stopLossPrice).toBe('63050');
    expect(await protection(watched.id)).toEqual({
      where: 'kairos',
      venueOrderId: null,
      triggerPrice: '63050',
      since: null,
      venueRefused: false,
    });
  });

  it('says "on the venue" with the resting order once a stop rests there at the stop price', async () => {
    // An older stop at another price, cancelled, then the current one resting (numeric padding irrelevant).
    await venueStop(watched, { status: 'cancelled', triggerPrice: '62000', venueOrderId: '111' });
    await venueStop(watched, {
      status: 'open',
      triggerPrice: '63050.000000',
      venueOrderId: '12345',
      updatedAt: '2026-02-03T04:05:06.000Z',
    });
    expect(await protection(watched.id)).toEqual({
      where: 'venue',
      venueOrderId: '12345',
      triggerPrice: '63050',
      since: '2026-02-03T04:05:06.000Z',
      venueRefused: false,
    });
    // The stop moved: the resting order is at the old price until its replacement rests, so Kairos watches.
    expect((await api.put(`/api/trades/${watched.id}`, { stopLossPrice: '63500' })).status).toBe(200);
    expect(await protection(watched.id)).toMatchObject({
      where: 'kairos',
      triggerPrice: '63500',
      venueRefused: false,
    });
  });

  it('says the venue refused the stop when its latest placement was rejected', async () => {
    await venueStop(watched, { status: 'rejected', triggerPrice: '63500' });
    expect(await protection(watched.id)).toEqual({
      where: 'kairos',
      venueOrderId: null,
      triggerPrice: '63500',
      since: null,
      venueRefused: true,
    });
    expect(await dashboardProtection(api)).toEqual({ unprotected: 0, venueStopRefused: 1 });
  });

  it('says "no stop" for a trade holding something with no stop price; the dashboard counts it', async () => {
    unprotected = await openTrade(api, spot.id);
    expect(await protection(unprotected.id)).toEqual({
      where: 'none',
      venueOrderId: null,
      triggerPrice: null,
      since: null,
      venueRefused: false,
    });
    // Removing a stop leaves the trade unprotected too.
    const second = await openTrade(api, spot.id, { stopLossPercent: 2 });
    expect((await api.put(`/api/trades/${second.id}`, { stopLossPrice: null })).status).toBe(200);
    expect((await protection(second.id)).where).toBe('none');
    expect(await dashboardProtection(api)).toEqual({ unprotected: 2, venueStopRefused: 1 });
  });

  it('has nothing to protect before the entry fills or once the trade ended', async () => {
    const waiting = await openTrade(api, spot.id, { price: '60000' });
    expect(await protection(waiting.id)).toBeNull();
    expect((await api.post(`/api/trades/${unprotected.id}/complete`)).status).toBe(200);
    expect(await protection(unprotected.id)).toBeNull();
    expect(await dashboardProtection(api)).toEqual({ unprotected: 1, venueStopRefused: 1 });
  });

  it('announces each placement and change of state to the trade’s owner (live updates refresh the screens)', async () => {
    const client = await t.db.pool.connect();
    const heard: { u: string | null; t: string; id: string }[] = [];
    client.on('notification', (msg) => {
      if (msg.channel === 'kairos_events' && msg.payload) heard.push(JSON.parse(msg.payload));
    });
    try {
      await client.query('LISTEN kairos_events');
      const traded = await openTrade(api, spot.id, { stopLossPercent: 3 });
      await venueStop(traded, { status: 'submitted', triggerPrice: '63050' });
      const { id } = (await t.db.pool.query(`SELECT id FROM venue_stops WHERE trade_id = $1`, [traded.id]))
        .rows[0] as { id: string };
      const stopEvents = () => heard.filter((e) => e.id === id);
      await eventually(
        async () => stopEvents().length,
        (n) => n === 1,
      );
      expect(stopEvents()[0]).toEqual({ u: alice.user.id, t: 'orders', id });
      await t.db.pool.query(`UPDATE venue_stops SET updated_at = now() WHERE id = $1`, [id]);
      await t.db.pool.query(`UPDATE venue_stops SET status = 'open', venue_order_id = '777' WHERE id = $1`, [
        id,
      ]);
      await eventually(
        async () => stopEvents().length,
        (n) => n >= 2,
      );
      await new Promise((r) => setTimeout(r, 100));
      // The touch alone said nothing; the stop resting did.
      expect(stopEvents()).toHaveLength(2);
      expect((await protection(traded.id)).where).toBe('venue');
      await api.post(`/api/trades/${traded.id}/complete`);
    } finally {
      await client.query('UNLISTEN kairos_events');
      client.release();
    }
  });

  it('counts only the user’s own trades, whatever the dashboard’s filters', async () => {
    const bobAccount = await createPaperAccount(t.app, bob);
    await openTrade(bobApi, bobAccount.id);
    expect(await dashboardProtection(bobApi)).toEqual({ unprotected: 1, venueStopRefused: 0 });
    const other = await createPaperAccount(t.app, alice, { nickname: 'Other' });
    const res = await api.get(`/api/dashboard?accountId=${other.id}&from=2020-01-01&to=2020-01-02`);
    expect(res.body.results.protection).toEqual({ unprotected: 1, venueStopRefused: 1 });
  });
});
