import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ScriptedMarket } from '../fakes/scripted-market';
import { createPaperAccount } from '../support/engine';
import { registerUser, type Session } from '../support/users';
import { asUser, startTradesApp, type TradesApp } from '../support/trades-app';

/**
 * Issue 21: a push whose market order the venue refused says the venue's refusal with its code and params
 * (PUSH_FAILED's nested `error`), so the web says it in the user's language — not its English alone.
 */
let t: TradesApp;
let alice: Session;
let tradeId: string;
const market = new ScriptedMarket(() => Date.now());

beforeAll(async () => {
  t = await startTradesApp({ paperVenueOptions: { market } });
  alice = await registerUser(t.app);
  const account = await createPaperAccount(t.app, alice);
  const created = await asUser(t.app, alice).post('/api/trades', {
    accountId: account.id,
    symbol: 'BTC/USDT',
    side: 'long',
    amount: '0.01',
    takeProfits: [{ percent: 1, sizePercent: 100 }],
  });
  expect(created.status).toBe(201);
  tradeId = created.body.results.trade.id;
});
afterAll(() => t.close());

describe('a push the venue refused', () => {
  it("says the refusal with its code and params under PUSH_FAILED's error", async () => {
    const refusal = {
      lastError: 'Insufficient BTC: 0.01 needed, 0.002 available',
      lastErrorCode: 'INSUFFICIENT_FUNDS',
      lastErrorParams: { variant: 'balance', asset: 'BTC', needed: '0.01', available: '0.002' },
    };
    // The market order comes back refused, as its row keeps it (the executor's answer is stood in for).
    vi.spyOn(t.app.services.engine.executor, 'submit').mockImplementationOnce(async (_gateway, row) =>
      t.app.services.repos.trades.updateOrder(row.id, { status: 'rejected', ...refusal }),
    );
    const res = await asUser(t.app, alice).put('/push-to-take-profit', {
      tradeId,
      takeProfitRole: 'tp1',
      botId: null,
      userId: alice.user.id,
    });
    expect(res.body).toMatchObject({
      success: false,
      error: 'PUSH_FAILED',
      message: `Failed to push TP1: ${refusal.lastError}`,
      params: {
        name: 'TP1',
        error: refusal.lastError,
        'error.code': 'INSUFFICIENT_FUNDS',
        'error.variant': 'balance',
        'error.asset': 'BTC',
        'error.needed': '0.01',
        'error.available': '0.002',
      },
    });
  });
});
