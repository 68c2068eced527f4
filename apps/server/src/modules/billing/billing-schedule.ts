import type { FastifyBaseLogger } from 'fastify';
import type PgBoss from 'pg-boss';
import { JOB_POLLING_SECONDS } from '../../jobs/boss';
import { SYSTEM_ACTOR } from '../audit/audit-service';
import type { BillingService } from './billing-service';

export const BILLING_MONTHLY_QUEUE = 'billing.monthly-process';

/** 00:05 UTC on the 1st: the month that just ended is processed (idempotent, so a retry is harmless). */
export const BILLING_MONTHLY_CRON = '5 0 1 * *';

/** Registers the monthly billing job with pg-boss; whichever worker is alive runs it once. */
export async function startBillingSchedule(deps: {
  boss: PgBoss;
  billing: Pick<BillingService, 'processPreviousMonth'>;
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
  return {
    async stop() {
      await boss.offWork(BILLING_MONTHLY_QUEUE).catch(() => {});
    },
  };
}
