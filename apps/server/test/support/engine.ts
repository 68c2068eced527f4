import type { FastifyInstance } from 'fastify';
import { startAlertWorker } from '../../src/engine/alert-worker';
import type { OpenRequest } from '../../src/engine/trade-lifecycle';
import type { TestApp } from './app';
import { bearer, type Session } from './users';

/** Runs the real alert worker against the test app's database (what the worker role runs). */
export function startTestAlertWorker(t: TestApp, workerId = 'test-worker', leaseSeconds = 15) {
  return startAlertWorker({
    pool: t.db.pool,
    alerts: t.app.services.repos.alerts,
    process: (alert) => t.app.services.engine.processor.process(alert),
    log: t.app.log,
    options: { workerId, leaseSeconds, concurrency: 4, pollMs: 100 },
  });
}

export async function waitForAlert(
  t: Pick<TestApp, 'db'>,
  alertId: string,
  statuses = ['succeeded', 'dead'],
  timeoutMs = 20_000,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await t.db.pool.query('SELECT status FROM alerts WHERE id = $1', [alertId]);
    if (statuses.includes(rows[0]?.status)) return rows[0].status as string;
    if (Date.now() > deadline) throw new Error(`alert ${alertId} still ${rows[0]?.status}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function createPaperAccount(
  app: FastifyInstance,
  s: Session,
  body: Record<string, unknown> = {},
) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/trading-accounts',
    headers: bearer(s.apiToken),
    payload: { nickname: 'Paper', exchange: 'paper', ...body },
  });
  if (res.statusCode !== 201) throw new Error(`account: ${res.statusCode} ${res.body}`);
  return res.json().results as { id: string; usdtBalance: string };
}

export async function createBot(app: FastifyInstance, s: Session, body: Record<string, unknown>) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/bots',
    headers: bearer(s.apiToken),
    payload: body,
  });
  if (res.statusCode !== 201) throw new Error(`bot: ${res.statusCode} ${res.body}`);
  return res.json().results as { id: string; position: string };
}

/** A strategy's body with what most strategies have: a 2-level take-profit ladder (2 %, 4 %) and a 5 % stop. */
export const ladderStrategyBody = (nickname: string) => ({
  nickname,
  tradeCurrency: 'BTC',
  timeFrame: '1h',
  takeProfits: [
    { role: 'tp1', percent: 2, sizePercent: 50 },
    { role: 'tp2', percent: 4, sizePercent: 50 },
  ],
  stopLossPercent: 5,
});

/** `POST /api/strategies` as `s`, the answer as it came (refusals included). */
export function postStrategy(app: FastifyInstance, s: Session, body: Record<string, unknown>) {
  return app.inject({ method: 'POST', url: '/api/strategies', headers: bearer(s.apiToken), payload: body });
}

export async function sendSignal(
  app: FastifyInstance,
  strategy: { strategyKey: string; webhookSecret: string },
  body: Record<string, unknown>,
) {
  const res = await app.inject({
    method: 'POST',
    url: '/webhooks/tradingview',
    payload: { strategyKey: strategy.strategyKey, secret: strategy.webhookSecret, ...body },
  });
  if (res.statusCode !== 200) throw new Error(`webhook: ${res.statusCode} ${res.body}`);
  return res.json().results as { alertId: string; duplicate: boolean };
}

/**
 * A manual trade as `managedLifecycle.open` takes it: long BTC/USDT with no bot, strategy or alert, a
 * take-profit ladder of two halves (2 % and 3 %), a 1 % stop moving to break-even after tp1 — unless told.
 */
export function manualOpenRequest(
  fields: Pick<OpenRequest, 'userId' | 'accountId' | 'clientOrderId' | 'quantity'> & Partial<OpenRequest>,
): OpenRequest {
  return {
    botId: null,
    strategyId: null,
    alertId: null,
    symbol: 'BTC/USDT',
    side: 'long',
    plan: {
      takeProfits: [
        { role: 'tp1', percent: '2', sizePercent: '50' },
        { role: 'tp2', percent: '3', sizePercent: '50' },
      ],
      stopLossPercent: '1',
      breakEvenAfterTp1: true,
    },
    ...fields,
  };
}

/** A trade's venue stops as the stop guard recorded them, one row per placement, oldest first. */
export async function venueStopsOf(
  db: Pick<TestApp['db'], 'pool'>,
  tradeId: string,
): Promise<{ client_order_id: string; status: string; trigger_price: string; amount: string }[]> {
  const { rows } = await db.pool.query(
    `SELECT client_order_id, status, trigger_price::float8::text AS trigger_price, amount::float8::text AS amount
       FROM venue_stops WHERE trade_id = $1 ORDER BY created_at, client_order_id`,
    [tradeId],
  );
  return rows;
}
