// GET /api/bots is served from a per-user cache: these are the promises a client relies on — what it
// wrote is there on its next read, and what anyone else (the worker, another process, an admin) changed
// shows as soon as the change is committed, long before the cache's own expiry.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app';
import {
  createBot,
  createPaperAccount,
  sendSignal,
  startTestAlertWorker,
  waitForAlert,
} from '../support/engine';
import { bearer, registerUser, type Session } from '../support/users';

type BotView = {
  id: string;
  nickname: string;
  isActive: boolean;
  isTrading: boolean;
  position: string;
  strategy: { nickname: string };
  tradingAccount: { nickname: string };
};

let t: TestApp;
let admin: Session;
let alice: Session;
let strategy: { id: string; strategyKey: string; webhookSecret: string };
let botId: string;
let accountId: string;

const list = async (s: Session) => {
  const res = await t.app.inject({ method: 'GET', url: '/api/bots', headers: bearer(s.apiToken) });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  return res.json().results as BotView[];
};

/** Reads until `check` holds; fails if it takes longer than `withinMs` (well below the 5 s expiry). */
async function eventually(s: Session, check: (bots: BotView[]) => boolean, withinMs = 1_500) {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const bots = await list(s);
    if (check(bots)) return bots;
    if (Date.now() > deadline) throw new Error(`not seen within ${withinMs} ms: ${JSON.stringify(bots)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeAll(async () => {
  t = await createTestApp({ KAIROS_ADMIN_EMAIL: 'ops@example.com' });
  admin = await registerUser(t.app, 'ops@example.com');
  alice = await registerUser(t.app);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/strategies',
    headers: bearer(admin.apiToken),
    payload: { nickname: 'Trend', tradeCurrency: 'BTC', timeFrame: '1h' },
  });
  strategy = res.json().results;
  accountId = (await createPaperAccount(t.app, alice, { nickname: 'Main' })).id;
  botId = (
    await createBot(t.app, alice, {
      nickname: 'Runner',
      strategyId: strategy.id,
      tradingAccountId: accountId,
      fixedAmount: 100,
      isActive: true,
    })
  ).id;
  await list(alice); // cached from here on
});
afterAll(() => t.close());

describe('the bots list a client reads', () => {
  it('shows the client its own write on the very next read', async () => {
    for (const isActive of [false, true]) {
      const put = await t.app.inject({
        method: 'PUT',
        url: `/api/bots/${botId}`,
        headers: bearer(alice.apiToken),
        payload: { isActive },
      });
      expect(put.statusCode).toBe(200);
      expect((await list(alice)).find((b) => b.id === botId)?.isActive).toBe(isActive);
    }
    const renamed = await t.app.inject({
      method: 'PUT',
      url: `/api/trading-accounts/${accountId}`,
      headers: bearer(alice.apiToken),
      payload: { nickname: 'Renamed' },
    });
    expect(renamed.statusCode).toBe(200);
    expect((await list(alice))[0]?.tradingAccount.nickname).toBe('Renamed');
  });

  it('shows what the worker did on an alert: the open trade and the position', async () => {
    expect((await list(alice))[0]).toMatchObject({ isTrading: false, position: 'out' });
    const worker = startTestAlertWorker(t);
    try {
      const { alertId } = await sendSignal(t.app, strategy, { action: 'long', id: 'fresh-long' });
      expect(await waitForAlert(t, alertId)).toBe('succeeded');
      await eventually(alice, (bots) => bots[0]?.isTrading === true && bots[0]?.position === 'long');
      const exit = await sendSignal(t.app, strategy, { action: 'exit', id: 'fresh-exit' });
      expect(await waitForAlert(t, exit.alertId)).toBe('succeeded');
      await eventually(alice, (bots) => bots[0]?.isTrading === false && bots[0]?.position === 'out');
    } finally {
      await worker.stop();
    }
  });

  it('shows a change another process committed, without waiting for the cache to expire', async () => {
    await list(alice);
    await t.db.pool.query(`UPDATE bots SET nickname = 'Changed elsewhere' WHERE id = $1`, [botId]);
    await eventually(alice, (bots) => bots[0]?.nickname === 'Changed elsewhere');
  });

  it("shows an admin's rename of a shared strategy to every user at once", async () => {
    await list(alice);
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/strategies/${strategy.id}`,
      headers: bearer(admin.apiToken),
      payload: { nickname: 'Trend v2' },
    });
    expect(put.statusCode).toBe(200);
    expect((await list(alice))[0]?.strategy.nickname).toBe('Trend v2');
  });

  it("never shows one user's bots to another", async () => {
    const bob = await registerUser(t.app);
    await list(alice);
    expect(await list(bob)).toEqual([]);
    expect((await list(alice)).map((b) => b.id)).toEqual([botId]);
  });
});
