import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedMarket } from '../fakes/scripted-market';
import { createBot, createPaperAccount, sendSignal, waitForAlert } from '../support/engine';
import { registerUser, type Session } from '../support/users';
import { asUser, startAlerts, startTradesApp, type TradesApp } from '../support/trades-app';

/**
 * How an alert sizes its bots' entries (issue 19): every bot on an account from the one balance the account had
 * when the alert came (three 30 % bots get 30 % each, not 3,000 / 2,100 / 1,470), and at the venue's price when
 * the signal's is far from it (a price 10× too low would size 10× the allocation).
 */
const market = new ScriptedMarket(() => Date.now());
let t: TradesApp;
let alerts: ReturnType<typeof startAlerts>;
let alice: Session;
let api: ReturnType<typeof asUser>;

async function strategy(nickname: string, extra: Record<string, unknown> = {}) {
  return (await api.post('/api/strategies', { nickname, tradeCurrency: 'BTC', timeFrame: '1h', ...extra }))
    .body.results as {
    id: string;
    strategyKey: string;
    webhookSecret: string;
  };
}

/** A strategy, a paper account of 10,000 USDT and one active bot on them sized at 650 USDT a trade. */
async function fixedBotOnNewAccount(nickname: string, extra: Record<string, unknown> = {}) {
  const s = await strategy(nickname, extra);
  const account = await createPaperAccount(t.app, alice, { startingBalance: '10000' });
  await createBot(t.app, alice, {
    strategyId: s.id,
    tradingAccountId: account.id,
    fixedAmount: 650,
    isActive: true,
  });
  return { s, account };
}

const quantities = async (accountId: string) =>
  (
    (await api.get('/api/trades?status=open')).body.results as {
      tradingAccountId: string;
      quantity: string;
    }[]
  )
    .filter((x) => x.tradingAccountId === accountId)
    .map((x) => x.quantity);

beforeAll(async () => {
  market.moveTo('65000');
  t = await startTradesApp({ paperVenueOptions: { market } });
  alerts = startAlerts(t);
  alice = await registerUser(t.app);
  api = asUser(t.app, alice);
});
afterAll(async () => {
  await alerts.stop();
  await t.close();
});

describe('sizing the entries of an alert', () => {
  it('gives three 30 % bots on one account the same share of the balance the account had', async () => {
    const s = await strategy('Three bots');
    const account = await createPaperAccount(t.app, alice, { startingBalance: '10000' });
    for (let i = 0; i < 3; i++)
      await createBot(t.app, alice, {
        nickname: `share ${i}`,
        strategyId: s.id,
        tradingAccountId: account.id,
        portfolioPercent: 30,
        isActive: true,
      });
    const { alertId } = await sendSignal(t.app, s, { action: 'long', symbol: 'BTCUSDT', id: 'share-1' });
    expect(await waitForAlert(t as never, alertId)).toBe('succeeded');
    const sizes = await quantities(account.id);
    expect(sizes).toHaveLength(3);
    // 30 % of 10,000 USDT at about 65,000: the same for each bot.
    expect(new Set(sizes).size).toBe(1);
    expect(Number(sizes[0])).toBeCloseTo(3000 / 65000, 3);
  });

  it('sizes at the venue price when the signal’s price is 10× off', async () => {
    const { s, account } = await fixedBotOnNewAccount('Bad price');
    const { alertId } = await sendSignal(t.app, s, {
      action: 'long',
      symbol: 'BTCUSDT',
      price: '6500',
      id: 'price-1',
    });
    expect(await waitForAlert(t as never, alertId)).toBe('succeeded');
    const [size] = await quantities(account.id);
    expect(Number(size)).toBeCloseTo(0.01, 3);
    // The alert keeps how far its price was from the venue's.
    const { rows } = await t.db.pool.query('SELECT price_deviation_percent FROM alerts WHERE id = $1', [
      alertId,
    ]);
    expect(Number(rows[0].price_deviation_percent)).toBeCloseTo(-90, 0);
  });

  it("follows the strategy's own tolerance: 0.5 % leaves a signal 1.5 % off to the venue's price", async () => {
    const { s, account } = await fixedBotOnNewAccount('Tight', { priceTolerancePercent: 0.5 });
    const { alertId } = await sendSignal(t.app, s, {
      action: 'long',
      symbol: 'BTCUSDT',
      price: '64000',
      id: 'price-tight',
    });
    expect(await waitForAlert(t as never, alertId)).toBe('succeeded');
    const [size] = await quantities(account.id);
    // Sized at the venue's ~65,000, not the signal's 64,000 (which would give 0.01015…).
    expect(Number(size)).toBeLessThanOrEqual(0.01);
    expect((await api.get(`/api/strategies/${s.id}`)).body.results.priceTolerancePercent).toBe(0.5);
  });

  it('sizes at the signal’s price when it is close to the venue’s', async () => {
    const { s, account } = await fixedBotOnNewAccount('Good price');
    const { alertId } = await sendSignal(t.app, s, {
      action: 'long',
      symbol: 'BTCUSDT',
      price: '64000',
      id: 'price-2',
    });
    expect(await waitForAlert(t as never, alertId)).toBe('succeeded');
    const [size] = await quantities(account.id);
    // 650 / 64,000 = 0.01015…, down to the step.
    expect(Number(size)).toBeCloseTo(650 / 64000, 3);
    expect(Number(size)).toBeGreaterThan(0.01);
  });
});
