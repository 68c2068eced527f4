import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type PgBoss from 'pg-boss';
import type { Database } from './db/client';
import { workerHeartbeats } from './db/schema/index';
import { JOB_POLLING_SECONDS } from './queue/boss';

export const HEARTBEAT_QUEUE = 'system.heartbeat';

export type Worker = { id: string; stop(): Promise<void> };

/** The worker role: every queue consumer and scheduled job starts here. */
export async function startWorker(deps: {
  db: Database;
  boss: PgBoss;
  log: FastifyBaseLogger;
}): Promise<Worker> {
  const { db, boss, log } = deps;
  const id = `${os.hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  const startedAt = new Date();

  const beat = async () => {
    const now = new Date();
    await db
      .insert(workerHeartbeats)
      .values({ workerId: id, hostname: os.hostname(), pid: process.pid, startedAt, beatAt: now })
      .onConflictDoUpdate({ target: workerHeartbeats.workerId, set: { beatAt: now } });
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
  log.info({ workerId: id }, 'worker started');

  return {
    id,
    async stop() {
      await boss.offWork(HEARTBEAT_QUEUE).catch(() => {});
      await db
        .delete(workerHeartbeats)
        .where(eq(workerHeartbeats.workerId, id))
        .catch(() => {});
    },
  };
}
