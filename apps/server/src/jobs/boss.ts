import { createRequire } from 'node:module';
import PgBoss from 'pg-boss';

export type QueueRole = 'producer' | 'consumer';

type EndOfJob = (
  this: { emit(event: string, arg: unknown): boolean },
  name: string,
  ids: unknown,
) => Promise<unknown>;

/**
 * pg-boss 10 writes a job's end (`complete` after the handler, `fail` after its error) without awaiting it
 * (src/manager.js, `onFetch`; timgit/pg-boss#577, awaited from v11, which needs Node 22). A job ending while
 * PostgreSQL is away (a restart, a failover) left that write's rejection unhandled, and Node ends the process
 * on one: API and worker went down with the database instead of waiting for it. Each end of a job now reports
 * a failed write through the queue's `error` event (the caller, when there is one, still gets the rejection);
 * the job itself stays `active` until it expires, as for a worker that died. Patched once, before any PgBoss
 * is built (the instance binds the methods then).
 */
function reportLostJobEnds() {
  const require = createRequire(import.meta.url);
  const manager = (require('pg-boss/src/manager.js') as { prototype: Record<string, unknown> }).prototype;
  for (const method of ['complete', 'fail'] as const) {
    const original = manager[method] as EndOfJob & { lostEndsReported?: true };
    if (typeof original !== 'function' || original.lostEndsReported) continue;
    const reported: EndOfJob & { lostEndsReported?: true } = function (this, name, ids, ...rest: unknown[]) {
      const written = (original as (...args: unknown[]) => Promise<unknown>).call(this, name, ids, ...rest);
      written.catch((e: unknown) => {
        const reason = e instanceof Error ? e.message : String(e);
        const error = new Error(`end of job ${String(ids)} (${name}, ${method}) not recorded: ${reason}`, {
          cause: e,
        });
        this.emit('error', error);
      });
      return written;
    };
    reported.lostEndsReported = true;
    manager[method] = reported;
  }
}
reportLostJobEnds();

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
