import type { FastifyBaseLogger } from 'fastify';
import type PgBoss from 'pg-boss';
import { JOB_POLLING_SECONDS } from '../../jobs/boss';
import { SYSTEM_ACTOR } from '../audit/audit-service';
import type { BillingService } from './billing-service';

export const BILLING_MONTHLY_QUEUE = 'billing.monthly-process';

/** Every minute: the ledger events booked meanwhile in a currency other than USD get their rate (issue 19). */
export const BILLING_RATES_QUEUE = 'billing.record-rates';

/** 00:05 UTC on the 1st: the month that just ended is processed (idempotent, so a retry is harmless). */
export const BILLING_MONTHLY_CRON = '5 0 1 * *';

/**
 * Registers the billing jobs with pg-boss (the month's processing, the ledger rates every minute); whichever
 * worker is alive runs each once.
 */
export async function startBillingSchedule(deps: {
  boss: PgBoss;
  billing: Pick<BillingService, 'processPreviousMonth' | 'recordPendingRates'>;
  log: FastifyBaseLogger;
}) {
  const { boss, billing, log } = deps;
  await boss.createQueue(BILLING_MONTHLY_QUEUE);
  await boss.work(
    BILLING_MONTHLY_QUEUE,
    { batchSize: 1, pollingIntervalSeconds: JOB_POLLING_SECONDS },
    async () => {
      const result = await billing.processPreviousMonth(SYSTEM_ACTOR);
      log.info({ billing: result }, 'monthly billing processed');
    },
  );
  await boss.schedule(
    BILLING_MONTHLY_QUEUE,
    BILLING_MONTHLY_CRON,
    {},
    { tz: 'UTC', retryLimit: 5, retryDelay: 300, retryBackoff: true, expireInSeconds: 3_600 },
  );
  await boss.createQueue(BILLING_RATES_QUEUE);
  await boss.work(
    BILLING_RATES_QUEUE,
    { batchSize: 1, pollingIntervalSeconds: JOB_POLLING_SECONDS },
    async () => {
      const recorded = await billing.recordPendingRates();
      if (recorded > 0) log.info({ recorded }, 'ledger rates recorded');
    },
  );
  await boss.schedule(BILLING_RATES_QUEUE, '* * * * *', {}, { retryLimit: 0, expireInSeconds: 50 });
  return {
    async stop() {
      await boss.offWork(BILLING_MONTHLY_QUEUE).catch(() => {});
      await boss.offWork(BILLING_RATES_QUEUE).catch(() => {});
    },
  };
}
