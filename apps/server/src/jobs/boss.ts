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

/** A job running longer than this is reported (`onSlowJob`), and again when it ends. */
export const SLOW_JOB_MS = 10_000;

export type SlowJob = { queue: string; runningMs: number; ended: boolean };

/**
 * pg-boss on the application's PostgreSQL. Producers (API processes) only insert jobs;
 * consumers (workers) also run maintenance and cron. Polling is tuned well below the
 * 2 s default (DESIGN §11).
 *
 * Every handler given to `work` is watched: one still running after `slowJobMs` is reported with its queue,
 * and again when it ends, so a stuck job (a query that never answers, a lock never given back) is seen in the
 * logs instead of silently holding its queue — and a stop that waits for it says which job it waits for.
 */
export function createBoss(
  connectionString: string,
  role: QueueRole,
  onError: (e: Error) => void,
  options: { onSlowJob?: (job: SlowJob) => void; slowJobMs?: number } = {},
): PgBoss {
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
  const { onSlowJob, slowJobMs = SLOW_JOB_MS } = options;
  if (onSlowJob) {
    // work(name, handler) or work(name, options, handler): the handler is always last.
    const work = boss.work.bind(boss) as (name: string, ...rest: unknown[]) => Promise<string>;
    const watchedWork = (name: string, ...rest: unknown[]) => {
      const handler = rest.pop() as (jobs: unknown) => Promise<unknown>;
      return work(name, ...rest, async (jobs: unknown) => {
        const startedAt = Date.now();
        let slow = false;
        const timer = setTimeout(() => {
          slow = true;
          onSlowJob({ queue: name, runningMs: Date.now() - startedAt, ended: false });
        }, slowJobMs);
        try {
          return await handler(jobs);
        } finally {
          clearTimeout(timer);
          if (slow) onSlowJob({ queue: name, runningMs: Date.now() - startedAt, ended: true });
        }
      });
    };
    Object.assign(boss, { work: watchedWork });
  }
  return boss;
}

export const JOB_POLLING_SECONDS = 0.5;
