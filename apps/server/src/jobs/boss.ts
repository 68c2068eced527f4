import PgBoss from 'pg-boss';

export type QueueRole = 'producer' | 'consumer';

/**
 * pg-boss on the application's PostgreSQL. Producers (API processes) only insert jobs;
 * consumers (workers) also run maintenance and cron. Polling is tuned well below the
 * 2 s default (DESIGN §11).
 */
export function createBoss(connectionString: string, role: QueueRole, onError: (e: Error) => void): PgBoss {
  const boss = new PgBoss({
    connectionString,
    schema: 'pgboss',
    max: role === 'consumer' ? 10 : 4,
    supervise: role === 'consumer',
    schedule: role === 'consumer',
    migrate: true,
    application_name: `kairos-${role}`,
  });
  boss.on('error', onError);
  return boss;
}

export const JOB_POLLING_SECONDS = 0.5;
