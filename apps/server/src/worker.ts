import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type PgBoss from 'pg-boss';
import type { Services } from './composition';
import type { AppConfig } from './config';
import type { DbHandle } from './db/client';
import { startAlertWorker } from './engine/alert-worker';
import { JOB_POLLING_SECONDS } from './jobs/boss';
import { startBillingSchedule } from './modules/billing/billing-schedule';

/**
 * Trade closes refresh their accounts once closes have stopped coming for this long (a fan-out closing
 * trades one after another), and at the latest this long after the first of them.
 */
const CLOSE_REFRESH_QUIET_MS = 500;
const CLOSE_REFRESH_MAX_WAIT_MS = 5_000;

export const HEARTBEAT_QUEUE = 'system.heartbeat';
export const BALANCE_REFRESH_QUEUE = 'accounts.refresh-balances';

export type Worker = { id: string; stop(): Promise<void> };

/** The worker role: every queue consumer and scheduled job starts here. */
export async function startWorker(deps: {
  db: DbHandle;
  boss: PgBoss;
  log: FastifyBaseLogger;
  services: Services;
  config: Pick<AppConfig, 'alertLeaseSeconds' | 'workerConcurrency'>;
}): Promise<Worker> {
  const { boss, log, services } = deps;
  const heartbeats = services.repos.health;
  const id = `${os.hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  const startedAt = new Date();

  const beat = async () => {
    await heartbeats.beat({ workerId: id, hostname: os.hostname(), pid: process.pid, startedAt }, new Date());
  };

  await boss.createQueue(HEARTBEAT_QUEUE);
  await boss.work(
    HEARTBEAT_QUEUE,
    { batchSize: 1, pollingIntervalSeconds: JOB_POLLING_SECONDS },
    async () => {
      await beat();
    },
  );
  // A real scheduled job: pg-boss cron, every minute, picked up by whichever worker is alive.
  await boss.schedule(HEARTBEAT_QUEUE, '* * * * *', {}, { retryLimit: 0, expireInSeconds: 30 });
  await beat();

  // usdtBalance of every account, refreshed every minute (and on demand by the services).
  await boss.createQueue(BALANCE_REFRESH_QUEUE);
  await boss.work(
    BALANCE_REFRESH_QUEUE,
    { batchSize: 1, pollingIntervalSeconds: JOB_POLLING_SECONDS },
    async () => {
      await services.accounts.refreshBalances();
    },
  );
  await boss.schedule(BALANCE_REFRESH_QUEUE, '* * * * *', {}, { retryLimit: 0, expireInSeconds: 50 });

  // Resting paper orders fill as the simulated price crosses them.
  services.venues.paperVenue.start(1_000, (e) => log.warn({ err: e }, 'paper venue matching failed'));

  const alerts = startAlertWorker({
    pool: deps.db.pool,
    alerts: services.repos.alerts,
    process: (alert) => services.engine.processor.process(alert),
    log,
    options: {
      workerId: id,
      leaseSeconds: deps.config.alertLeaseSeconds,
      concurrency: deps.config.workerConcurrency,
      pollMs: 500,
    },
  });
  // Profit-share billing: on the 1st of each month the month that just ended is processed.
  // Registered in the background: the worker's start-up is not held up by it.
  const billingSchedule = startBillingSchedule({ boss, billing: services.billing, log }).catch((err) => {
    log.error({ err }, 'monthly billing job not registered');
    return undefined;
  });
  // Trades after their entry: paper fill events, reconciliation now and every few seconds, stop-losses.
  const tradeMonitor = services.engine.startTradeMonitor();

  // Every trade close refreshes its account's balance and records an equity snapshot (equity curve). Closes
  // are gathered for a moment: an alert closing 1,000 trades on 100 accounts refreshes each account once.
  const closedAccounts = new Set<string>();
  let refreshTimer: ReturnType<typeof setTimeout> | undefined;
  let firstCloseAt = 0;
  let refreshing = Promise.resolve();
  const refreshClosed = () => {
    refreshTimer = undefined;
    const ids = [...closedAccounts];
    closedAccounts.clear();
    refreshing = refreshing
      .then(async () => {
        await services.accounts.refreshBalances(ids, true);
      })
      .catch((err) => log.warn({ err }, 'balance refresh after a close failed'));
    return refreshing;
  };
  const closedTradeWatcher = {
    userId: '*',
    isAdmin: true,
    send: (e: { type: string; status?: string; accountId?: string }) => {
      if (e.type === 'trade' && e.status === 'closed' && e.accountId) {
        if (closedAccounts.size === 0) firstCloseAt = Date.now();
        closedAccounts.add(e.accountId);
        clearTimeout(refreshTimer);
        const left = firstCloseAt + CLOSE_REFRESH_MAX_WAIT_MS - Date.now();
        refreshTimer = setTimeout(refreshClosed, Math.max(0, Math.min(CLOSE_REFRESH_QUIET_MS, left)));
      }
    },
  };
  await services.events.ensureListening();
  services.events.subscribe(closedTradeWatcher);
  log.info({ workerId: id }, 'worker started');

  return {
    id,
    async stop() {
      // No new minute job while the services it uses are being stopped (a job already running finishes; the
      // queue's stop waits for it).
      await boss.offWork(BALANCE_REFRESH_QUEUE).catch(() => {});
      await boss.offWork(HEARTBEAT_QUEUE).catch(() => {});
      services.events.unsubscribe(closedTradeWatcher);
      clearTimeout(refreshTimer);
      if (closedAccounts.size > 0) await refreshClosed();
      await refreshing;
      await alerts.stop();
      await tradeMonitor.stop();
      await (await billingSchedule)?.stop();
      services.venues.paperVenue.stop();
      await services.events.close();
      await heartbeats.removeWorker(id).catch(() => {});
    },
  };
}
